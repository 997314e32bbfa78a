"""The search anchor (bench/search_anchor.py) on the evaluation set, beside the API: recall@1, recall@5 and MRR
per query type, and each engine's time per query alone.

    python -m bench.anchor_eval [--queries eval/search_queries.jsonl] [--rounds 5]

Builds tantivy's indexes from ISNAD_DATABASE_URL (else the embedded PostgreSQL) in a temporary folder, removed
at the end; asks every query of the set of both, the API in process over HTTP (as bench.search_eval does) and
the anchor in process, one query at a time; then times each query `rounds` times on each, after a warm-up
run: p50, p99 and max per tool. The API's time is a whole request (HTTP in process, GraphQL, statements); the
anchor's a call of its Python function (no HTTP). A script that prints figures, never a test.
"""

import asyncio
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from app.data.embedded import database_url
from app.settings import load_settings
from bench.search_anchor import Anchor, built_anchor
from bench.search_bench import percentile, queries_and_rounds
from bench.search_eval import TOP, EvalQuery, Metrics, answers, api_client, rank_of, read_queries

Timings = dict[str, list[float]]  # tool -> seconds


def _answer(anchor: Anchor, query: EvalQuery) -> list[Any]:
    """The anchor's top TOP, as the evaluation compares them (canonical references, narrator ids)."""
    if query.tool == "search_hadith":
        return [hit.reference for hit in anchor.search_hadith(query.query, TOP)]
    return [hit.id for hit in anchor.search_narrator(query.query, TOP)]


def _scored(ranks: dict[str, Metrics], query: EvalQuery, found: Sequence[Any]) -> None:
    for group in (query.type, "all"):
        ranks[group].ranks.append(rank_of(found, query.expected))


async def _api(queries: Sequence[EvalQuery], rounds: int) -> tuple[dict[str, Metrics], Timings]:
    metrics: dict[str, Metrics] = defaultdict(Metrics)
    timings: Timings = defaultdict(list)
    async with api_client() as client:
        for query in queries:
            _scored(metrics, query, await answers(client, query))
            for _ in range(rounds):
                started = time.perf_counter()
                await answers(client, query)
                timings[query.tool].append(time.perf_counter() - started)
    return metrics, timings


def _anchor(anchor: Anchor, queries: Sequence[EvalQuery], rounds: int) -> tuple[dict[str, Metrics], Timings]:
    metrics: dict[str, Metrics] = defaultdict(Metrics)
    timings: Timings = defaultdict(list)
    for query in queries:
        _scored(metrics, query, _answer(anchor, query))
        for _ in range(rounds):
            started = time.perf_counter()
            _answer(anchor, query)
            timings[query.tool].append(time.perf_counter() - started)
    return metrics, timings


def quality(api: dict[str, Metrics], anchor: dict[str, Metrics]) -> Table:
    out = Table(title="recall@1, recall@5 and MRR per query type: the API, the anchor (tantivy)")
    for column in ("query type", "queries", "API r@1", "anchor r@1", "API r@5", "anchor r@5", "API MRR", "anchor MRR"):
        out.add_column(column, justify="left" if column == "query type" else "right")
    readings: list[Callable[[Metrics], float]] = [lambda m: m.recall(1), lambda m: m.recall(TOP), lambda m: m.mrr]
    for group in sorted(api, key=lambda name: (name == "all", name)):
        cells = [f"{read(side[group]):.3f}" for read in readings for side in (api, anchor)]
        out.add_row(group, str(api[group].count), *cells)
    return out


def latency(api: Timings, anchor: Timings) -> Table:
    out = Table(title="time per query, one at a time (ms)")
    for column in ("tool", "engine", "runs", "p50", "p99", "max"):
        out.add_column(column, justify="left" if column in ("tool", "engine") else "right")
    for tool in sorted(api):
        for engine, timings in (("API (whole request)", api), ("anchor (tantivy call)", anchor)):
            values = timings[tool]
            figures = (percentile(values, 50), percentile(values, 99), max(values) * 1000)
            out.add_row(tool, engine, str(len(values)), *(f"{ms:.2f}" for ms in figures))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    options = queries_and_rounds(__doc__, argv)
    queries = read_queries(options.queries)
    settings = load_settings()
    console = Console(width=None if sys.stdout.isatty() else 160)
    with (
        database_url(settings.database_url, settings.embedded_pgdata) as url,
        built_anchor(url, settings.db_schema) as anchor,
    ):
        anchor_metrics, anchor_times = _anchor(anchor, queries, options.rounds)
    api_metrics, api_times = asyncio.run(_api(queries, options.rounds))
    console.print(quality(api_metrics, anchor_metrics))
    console.print(latency(api_times, anchor_times))
    console.print(f"{len(queries)} queries; times: {options.rounds} rounds of each after its first answer.")


if __name__ == "__main__":
    main()
