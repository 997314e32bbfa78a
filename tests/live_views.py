"""A schema of views of the live schema's relations but one, which the test that asks for it creates as it needs it:
the API served from it reads the live data, that one relation aside. One such schema is the live data recorded as
an import of other versions, or as no import."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from tests.conftest import LIVE_SCHEMA

LIVE_RELATIONS = (
    "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname = $1 AND c.relkind IN ('r', 'v') AND c.relname <> $2 ORDER BY c.relname"
)


@asynccontextmanager
async def live_views_but(database_url: str, schema: str, relation: str) -> AsyncIterator[asyncpg.Connection]:
    """Schema `schema`, a view of each live relation but `relation`; a connection to create that one; the schema
    dropped at the end."""
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        for row in await conn.fetch(LIVE_RELATIONS, LIVE_SCHEMA, relation):
            name = row["relname"]
            await conn.execute(f"CREATE VIEW {schema}.{name} AS SELECT * FROM {LIVE_SCHEMA}.{name}")
        yield conn
    finally:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await conn.close()


@asynccontextmanager
async def imported_as(
    database_url: str, schema: str, versions: tuple[int, int] | None
) -> AsyncIterator[asyncpg.Connection]:
    """Schema `schema`: the live data, its import run recorded with these (schema, normalizer) versions, or none
    (None); a connection to it, on which `swap_in_live_import` stands for an import of the live versions swapped
    in; the schema dropped at the end."""
    async with live_views_but(database_url, schema, "import_run") as conn:
        if versions is not None:
            await swap_in_live_import(conn, schema)
            update = f"UPDATE {schema}.import_run SET schema_version = $1, normalizer_version = $2"
            await conn.execute(update, *versions)
        yield conn


async def swap_in_live_import(conn: asyncpg.Connection, schema: str) -> None:
    """The live import run, as it is, for `schema`'s own."""
    await conn.execute(f"DROP TABLE IF EXISTS {schema}.import_run")
    await conn.execute(f"CREATE TABLE {schema}.import_run AS SELECT * FROM {LIVE_SCHEMA}.import_run")
