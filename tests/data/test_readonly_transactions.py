"""Every transaction the API opens is READ ONLY, with the configured statement timeout, on the live
schema, and scans tables in a repeatable order: seen from inside a request's own connection
(app.data.database.RequestDatabase)."""

from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy import Executable, text
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.applications import Starlette

from app.data.database import RequestDatabase, create_engine
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, api_settings
from tests.graphql_client import call_tool

READ_ONLY_SQL_TRANSACTION = "25006"
WRITES = {
    "update": "UPDATE hadith SET text_fr = text_fr WHERE hadith_id = 100001",
    "insert": "INSERT INTO collection (collection_id, code) VALUES (-1, 'readonly_probe')",
    "delete": "DELETE FROM narrator WHERE narrator_id = -1",
    "create table": "CREATE TABLE readonly_probe (id integer)",
    "create temp table": "CREATE TEMP TABLE readonly_probe (id integer)",
    "truncate": "TRUNCATE chain_node",
    "drop": "DROP TABLE hadith_grade",
}

REQUESTS: dict[str, dict[str, Any]] = {
    "get_hadith": {"hadith_id": 100001},
    "get_hadith_chains": {"hadith_id": 100001},
    "search_narrator": {"query": "Abu Hurairah"},
    "get_narrator_hadiths": {"narrator_id": 11062},
}


async def _scalar(engine: AsyncEngine, sql: str) -> Any:
    """The first value `sql` returns inside one request's connection."""
    db = RequestDatabase(engine)
    try:
        rows = await db.fetch(text(sql))
    finally:
        await db.close()
    return next(iter(rows[0].values()))


async def test_a_request_connection_is_read_only(app: Starlette) -> None:
    assert await _scalar(app.state.engine, "SHOW transaction_read_only") == "on"
    assert await _scalar(app.state.engine, "SHOW default_transaction_read_only") == "on"


@pytest.mark.parametrize("statement", list(WRITES.values()), ids=list(WRITES))
async def test_a_write_through_the_api_engine_fails_with_sqlstate_25006(app: Starlette, statement: str) -> None:
    with pytest.raises(asyncpg.PostgresError) as raised:
        await _scalar(app.state.engine, statement)
    assert raised.value.sqlstate == READ_ONLY_SQL_TRANSACTION


async def test_a_refused_write_changes_nothing(app: Starlette, database_url: str) -> None:
    before = await _scalar(app.state.engine, "SELECT count(*) FROM narrator")
    with pytest.raises(asyncpg.PostgresError):
        await _scalar(app.state.engine, "DELETE FROM narrator")
    assert await _scalar(app.state.engine, "SELECT count(*) FROM narrator") == before


async def test_a_request_scans_alone_from_the_first_page(app: Starlette) -> None:
    """A search tier keeps the first rows that match as a scan finds them: a scan that joined another one
    running (synchronized) or that parallel workers shared would find them in another order at each run,
    and the same query would answer differently (seen on the full database under concurrent load)."""
    assert await _scalar(app.state.engine, "SHOW synchronize_seqscans") == "off"
    assert await _scalar(app.state.engine, "SHOW max_parallel_workers_per_gather") == "0"


async def test_the_statement_timeout_is_the_configured_one(imported: ImportReport, database_url: str) -> None:
    settings = api_settings(database_url, statement_timeout_ms=4321)
    engine = create_engine(settings, database_url)
    try:
        found = await _scalar(engine, "SELECT setting FROM pg_settings WHERE name = 'statement_timeout'")
    finally:
        await engine.dispose()
    assert found == "4321"


async def test_the_app_uses_the_statement_timeout_of_its_settings(app: Starlette, database_url: str) -> None:
    configured = api_settings(database_url).statement_timeout_ms
    found = await _scalar(app.state.engine, "SELECT setting FROM pg_settings WHERE name = 'statement_timeout'")
    assert found == str(configured)


async def test_the_search_path_names_the_live_schema(app: Starlette) -> None:
    search_path = await _scalar(app.state.engine, "SHOW search_path")
    assert search_path.split(",")[0].strip() == LIVE_SCHEMA
    assert await _scalar(app.state.engine, "SELECT current_schema()") == LIVE_SCHEMA


async def test_every_statement_of_a_real_request_runs_read_only(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind each statement of every tool, the same connection says its transaction is READ ONLY."""
    fetch = RequestDatabase.fetch
    seen: list[str] = []

    async def fetch_then_look(self: RequestDatabase, statement: Executable) -> Any:
        rows = await fetch(self, statement)
        seen.append(str((await fetch(self, text("SHOW transaction_read_only")))[0]["transaction_read_only"]))
        return rows

    monkeypatch.setattr(RequestDatabase, "fetch", fetch_then_look)
    for tool, variables in REQUESTS.items():
        body = await call_tool(client, tool, **variables)
        assert "errors" not in body, body["errors"]

    assert seen
    assert set(seen) == {"on"}
