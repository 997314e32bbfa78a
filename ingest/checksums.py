"""What makes two imports comparable: each table's row count and a checksum of its contents, independent of the
order the rows were written in (the md5 of the sorted md5s of the rows' text), and one checksum over them all.
Computed in the build schema before the swap and recorded in `import_run` (which is itself left out: it records
the run)."""

import hashlib
import json
from dataclasses import asdict, dataclass

import asyncpg

from ingest.writer import table_order

RECORD_OF_THE_RUN = "import_run"
TABLE_CHECKSUM = """SELECT count(*) AS rows,
       md5(coalesce(string_agg(md5(t::text), '' ORDER BY md5(t::text)), '')) AS md5
  FROM {table} t"""


@dataclass(frozen=True)
class TableChecksum:
    rows: int
    md5: str


async def table_checksums(conn: asyncpg.Connection) -> dict[str, TableChecksum]:
    """Every table of the schema first in the search_path, in the DDL's order."""
    checksums = {}
    for table in table_order():
        if table != RECORD_OF_THE_RUN:
            rows, md5 = await conn.fetchrow(TABLE_CHECKSUM.format(table=table)) or (0, "")
            checksums[table] = TableChecksum(rows, md5)
    return checksums


def content_checksum(checksums: dict[str, TableChecksum]) -> str:
    lines = "".join(f"{table} {c.rows} {c.md5}\n" for table, c in checksums.items())
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


async def record_checksums(conn: asyncpg.Connection, checksums: dict[str, TableChecksum]) -> None:
    tables = json.dumps({table: asdict(c) for table, c in checksums.items()})
    await conn.execute(
        "UPDATE import_run SET table_checksums = $1::jsonb, content_checksum = $2, finished_at = now()",
        tables,
        content_checksum(checksums),
    )
