"""The database time each field with a resolver claims, on the full database: the figures behind the
cost weights of app/execution/cost.py (`WEIGHTS`). Prints a table; a script that prints figures, never a test.

    python -m bench.field_costs [--samples 40]

Uses ISNAD_DATABASE_URL, else the embedded PostgreSQL. The app runs in-process (ASGI), one request at a
time, so each figure is the database time of a request alone. The database time of a request is the one
its `Server-Timing` header reports (`sql;dur=<ms>`: its statements, as the API saw them).
- A root field: its persisted document at the largest limits, with realistic arguments
  (bench/api_args.py); its time is the whole request's.
- A navigation field: a document that selects it under a root field, against the same document without
  it; its time is the median difference, per call (the calls counted in the answer), and per request.
The unit is the median time of `get_hadith`, one lookup by key.
"""

import argparse
import asyncio
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
import httpx
from rich import box
from rich.console import Console
from rich.table import Table

from app.asgi import create_app
from app.data.embedded import database_url
from app.settings import Settings, load_settings
from bench.api_args import Variables, pick_arguments
from bench.api_bench import ROOT, SEED, server_settings
from schema.contract import TOOLS

LARGEST = {  # each tool's list arguments at their maximum (app/limits.py)
    "search_hadith": {"limit": 20},
    "get_hadith_chains": {"limit": 20},
    "search_narrator": {"limit": 20},
    "get_narrator_profile": {"entry_limit": 20},
    "get_narrator_hadiths": {"limit": 50},
    "get_transmission_relation": {"limit": 20, "include_chain_observations": True},
    "get_hadith_commentary": {"limit": 20},
}


@dataclass(frozen=True)
class Probe:
    """A navigation field, measured as `document` (its selection filled with `selection`) against `base`."""

    field: str  # Type.field
    tool: str  # whose argument sets the documents take
    document: str  # with one `%s` for the selection
    selection: str  # selects the field
    base: str  # the same place without it
    key: str  # the field's key in the answer, to count its calls


PROBES = (
    Probe(
        "Hadith.chains",
        "get_hadith",
        "query($hadith_id: Int!) { get_hadith(hadith_id: $hadith_id) { %s } }",
        "chains(limit: 20) { chains { chain_id } }",
        "hadith_id",
        "chains",
    ),
    Probe(
        "Hadith.grades",
        "get_hadith",
        "query($hadith_id: Int!) { get_hadith(hadith_id: $hadith_id) { %s } }",
        "grades(limit: 20) { items { grade } }",
        "hadith_id",
        "grades",
    ),
    Probe(
        "ChainNode.narrator",
        "get_hadith_chains",
        "query($hadith_id: Int!) { get_hadith_chains(hadith_id: $hadith_id, limit: 20) { chains { nodes { %s } } } }",
        "narrator { narrator_id }",
        "position",
        "narrator",
    ),
    Probe(
        "NarratorSummary.hadiths",
        "get_hadith_chains",
        "query($hadith_id: Int!) { get_hadith_chains(hadith_id: $hadith_id, limit: 5) { chains { nodes { narrator {"
        " %s } } } } }",
        "hadiths(limit: 5) { items { hadith_id } }",
        "narrator_id",
        "hadiths",
    ),
    Probe(
        "NarratorHadithItem.hadith",
        "get_narrator_hadiths",
        "query($narrator_id: Int!) { get_narrator_hadiths(narrator_id: $narrator_id, limit: 50) { items { %s } } }",
        "hadith { text_ar }",
        "hadith_id",
        "hadith",
    ),
    Probe(
        "HadithHit.hadith",
        "search_hadith",
        "query($query: String!) { search_hadith(query: $query, limit: 20) { results { %s } } }",
        "hadith { text_ar }",
        "hadith_id",
        "hadith",
    ),
    Probe(
        "NarratorHit.narrator",
        "search_narrator",
        "query($query: String!) { search_narrator(query: $query, limit: 20) { results { %s } } }",
        "narrator { narrator_id }",
        "narrator_id",
        "narrator",
    ),
    Probe(
        "Relation.teacher",
        "get_transmission_relation",
        "query($narrator_a_id: Int!, $narrator_b_id: Int!) { get_transmission_relation(narrator_a_id: $narrator_a_id,"
        " narrator_b_id: $narrator_b_id, limit: 20) { relations { %s } } }",
        "teacher { narrator_id }",
        "teacher_id",
        "teacher",
    ),
    Probe(
        "ChainObservation.hadith",
        "get_transmission_relation",
        "query($narrator_a_id: Int!, $narrator_b_id: Int!) { get_transmission_relation(narrator_a_id: $narrator_a_id,"
        " narrator_b_id: $narrator_b_id, limit: 20) { chain_observations { %s } } }",
        "hadith { text_ar }",
        "hadith_id",
        "hadith",
    ),
)


@dataclass(frozen=True)
class Figure:
    field: str
    per_request_ms: float  # median
    p90_ms: float
    calls: float  # mean calls of the field's resolver per request
    statements: float  # mean statements per request that it adds


async def timed(client: httpx.AsyncClient, document: str, variables: Variables) -> tuple[float, int, Any]:
    """The request's database milliseconds and statements, from its Server-Timing header, and its data."""
    response = await client.post("/graphql", json={"query": document, "variables": variables})
    body = response.json()
    if "errors" in body:
        raise SystemExit(f"{document[:80]}...: {body['errors'][0]['message']}")
    sql = response.headers["server-timing"]  # sql;dur=<ms>;desc="<n> statements"
    duration, described = sql.split(";")[1:3]
    return float(duration.removeprefix("dur=")), int(described.split('"')[1].split()[0]), body["data"]


def count_key(value: Any, key: str) -> int:
    """How many objects of the answer hold `key` with a value (the calls of that field's resolver); what
    the field answered is not searched again."""
    if isinstance(value, list):
        return sum(count_key(item, key) for item in value)
    if isinstance(value, dict):
        own = int(value.get(key) is not None)
        return own + sum(count_key(item, key) for name, item in value.items() if name != key)
    return 0


async def root_figure(client: httpx.AsyncClient, tool: str, argument_sets: Sequence[Variables]) -> Figure:
    document = (ROOT / "persisted" / f"{tool}.graphql").read_text(encoding="utf-8")
    times, statements = [], []
    for variables in argument_sets:
        ms, count, _ = await timed(client, document, {**variables, **LARGEST.get(tool, {})})
        times.append(ms)
        statements.append(count)
    return Figure(f"Query.{tool}", statistics.median(times), percentile(times, 90), 1, statistics.mean(statements))


async def probe_figure(client: httpx.AsyncClient, probe: Probe, argument_sets: Sequence[Variables]) -> Figure:
    with_field, without, calls, statements = [], [], [], []
    for variables in argument_sets:
        ms, count, data = await timed(client, probe.document % probe.selection, variables)
        base_ms, base_count, _ = await timed(client, probe.document % probe.base, variables)
        with_field.append(ms)
        without.append(base_ms)
        calls.append(count_key(data, probe.key))
        statements.append(count - base_count)
    added = [a - b for a, b in zip(with_field, without, strict=True)]
    return Figure(
        probe.field,
        statistics.median(with_field) - statistics.median(without),
        percentile(added, 90),
        statistics.mean(calls),
        statistics.mean(statements),
    )


def percentile(values: Sequence[float], percent: int) -> float:
    return statistics.quantiles(values, n=100)[percent - 1] if len(values) > 1 else values[0]


async def measure(settings: Settings, url: str, samples: int) -> list[Figure]:
    connection = await asyncpg.connect(url, server_settings=server_settings(settings))
    try:
        arguments = await pick_arguments(connection, SEED, samples)
    finally:
        await connection.close()
    app = create_app(settings, url)
    figures = []
    async with app.router.lifespan_context(app):  # as `serve` runs it (bench/search_bench.py says why)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench", timeout=60) as client:
            for tool in TOOLS:  # a first pass loads what the API reads once per process
                await root_figure(client, tool, arguments[tool][:2])
            figures += [await root_figure(client, tool, arguments[tool]) for tool in TOOLS]
            figures += [await probe_figure(client, probe, arguments[probe.tool]) for probe in PROBES]
    return figures


def table(figures: Sequence[Figure]) -> Table:
    unit = next(f.per_request_ms for f in figures if f.field == "Query.get_hadith")
    out = Table(box=box.SIMPLE_HEAD, title=f"database time per field (unit: get_hadith, {unit:.3f} ms)")
    for name in ("field", "ms / request (p50)", "p90", "calls / request", "statements", "ms / call", "units / call"):
        out.add_column(name, justify="left" if name == "field" else "right")
    for f in figures:
        per_call = f.per_request_ms / f.calls if f.calls else 0.0
        out.add_row(
            f.field,
            f"{f.per_request_ms:.3f}",
            f"{f.p90_ms:.3f}",
            f"{f.calls:.1f}",
            f"{f.statements:.1f}",
            f"{per_call:.3f}",
            f"{per_call / unit:.2f}",
        )
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=40, help="argument sets per field (default 40)")
    options = parser.parse_args(argv)
    settings = load_settings()
    console = Console(width=None if sys.stdout.isatty() else 160)
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        figures = asyncio.run(measure(settings, url, options.samples))
    console.print(table(figures))


if __name__ == "__main__":
    main()
