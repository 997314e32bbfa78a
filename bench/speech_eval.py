"""Measures search as people speak: recall@1 and recall@5 per kind on eval/speech_queries.jsonl, the share of
French and English sentences kept off the Arabic tiers, and the time each kind takes.

    python -m bench.speech_eval [--queries eval/speech_queries.jsonl] [--misses]

Runs every query through the API (the real app, in process, over HTTP) against ISNAD_DATABASE_URL, else the
embedded PostgreSQL (the full database). One JSON object a line: `type` (spoken_fr, spoken_en, spoken_ar:
citations said in French, English, Arabic; romanized_famous, romanized_phrase: Arabic in Latin letters;
not_arabic: French and English sentences), `query`, `expected` (the canonical references that answer it; any
of them counts), and `style` or `source` where the query was written from real text (bench/speech_queries.py).
A `not_arabic` query scores 1 when no hit came through transliteration: the recall columns of that kind are
the share of sentences the search did not misread as Arabic (1 - the false-positive rate). A script that
prints figures, never a test: tests/tools/test_spoken_search.py holds the issue's examples on the subset.
"""

import asyncio
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table

from bench.search_eval import TOP, Metrics, api_client, arguments, print_misses, rank_of

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ROOT / "eval" / "speech_queries.jsonl"
DOCUMENT = (
    "query ($query: String!) { search_hadith(query: $query, limit: 5)"
    " { results { canonical_reference match_method } } }"
)
NOT_ARABIC = "not_arabic"


@dataclass(frozen=True)
class SpeechQuery:
    type: str
    query: str
    expected: tuple[str, ...]


@dataclass(frozen=True)
class Measured:
    metrics: dict[str, Metrics]
    times: dict[str, list[float]]
    misses: list[tuple[SpeechQuery, list[tuple[str, str]]]]


def read_queries(path: Path) -> list[SpeechQuery]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [SpeechQuery(item["type"], item["query"], tuple(item["expected"])) for item in lines]


async def _hits(client: httpx.AsyncClient, query: str) -> list[tuple[str, str]]:
    body = (await client.post("/graphql", json={"query": DOCUMENT, "variables": {"query": query}})).json()
    if "errors" in body:
        raise RuntimeError(f"{query!r}: {body['errors']}")
    return [(hit["canonical_reference"], hit["match_method"]) for hit in body["data"]["search_hadith"]["results"]]


def _rank(query: SpeechQuery, hits: list[tuple[str, str]]) -> int | None:
    if query.type == NOT_ARABIC:
        return None if any(method == "transliteration" for _, method in hits) else 1
    return rank_of([reference for reference, _ in hits][:TOP], query.expected)


async def evaluate(client: httpx.AsyncClient, queries: Sequence[SpeechQuery]) -> Measured:
    metrics: dict[str, Metrics] = defaultdict(Metrics)
    times: dict[str, list[float]] = defaultdict(list)
    misses = []
    for query in queries:
        started = time.perf_counter()
        hits = await _hits(client, query.query)
        times[query.type].append((time.perf_counter() - started) * 1000)
        rank = _rank(query, hits)
        metrics[query.type].ranks.append(rank)
        if rank is None:
            misses.append((query, hits))
    return Measured(dict(metrics), dict(times), misses)


def table(measured: Measured) -> Table:
    out = Table(title="search as people speak")
    for column in ("kind", "queries", "recall@1", "recall@5", "p50 ms", "max ms"):
        out.add_column(column, justify="left" if column == "kind" else "right")
    for kind in sorted(measured.metrics):
        m, spent = measured.metrics[kind], measured.times[kind]
        cells = (str(m.count), f"{m.recall(1):.3f}", f"{m.recall(TOP):.3f}")
        out.add_row(kind, *cells, f"{statistics.median(spent):.1f}", f"{max(spent):.1f}")
    return out


async def run(queries: Sequence[SpeechQuery]) -> Measured:
    async with api_client() as client:
        await evaluate(client, queries[:10])  # warm: statements prepared, caches filled
        return await evaluate(client, queries)


def main(argv: Sequence[str] | None = None) -> None:
    options = arguments(__doc__, QUERIES, argv)
    console = Console(width=None if sys.stdout.isatty() else 160)
    measured = asyncio.run(run(read_queries(options.queries)))
    console.print(table(measured))
    if options.misses:
        print_misses(console, measured.misses)


if __name__ == "__main__":
    main()
