"""Writes the rows an import built into a fresh schema, then swaps it in within one transaction.

A reader of the live schema never sees a half-built graph, and a failed import drops its build
schema and leaves the live one exactly as it was.
"""

import re
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from ingest.context import Row
from ingest.errors import ImportFailed, ImportLocked

BUILD_SCHEMA = "isnad_build"
PREVIOUS_SCHEMA = "isnad_previous"
IMPORT_LOCK = 7_310_001  # advisory lock key: one import at a time per database
EXTENSIONS = ("pg_trgm", "unaccent")
# The tables whose rows a search reads in the order its scans find them (a hadith tier's first candidates:
# app/data/search/common.py, `candidates_of`): stored in the order of their primary key, so that the answer depends
# on the data alone, not on where the server placed each row (its free space, its compression of long values), and
# so that the exact tier's read of common phrases in key order (app/data/search/wording.py) finds what an index does.
SCANNED_IN_KEY_ORDER = ("hadith",)


def ddl() -> str:
    return resources.files("ingest").joinpath("schema.sql").read_text(encoding="utf-8")


def table_order() -> list[str]:
    """Tables in the order the DDL creates them, which is an order that satisfies every foreign key."""
    return re.findall(r"^CREATE TABLE (\w+)", ddl(), flags=re.MULTILINE)


async def connect_creating_database(url: str) -> asyncpg.Connection:
    """Connect to the database of `url`, creating it first when the server does not have it yet."""
    try:
        return await asyncpg.connect(url)
    except asyncpg.InvalidCatalogNameError:
        parts = urlsplit(url)
        name = parts.path.lstrip("/")
        server = await asyncpg.connect(urlunsplit(parts._replace(path="/postgres")))
        try:
            await server.execute(f'CREATE DATABASE "{name}"')
        finally:
            await server.close()
        return await asyncpg.connect(url)


async def acquire_import_lock(conn: asyncpg.Connection) -> None:
    if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", IMPORT_LOCK):
        raise ImportLocked


async def refuse_if_locked(url: str) -> None:
    """Refuse at once, before a minute of reading, when another import holds the lock (it is taken for good
    when the writing starts)."""
    conn = await connect_creating_database(url)
    try:
        await acquire_import_lock(conn)
        await conn.execute("SELECT pg_advisory_unlock($1)", IMPORT_LOCK)
    finally:
        await conn.close()


async def create_build_schema(conn: asyncpg.Connection) -> None:
    for extension in EXTENSIONS:
        await conn.execute(f"CREATE EXTENSION IF NOT EXISTS {extension} SCHEMA public")
    await conn.execute(f"DROP SCHEMA IF EXISTS {BUILD_SCHEMA} CASCADE")
    await conn.execute(f"CREATE SCHEMA {BUILD_SCHEMA}")
    await conn.execute(f"SET search_path TO {BUILD_SCHEMA}, public")
    await conn.execute(ddl())


async def table_columns(conn: asyncpg.Connection, table: str, schema: str = BUILD_SCHEMA) -> list[str]:
    """The columns of `schema`.`table` that a row can be written to (generated ones left out), in order."""
    rows = await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2"
        " AND is_generated = 'NEVER' ORDER BY ordinal_position",
        schema,
        table,
    )
    return [row["column_name"] for row in rows]


def _records(table: str, rows: Sequence[Row], columns: list[str]) -> tuple[list[str], list[tuple[Any, ...]]]:
    keys: set[str] = set()
    for row in rows:
        keys.update(row)
    unknown = keys - set(columns)
    if unknown:
        raise ValueError(f"{table}: rows carry columns the schema lacks: {sorted(unknown)}")
    used = [c for c in columns if c in keys]
    return used, [tuple(row.get(c) for c in used) for row in rows]


async def copy_tables(
    conn: asyncpg.Connection, tables: dict[str, list[Row]], advance: Callable[[str, int], None]
) -> None:
    """COPY every table's rows, parents first."""
    for table in table_order():
        rows = tables.get(table, [])
        if rows:
            columns, records = _records(table, rows, await table_columns(conn, table))
            await conn.copy_records_to_table(table, records=records, columns=columns, schema_name=BUILD_SCHEMA)
        advance(table, len(rows))


async def store_in_key_order(conn: asyncpg.Connection, schema: str = BUILD_SCHEMA) -> None:
    """Write each table of SCANNED_IN_KEY_ORDER again in the order of its primary key (CLUSTER, which also
    builds its indexes again)."""
    for table in SCANNED_IN_KEY_ORDER:
        await conn.execute(f"CLUSTER {schema}.{table} USING {table}_pkey")


async def vacuum_analyze(conn: asyncpg.Connection) -> None:
    """Once every table is filled: merge each GIN index's pending list into the index, mark the pages
    all-visible (index-only scans), and gather the planner's statistics, for every table of the build
    schema. Without it a server that runs no autovacuum during the load serves from unmerged pending
    lists, which every search statement reads in full."""
    tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", BUILD_SCHEMA)
    names = ", ".join(f"{BUILD_SCHEMA}.{row['tablename']}" for row in tables)
    await conn.execute(f"VACUUM (ANALYZE) {names}")


async def grant_reader(conn: asyncpg.Connection, role: str) -> None:
    """Let `role` read the build schema (and nothing else): SELECT only, so it survives each swap."""
    if not await conn.fetchval("SELECT 1 FROM pg_roles WHERE rolname = $1", role):
        raise ImportFailed(f"the reader role {role!r} does not exist; create it first (see README)")
    quoted = '"' + role.replace('"', '""') + '"'
    await conn.execute(f"GRANT USAGE ON SCHEMA {BUILD_SCHEMA} TO {quoted}")
    await conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {BUILD_SCHEMA} TO {quoted}")


async def swap_in(conn: asyncpg.Connection, live_schema: str) -> None:
    """Make the build schema the live one, in one transaction."""
    async with conn.transaction():
        await conn.execute(f"DROP SCHEMA IF EXISTS {PREVIOUS_SCHEMA} CASCADE")
        if await conn.fetchval("SELECT 1 FROM pg_namespace WHERE nspname = $1", live_schema):
            await conn.execute(f"ALTER SCHEMA {live_schema} RENAME TO {PREVIOUS_SCHEMA}")
        await conn.execute(f"ALTER SCHEMA {BUILD_SCHEMA} RENAME TO {live_schema}")
        await conn.execute(f"DROP SCHEMA IF EXISTS {PREVIOUS_SCHEMA} CASCADE")


async def drop_build_schema(conn: asyncpg.Connection) -> None:
    await conn.execute(f"DROP SCHEMA IF EXISTS {BUILD_SCHEMA} CASCADE")


async def drop_build_schema_after_failure(conn: asyncpg.Connection, url: str) -> None:
    """Drop the build schema after a failure. A signal that cut an operation in the middle (a COPY fed by our
    rows) leaves `conn` busy: it is then ended, and the schema dropped from a new connection once the import
    lock it held is free."""
    try:
        await drop_build_schema(conn)
        return
    except asyncpg.InterfaceError:
        conn.terminate()
    fresh = await asyncpg.connect(url)
    try:
        await fresh.execute("SELECT pg_advisory_lock($1)", IMPORT_LOCK)
        await drop_build_schema(fresh)
    finally:
        await fresh.close()
