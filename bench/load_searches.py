"""bench/load.py's search rows beside the mixed ones: `search_hadith`'s bodies apart by the statements they
reach, `search_narrator`'s names slipped, and (`--search-anchor`) the same bodies sent to the search anchor, a
dedicated full-text engine (bench/search_anchor.py, served by bench/anchor_server.py).

The kinds: the citations (the reference tier) and the Arabic phrases; the phrases apart again by the tiers
they reach, which the API's `server-timing` says, asked once before the load: one statement (the exact and
fulltext tiers filled the list, or left room and the fuzzy tier had nothing to look for) or two (the fuzzy
tier ran). The load's names are narrators' names as written; slipped one letter (bench.name_typo_recall's
slips), they are read by the narrator's fuzzy tier instead.
"""

import random
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

import httpx
import orjson
from rich.console import Console

from bench.api_args import Variables
from bench.load_answers import Configuration
from bench.name_typo_recall import SEED as SLIP_SEED
from bench.search_anchor import build
from bench.servers import JSON_HEADERS, Server, database_env, free_port, server, wait_ready
from bench.typo_recall import slipped

SEARCHES = ("search_hadith", "search_narrator")
STATEMENTS = re.compile(r'desc="(\d+) statements"')
PHRASE_TIERS = {1: "exact and fulltext tiers (1 statement)", 2: "to the fuzzy tier (2 statements)"}


def _bodies(document_id: str, sets: Sequence[Variables]) -> list[bytes]:
    return [orjson.dumps({"documentId": f"sha256:{document_id}", "variables": v}) for v in sets]


def _statements(client: httpx.Client, api: Server, body: bytes) -> int:
    """How many statements the API ran to answer `body` (its server-timing header)."""
    response = client.post(f"http://127.0.0.1:{api.port}/graphql", content=body, headers=JSON_HEADERS)
    found = STATEMENTS.search(response.headers.get("server-timing", ""))
    if response.status_code != 200 or found is None:
        raise SystemExit(f"search_hadith, {body.decode()}: {response.status_code} {response.text[:500]}")
    return int(found.group(1))


def _slipped_names(sets: Sequence[Variables]) -> list[Variables]:
    """search_narrator's argument sets, each name slipped in one word of bench.typo_recall's MIN_LETTERS letters or
    more, in each of its three ways (drawn with SLIP_SEED); a name without such a word is left out."""
    rng = random.Random(SLIP_SEED)  # noqa: S311 (reproducible sampling, not cryptography)
    return [{**v, "query": text} for v in sets for text in (slipped(v["query"], rng) or {}).values()]


def search_kinds(
    api: Server, document_ids: dict[str, str], arguments: dict[str, list[Variables]]
) -> list[Configuration]:
    """search_hadith's argument sets apart: the Arabic phrases, the citations, then the phrases by the tiers
    they reach (a row per statement count that some phrase gives); and search_narrator's names slipped one letter,
    which the narrator's fuzzy tier reads."""
    sets, document_id = arguments["search_hadith"], document_ids["search_hadith"]
    phrases = _bodies(document_id, [v for v in sets if ":" not in v["query"]])
    citations = _bodies(document_id, [v for v in sets if ":" in v["query"]])
    slipped_names = _bodies(document_ids["search_narrator"], _slipped_names(arguments["search_narrator"]))
    with httpx.Client(timeout=30.0) as client:
        reached = [_statements(client, api, body) for body in phrases]
    by_tiers = {
        f"API search_hadith, Arabic phrases, {name}": [b for b, n in zip(phrases, reached, strict=True) if n == count]
        for count, name in PHRASE_TIERS.items()
    }
    kinds = {
        "API search_hadith, Arabic phrases only": phrases,
        "API search_hadith, citations only": citations,
        "API search_narrator, names slipped one letter": slipped_names,
    }
    return [Configuration(name, "API", api, bodies, None) for name, bodies in {**kinds, **by_tiers}.items() if bodies]


def _anchor_name(api_row: str) -> str:
    """The anchor's row beside the API's row `api_row`: the same bodies."""
    return api_row.replace("API", "search anchor (tantivy):", 1).replace(" (persisted, documentId)", "")


def anchor_twins(
    stack: ExitStack, url: str, schema: str, configs: Sequence[Configuration], document_ids: dict[str, str],
    console: Console,
) -> list[Configuration]:  # fmt: skip
    """The anchor's indexes built from the database in a temporary folder (removed once the anchor's server
    stops), its server started, and a configuration sending it the bodies of each of the API's search rows."""
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="isnad-anchor-")))
    started = time.perf_counter()
    hadith, forms = build(url, schema, folder)
    console.print(
        f"the anchor's tantivy indexes: {hadith:,} hadith, {forms:,} name forms, "
        f"built in {time.perf_counter() - started:.1f} s"
    )
    documents = orjson.dumps({document_ids[tool]: tool for tool in SEARCHES}).decode()
    port = free_port()
    command = [sys.executable, "-m", "bench.anchor_server", "--index", str(folder), "--documents", documents,
               "--port", str(port)]  # fmt: skip
    anchor = stack.enter_context(server("anchor", command, port, database_env(url), "/healthz"))
    if (failure := wait_ready(anchor)) is not None:
        raise SystemExit(failure)
    return [
        Configuration(_anchor_name(config.name), "anchor", anchor, config.bodies, None)
        for config in configs
        if config.role == "API" and any(tool in config.name for tool in SEARCHES)
    ]
