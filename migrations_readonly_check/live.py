"""The live check, against a database built by the importer, through the API's own engine:
every transaction is READ ONLY, a write fails with SQLSTATE 25006 (read_only_sql_transaction), and
every table and column the API reads is one the importer's schema (ingest/schema.sql) creates.
"""

import re
from importlib import resources

import asyncpg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.data.database import RequestDatabase
from app.data.tables import metadata

READ_ONLY_SQLSTATE = "25006"
WRITE_PROBE = "CREATE TABLE readonly_probe (id integer)"


async def transaction_read_only(engine: AsyncEngine) -> str:
    """What `SHOW transaction_read_only` says inside an API transaction."""
    db = RequestDatabase(engine)
    try:
        rows = await db.fetch(text("SHOW transaction_read_only"))
    finally:
        await db.close()
    return str(rows[0]["transaction_read_only"])


async def write_sqlstate(engine: AsyncEngine) -> str | None:
    """The SQLSTATE a write through the API's engine fails with (None if it did not fail)."""
    db = RequestDatabase(engine)
    try:
        await db.fetch(text(WRITE_PROBE))
    except asyncpg.PostgresError as error:
        return str(error.sqlstate)
    finally:
        await db.close()
    return None


def documented_columns() -> dict[str, set[str]]:
    """Every table and view of ingest/schema.sql with its columns."""
    ddl = resources.files("ingest").joinpath("schema.sql").read_text(encoding="utf-8")
    objects: dict[str, set[str]] = {}
    for name, body in re.findall(r"CREATE TABLE (\w+) \((.*?)\n\);", ddl, flags=re.DOTALL):
        objects[name] = set(re.findall(r"^\s{4}(\w+)\s+\w", body, flags=re.MULTILINE))
    for name, columns in re.findall(r"CREATE VIEW (\w+) AS\s+SELECT (.*?)\s+FROM", ddl, flags=re.DOTALL):
        objects[name] = {column.strip() for column in columns.split(",")}
    return objects


def undocumented_reads() -> list[str]:
    """Tables or columns the API reads that the importer's schema does not create."""
    documented = documented_columns()
    missing = []
    for table in metadata.tables.values():
        if table.name not in documented:
            missing.append(table.name)
            continue
        missing += [f"{table.name}.{c.name}" for c in table.columns if c.name not in documented[table.name]]
    return missing
