"""Prints PostgreSQL's plan, with times and buffers, of every statement a search request runs.

    python -m bench.search_profile QUERY [QUERY ...] [--tool search_narrator] [--language ar]

Sends each query as one search_hadith (or search_narrator) request to the app in process, against
ISNAD_DATABASE_URL, else the embedded PostgreSQL; every statement the request runs is first run as
`EXPLAIN (ANALYZE, BUFFERS)` with the same arguments, and its plan printed. What the profile of a
slow query shows, never a test.

The plan is the one the API's session runs: the statement is prepared there and executed by EXPLAIN, so that
PostgreSQL plans it as it plans the API's own (generic once `plan_cache_mode = force_generic_plan`, which the API
asks for on a direct connection). EXPLAIN of the statement's text with its arguments would plan it for their
values, a plan the API does not run: for a formula phrase it read the fulltext tier by a sequential scan.
"""

import argparse
import asyncio
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import asyncpg
import httpx
from rich.console import Console

from app.asgi import create_app
from app.data import database
from app.data.embedded import database_url
from app.settings import load_settings
from bench.search_bench import DOCUMENTS

OUT = Console(width=240, highlight=False, soft_wrap=True)


async def _literals(driver: asyncpg.Connection, sql: str, arguments: Sequence[Any]) -> list[str]:
    """Each argument of `sql` as a literal of its parameter's type, as PostgreSQL writes it (EXECUTE takes no
    parameters of its own)."""
    kinds = [await driver.fetchval("SELECT format_type($1, NULL)", kind.oid) for kind in
             (await driver.prepare(sql)).get_parameters()]  # fmt: skip
    return [
        f"{await driver.fetchval(f'SELECT quote_nullable($1::{kind}::text)', value)}::{kind}"
        for kind, value in zip(kinds, arguments, strict=True)
    ]


async def explained_as_run(
    driver: asyncpg.Connection, sql: str, arguments: Sequence[Any], options: str = "ANALYZE, BUFFERS"
) -> list[asyncpg.Record]:
    """`EXPLAIN (options)` of `sql` run with `arguments` as a prepared statement of the session: planned as the
    session plans its own (generic under `plan_cache_mode = force_generic_plan`), not for the arguments' values."""
    await driver.execute(f"PREPARE profiled AS {sql}")
    try:
        values = ", ".join(await _literals(driver, sql, arguments))
        return await driver.fetch(f"EXPLAIN ({options}) EXECUTE profiled({values})")
    finally:
        await driver.execute("DEALLOCATE profiled")


@contextmanager
def explained() -> Iterator[None]:
    """While the block runs, every statement is run as EXPLAIN (ANALYZE, BUFFERS) first, its plan printed."""
    run = database._run

    async def explaining(connection: Any, plan: Any, params: Mapping[str, Any]) -> Any:
        rows = await explained_as_run(connection.driver_connection, plan.sql, plan.arguments(params))
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
        transport = httpx.ASGITransport(app=app)
        try:
            # The app's lifespan, as `serve` runs it: the statements are the ones it sends (the name keys read)
            async with (
                app.router.lifespan_context(app),
                httpx.AsyncClient(transport=transport, base_url="http://profile") as client,
            ):
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
