"""Times the search on the full database: p50 and p99 latency of each search statement, and of whole requests.

    python -m bench.search_bench [--queries eval/search_queries.jsonl] [--rounds 5]

Uses ISNAD_DATABASE_URL, else the embedded PostgreSQL. Every query of the evaluation set is sent as a
search_hadith / search_narrator request over HTTP to the app in process, one at a time, `rounds` times
after a warm-up run. Each statement is timed where the resolver runs it (app/data/search/ wrapped for
the run), under the tiers it holds: a statement that a request does not send is not counted, one that
runs and finds nothing is. A hadith statement holding several tiers costs only the tiers it reaches.
A script that prints figures, never a test.
"""

import argparse
import asyncio
import functools
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from app.asgi import create_app
from app.data import search
from app.data.embedded import database_url
from app.settings import Settings, load_settings
from bench.search_eval import QUERIES, EvalQuery, read_queries

DOCUMENTS = {
    "search_hadith": "query ($query: String!, $query_language: String, $collection_id: Int) {"
    " search_hadith(query: $query, query_language: $query_language, collection_id: $collection_id)"
    " { results { hadith_id } } }",
    "search_narrator": "query ($query: String!, $query_language: String, $filters: NarratorFilters) {"
    " search_narrator(query: $query, query_language: $query_language, filters: $filters) { results { narrator_id } } }",
}
HADITH_STATEMENTS = {
    "hadith_by_citation": "reference",
    "hadith_then_fuzzy_words": "exact, fulltext, vocabulary when room (Arabic)",
    "hadith_by_fuzzy_words": "fuzzy (Arabic)",
    "fuzzy_words": "vocabulary (French)",
    "hadith_by_wording": "exact, fulltext, fuzzy (French)",
}
Timings = dict[str, list[tuple[float, str]]]  # name -> (seconds, query)


def _hadith_tiers(tiers: str) -> Callable[..., str]:
    return lambda *_: f"hadith {tiers}"


NAMERS = {
    **{name: _hadith_tiers(tiers) for name, tiers in HADITH_STATEMENTS.items()},
    "narrators_by_name": lambda *_: "narrator, all tiers (one statement)",
}


class TierClock:
    """Seconds spent in the statements of each tier (or tiers) during the current request."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)

    def timed(self, name: Callable[..., str], function: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        @functools.wraps(function)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await function(*args, **kwargs)
            finally:
                self.spent[name(*args)] += time.perf_counter() - started

        return wrapper


@contextmanager
def clocked(clock: TierClock) -> Iterator[None]:
    """app.data.search's statement functions, timed into `clock` while the block runs."""
    originals = {name: getattr(search, name) for name in NAMERS}
    for name, namer in NAMERS.items():
        setattr(search, name, clock.timed(namer, originals[name]))
    try:
        yield
    finally:
        for name, function in originals.items():
            setattr(search, name, function)


async def _request(client: httpx.AsyncClient, query: EvalQuery) -> None:
    variables = {"query": query.query, **query.arguments}
    response = await client.post("/graphql", json={"query": DOCUMENTS[query.tool], "variables": variables})
    if "errors" in response.json():
        raise RuntimeError(f"{query.query!r}: {response.json()['errors']}")


async def measure(settings: Settings, url: str, queries: Sequence[EvalQuery], rounds: int) -> tuple[Timings, Timings]:
    tiers: Timings = defaultdict(list)
    requests: Timings = defaultdict(list)
    clock = TierClock()
    app = create_app(settings, url)
    # The app's lifespan, as `serve` runs it: start-up frozen out of the collector's reach, else a full collection
    # scans it all (117 ms within one request here).
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://bench") as client,
    ):
        with clocked(clock):
            for query in queries:
                await _request(client, query)  # warm-up: plans, caches
                for _ in range(rounds):
                    clock.spent.clear()
                    started = time.perf_counter()
                    await _request(client, query)
                    requests[query.tool].append((time.perf_counter() - started, query.query))
                    for tier, seconds in clock.spent.items():
                        tiers[tier].append((seconds, query.query))
    return tiers, requests


def percentile(values: list[float], percent: int) -> float:
    """The `percent` percentile of `values` (seconds), in milliseconds."""
    if len(values) < 2:
        return values[0] * 1000
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1] * 1000


def table(title: str, timings: Timings) -> Table:
    out = Table(title=title)
    for column in ("", "runs", "p50 ms", "p99 ms", "max ms", "slowest query"):
        out.add_column(column, justify="right" if column.endswith("ms") or column == "runs" else "left")
    for name in sorted(timings):
        values = [seconds for seconds, _ in timings[name]]
        slowest, query = max(timings[name])
        p50, p99 = percentile(values, 50), percentile(values, 99)
        out.add_row(name, str(len(values)), f"{p50:.1f}", f"{p99:.1f}", f"{slowest * 1000:.1f}", query[:40])
    return out


def queries_and_rounds(description: str | None, argv: Sequence[str] | None) -> argparse.Namespace:
    """`--queries` (the evaluation set by default) and `--rounds` (5 by default)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--rounds", type=int, default=5)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    options = queries_and_rounds(__doc__, argv)
    settings = load_settings()
    console = Console(width=None if sys.stdout.isatty() else 160)
    queries = read_queries(options.queries)
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        tiers, requests = asyncio.run(measure(settings, url, queries, options.rounds))
    console.print(table("search statements, as the resolvers run them (the tiers each holds)", tiers))
    console.print(table("whole requests over HTTP (app in process)", requests))
    console.print(f"{len(queries)} queries x {options.rounds} rounds, one at a time, after a warm-up run of each.")


if __name__ == "__main__":
    main()
