"""Builds a copy of the full database grown tenfold, for measuring how the search scales with the corpus.

    python -m bench.tenfold TARGET_URL [--times 10]

Copies the database of ISNAD_DATABASE_URL (which no one may be connected to while it is copied: it is
the template of the new one) into TARGET_URL's database, then adds `times - 1` copies of every hadith
and of every narrator with his name forms, under new ids, so that every text, word and name is
`times` times as frequent, as in a corpus `times` times as large that says the same things. A copy
answers no citation (its canonical number and in-book reference carry a `~k` suffix) and no lookup
of the copied ids is benchmarked: the copies exist for the searches. The hadith are stored again in key
order (the copies first fill the free space of the original pages), the document counts of the
vocabulary and of the common pairs are multiplied, and the tables vacuumed and analyzed, as the importer
leaves them. A benchmark's data, never the API's: the importer alone writes a database the API serves.
"""

import argparse
import asyncio
from collections.abc import Sequence
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from rich.console import Console

from app.settings import load_settings
from ingest.writer import store_in_key_order, table_columns

SCHEMA = "isnad"
# table -> (its key, the columns that must differ in a copy: column -> SQL of the copy's value, with {k})
GROWN = {
    "hadith": (
        "hadith_id",
        {
            "canonical_number": "canonical_number || '~{k}'",
            "canonical_reference": "canonical_reference || '~{k}'",
            "in_book_reference": "in_book_reference || '~{k}'",
        },
    ),
    "narrator": ("narrator_id", {}),
    "narrator_search_form": ("narrator_id", {}),
}
# every text ten times over: each term, and each word or pair most texts hold, in ten times as many
DOCUMENT_COUNTS = ("search_term", "search_term_key", "search_common_pair")


def _server(url: str) -> tuple[str, str]:
    """The URL of the server's maintenance database, and the database `url` names."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/postgres")), parts.path.lstrip("/")


async def _copy_database(source: str, target: str) -> None:
    server, source_name = _server(source)
    _, target_name = _server(target)
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{target_name}"')
        await conn.execute(f'CREATE DATABASE "{target_name}" TEMPLATE "{source_name}"')
    finally:
        await conn.close()


async def _grow(conn: asyncpg.Connection, table: str, times: int, offset: int) -> None:
    key, changed = GROWN[table]
    columns = await table_columns(conn, table, SCHEMA)
    for k in range(1, times):
        values = {column: column for column in columns} | {key: f"{key} + {k * offset}"}
        values |= {column: sql.format(k=k) for column, sql in changed.items()}
        await conn.execute(
            f"INSERT INTO {SCHEMA}.{table} ({', '.join(columns)})"
            f" SELECT {', '.join(values[c] for c in columns)} FROM {SCHEMA}.{table} WHERE {key} < {offset}"
        )


async def _offset(conn: asyncpg.Connection, table: str) -> int:
    """A power of ten above every id of `table`'s key: copy k's ids are the originals' + k x it."""
    key = GROWN[table][0]
    largest = await conn.fetchval(f"SELECT max({key}) FROM {SCHEMA}.{table}")
    return int(10 ** len(str(largest)))


async def _dropped_indexes(conn: asyncpg.Connection) -> list[str]:
    """Drops the grown tables' indexes but those of their constraints (cheaper built again than kept up to date
    row by row); returns what creates them again."""
    rows = await conn.fetch(
        "SELECT i.relname AS indexname, pg_get_indexdef(i.oid) AS indexdef FROM pg_index x"
        " JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class r ON r.oid = x.indrelid"
        " JOIN pg_namespace n ON n.oid = r.relnamespace WHERE n.nspname = $1 AND r.relname = any($2::text[])"
        " AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = x.indexrelid) ORDER BY 1",
        SCHEMA,
        list(GROWN),
    )
    for row in rows:
        await conn.execute(f"DROP INDEX {SCHEMA}.{row['indexname']}")
    return [row["indexdef"] for row in rows]


async def build(source: str, target: str, times: int) -> None:
    await _copy_database(source, target)
    conn = await asyncpg.connect(target)
    try:
        offsets = {"hadith": await _offset(conn, "hadith"), "narrator": await _offset(conn, "narrator")}
        offsets["narrator_search_form"] = offsets["narrator"]
        indexes = await _dropped_indexes(conn)
        for table in GROWN:
            await _grow(conn, table, times, offsets[table])
        await store_in_key_order(conn, SCHEMA)  # the copies fill the pages' free space, out of key order
        for index in indexes:
            await conn.execute(index)
        for counted in DOCUMENT_COUNTS:
            await conn.execute(f"UPDATE {SCHEMA}.{counted} SET doc_count = doc_count * {times}")
        await conn.execute(f"VACUUM (ANALYZE) {', '.join(f'{SCHEMA}.{table}' for table in (*GROWN, *DOCUMENT_COUNTS))}")
        counts = {table: await conn.fetchval(f"SELECT count(*) FROM {SCHEMA}.{table}") for table in GROWN}
    finally:
        await conn.close()
    Console().print(", ".join(f"{table}: {count:,} rows" for table, count in counts.items()))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", help="the URL of the database to build (dropped first when it exists)")
    parser.add_argument("--times", type=int, default=10)
    options = parser.parse_args(argv)
    source = load_settings().database_url
    if not source:
        parser.error("set ISNAD_DATABASE_URL to the full database to copy")
    asyncio.run(build(source, options.target, options.times))


if __name__ == "__main__":
    main()
