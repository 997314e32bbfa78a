"""Prints PostgreSQL's plan, with times and buffers, of every statement a search request runs.

    python -m bench.search_profile QUERY [QUERY ...] [--tool search_narrator] [--language ar]

Sends each query as one search_hadith (or search_narrator) request to the app in process, against
ISNAD_DATABASE_URL, else the embedded PostgreSQL; every statement the request runs is first run as
`EXPLAIN (ANALYZE, BUFFERS)` with the same arguments, and its plan printed. What the profile of a
slow query shows, never a test.
"""

import argparse
import asyncio
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import httpx
from rich.console import Console

from app.asgi import create_app
from app.data import database
from app.data.embedded import database_url
from app.settings import load_settings
from bench.search_bench import DOCUMENTS

OUT = Console(width=240, highlight=False, soft_wrap=True)


@contextmanager
def explained() -> Iterator[None]:
    """While the block runs, every statement is run as EXPLAIN (ANALYZE, BUFFERS) first, its plan printed."""
    run = database._run

    async def explaining(connection: Any, plan: Any, params: Mapping[str, Any]) -> Any:
        driver = connection.driver_connection
        rows = await driver.fetch(f"EXPLAIN (ANALYZE, BUFFERS) {plan.sql}", *plan.arguments(params))
        OUT.print("\n".join(row[0] for row in rows), end="\n\n", markup=False)
        return await run(connection, plan, params)

    database._run = explaining
    try:
        yield
    finally:
        database._run = run


async def profile(queries: Sequence[str], tool: str, language: str | None) -> None:
    settings = load_settings()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        app = create_app(settings, url)
        try:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://profile") as client:
                for query in queries:
                    variables = {"query": query, "query_language": language}
                    await client.post("/graphql", json={"query": DOCUMENTS[tool], "variables": variables})
                    OUT.print(f"=== {tool} {query!r}", markup=False)
                    with explained():
                        await client.post("/graphql", json={"query": DOCUMENTS[tool], "variables": variables})
        finally:
            await app.state.engine.dispose()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("queries", nargs="+")
    parser.add_argument("--tool", choices=sorted(DOCUMENTS), default="search_hadith")
    parser.add_argument("--language", choices=("ar", "fr"))
    options = parser.parse_args(argv)
    asyncio.run(profile(options.queries, options.tool, options.language))


if __name__ == "__main__":
    main()
