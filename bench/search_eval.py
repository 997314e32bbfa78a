"""Measures search quality on the evaluation set: recall@1, recall@5 and MRR per query type.

    python -m bench.search_eval [--queries eval/search_queries.jsonl] [--misses]

Runs every query of the set through the API (the real app, in process, over HTTP) against
ISNAD_DATABASE_URL, else the embedded PostgreSQL (the full database). One JSON object a line:
`type`, `tool` (search_hadith or search_narrator), `query`, `expected` (the canonical_references or
narrator ids that answer it; any of them counts), and the tool's other arguments where given
(`collection_id`, `query_language`, `filters`); `source`, where given, names the hadith a phrase was cut
from (for the reader). A query whose `expected` is empty must return nothing: it scores 1 when the
results are empty, else 0. A phrase cut from a hadith (then varied: diacritics dropped, a prefix or a
letter changed, a word dropped and two swapped, French words reordered or misspelled) expects every
hadith whose text holds the original phrase, kept only where at most four do; a famous saying expects
every hadith that holds it. A script that prints figures, never a test:
tests/data/test_search_quality.py holds the floors on the subset's set, eval/search_queries_subset.jsonl.
"""

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from app.asgi import create_app
from app.data.embedded import database_url
from app.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ROOT / "eval" / "search_queries.jsonl"
TOP = 5
ARGUMENTS = ("collection_id", "query_language", "filters")
DOCUMENTS = {
    "search_hadith": "query ($query: String!, $query_language: String, $collection_id: Int) {"
    " search_hadith(query: $query, query_language: $query_language, collection_id: $collection_id, limit: 5)"
    " { results { canonical_reference } } }",
    "search_narrator": "query ($query: String!, $query_language: String, $filters: NarratorFilters) {"
    " search_narrator(query: $query, query_language: $query_language, filters: $filters, limit: 5)"
    " { results { narrator_id } } }",
}
ANSWER = {"search_hadith": "canonical_reference", "search_narrator": "narrator_id"}


@dataclass(frozen=True)
class EvalQuery:
    type: str
    tool: str
    query: str
    expected: tuple[Any, ...]
    arguments: dict[str, Any]


@dataclass
class Metrics:
    """recall@1, recall@5 and MRR (reciprocal rank of the first expected answer, 0 beyond TOP)."""

    ranks: list[int | None] = field(default_factory=list)  # 1-based rank of the first answer, None: not found

    @property
    def count(self) -> int:
        return len(self.ranks)

    def recall(self, at: int) -> float:
        return sum(rank is not None and rank <= at for rank in self.ranks) / max(self.count, 1)

    @property
    def mrr(self) -> float:
        return sum(1 / rank for rank in self.ranks if rank is not None) / max(self.count, 1)


def read_queries(path: Path) -> list[EvalQuery]:
    queries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            arguments = {key: item[key] for key in ARGUMENTS if key in item}
            queries.append(EvalQuery(item["type"], item["tool"], item["query"], tuple(item["expected"]), arguments))
    return queries


def rank_of(found: Sequence[Any], expected: Sequence[Any]) -> int | None:
    """The rank of the first expected answer among the results; an empty expectation wants no result."""
    if not expected:
        return None if found else 1
    return next((rank for rank, answer in enumerate(found, start=1) if answer in expected), None)


async def answers(client: httpx.AsyncClient, query: EvalQuery) -> list[Any]:
    variables = {"query": query.query, **query.arguments}
    body = (await client.post("/graphql", json={"query": DOCUMENTS[query.tool], "variables": variables})).json()
    if "errors" in body:
        raise RuntimeError(f"{query.query!r}: {body['errors']}")
    return [hit[ANSWER[query.tool]] for hit in body["data"][query.tool]["results"]][:TOP]


async def evaluate(
    client: httpx.AsyncClient, queries: Sequence[EvalQuery]
) -> tuple[dict[str, Metrics], list[tuple[EvalQuery, list[Any]]]]:
    """Metrics per query type and overall ('all'), and the queries whose answer was not in the top TOP."""
    metrics: dict[str, Metrics] = defaultdict(Metrics)
    misses = []
    for query in queries:
        found = await answers(client, query)
        rank = rank_of(found, query.expected)
        for group in (query.type, "all"):
            metrics[group].ranks.append(rank)
        if rank is None:
            misses.append((query, found))
    return dict(metrics), misses


def table(metrics: dict[str, Metrics]) -> Table:
    out = Table(title="search quality")
    for column in ("query type", "queries", "recall@1", "recall@5", "MRR"):
        out.add_column(column, justify="left" if column == "query type" else "right")
    for group in sorted(metrics, key=lambda name: (name == "all", name)):
        m = metrics[group]
        out.add_row(group, str(m.count), f"{m.recall(1):.3f}", f"{m.recall(TOP):.3f}", f"{m.mrr:.3f}")
    return out


@asynccontextmanager
async def api_client() -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the real app, in process, on ISNAD_DATABASE_URL or the embedded PostgreSQL."""
    settings = load_settings()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        app = create_app(settings, url)
        try:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://eval") as client:
                yield client
        finally:
            await app.state.engine.dispose()


async def run(queries: Sequence[EvalQuery]) -> tuple[dict[str, Metrics], list[tuple[EvalQuery, list[Any]]]]:
    async with api_client() as client:
        return await evaluate(client, queries)


def arguments(description: str | None, queries: Path, argv: Sequence[str] | None) -> argparse.Namespace:
    """`--queries` (a JSON-lines file, `queries` by default) and `--misses`."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=Path, default=queries)
    parser.add_argument("--misses", action="store_true", help="list the queries whose answer is not in the top 5")
    return parser.parse_args(argv)


def print_misses(console: Console, misses: Sequence[tuple[Any, list[Any]]]) -> None:
    """Each query (with its type, text and expected answers) beside what was found instead."""
    for query, found in misses:
        console.print(f"[yellow]{query.type}[/yellow] {query.query!r} expected {list(query.expected)[:3]} got {found}")


def main(argv: Sequence[str] | None = None) -> None:
    options = arguments(__doc__, QUERIES, argv)
    console = Console(width=None if sys.stdout.isatty() else 160)
    metrics, misses = asyncio.run(run(read_queries(options.queries)))
    console.print(table(metrics))
    if options.misses:
        print_misses(console, misses)


if __name__ == "__main__":
    main()
