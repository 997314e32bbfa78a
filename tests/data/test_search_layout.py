"""A narrator search answers from the data alone: the same answers, the form each hit cites included, from a copy
of the name forms stored in the reverse order, where every scan finds the rows the other way round."""

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, api_settings, serving
from tests.graphql_client import tool_data
from tests.live_views import live_views_but

SUBSET_QUERIES = Path(__file__).resolve().parents[2] / "eval" / "search_queries_subset.jsonl"
REVERSED = "isnad_reversed"  # the live schema's tables as views, but for the name forms, a copy in reverse order
FORMS = "narrator_search_form"
FORMS_INDEXES = "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2"


def _narrator_queries() -> list[dict[str, Any]]:
    lines = SUBSET_QUERIES.read_text(encoding="utf-8").splitlines()
    queries = [json.loads(line) for line in lines if line.strip()]
    return [
        {"query": q["query"], "query_language": q.get("query_language"), "filters": q.get("filters"), "limit": 20}
        for q in queries
        if q["tool"] == "search_narrator"
    ]


async def _reversed_forms(conn: asyncpg.Connection) -> None:
    copied = f"SELECT * FROM {LIVE_SCHEMA}.{FORMS} ORDER BY narrator_id DESC, search_key DESC"
    await conn.execute(f"CREATE TABLE {REVERSED}.{FORMS} AS {copied}")
    for row in await conn.fetch(FORMS_INDEXES, LIVE_SCHEMA, FORMS):
        await conn.execute(row["indexdef"].replace(f" ON {LIVE_SCHEMA}.", f" ON {REVERSED}."))
    await conn.execute(f"VACUUM (ANALYZE) {REVERSED}.{FORMS}")


@pytest.fixture
async def reversed_forms(imported: ImportReport, database_url: str) -> AsyncIterator[str]:
    async with live_views_but(database_url, REVERSED, FORMS) as conn:
        await _reversed_forms(conn)
        yield REVERSED


async def _answers(database_url: str, schema: str, queries: list[dict[str, Any]]) -> list[Any]:
    async with serving(api_settings(database_url, db_schema=schema), database_url) as served:
        return [await tool_data(served.client, "search_narrator", **query) for query in queries]


async def test_a_narrator_search_answers_the_same_from_forms_stored_in_reverse(
    database_url: str, reversed_forms: str
) -> None:
    queries = _narrator_queries()
    live = await _answers(database_url, LIVE_SCHEMA, queries)
    turned = await _answers(database_url, reversed_forms, queries)

    assert sum(len(answer["results"]) for answer in live) > len(queries)
    assert [q["query"] for q, a, b in zip(queries, live, turned, strict=True) if a != b] == []
