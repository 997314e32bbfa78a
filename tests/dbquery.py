"""Synchronous reads of a schema, for tests that check what an import left behind."""

import asyncio
from typing import Any

import asyncpg

from tests.conftest import LIVE_SCHEMA


async def _fetch(url: str, schema: str, sql: str, args: tuple[Any, ...]) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"SET search_path TO {schema}, public")
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


def fetch(url: str, schema: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    return asyncio.run(_fetch(url, schema, sql, args))


def scalar(url: str, schema: str, sql: str, *args: Any) -> Any:
    return fetch(url, schema, sql, *args)[0][0]


def live_count(url: str, sql: str, *args: Any) -> int:
    """A count read from the live schema."""
    return int(scalar(url, LIVE_SCHEMA, sql, *args))


FINGERPRINTED = {
    "hadith": "hadith_id",
    "book": "book_id",
    "chapter": "chapter_id",
    "chain": "chain_id",
    "chain_node": "node_id",
    "narrator": "narrator_id",
    "rijal_notice": "notice_id",
    "transmission_relation": "relation_id",
    "commentary_passage": "passage_id",
}


def id_fingerprint(url: str, schema: str) -> dict[str, str]:
    """An md5 of each table's ordered ids: equal fingerprints, equal ids."""
    return {
        table: scalar(
            url, schema, f"SELECT md5(coalesce(string_agg({key}::text, ',' ORDER BY {key}), '')) FROM {table}"
        )
        for table, key in FINGERPRINTED.items()
    }


def snapshot(url: str, schema: str) -> tuple[dict[str, str], object]:
    """The ids of `schema` and when its import started: equal snapshots, the same import."""
    return id_fingerprint(url, schema), scalar(url, schema, "SELECT started_at FROM import_run")


def schema_exists(url: str, schema: str) -> bool:
    return bool(scalar(url, "public", "SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema))
