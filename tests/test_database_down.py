"""When the database cannot answer (down, never there, too slow, no connection free), every tool
answers UPSTREAM_UNAVAILABLE; /readyz says so and /healthz stays alive; and the same app answers
again, without a restart, once the database is back.

The database goes down for real: the app reaches it through a TCP proxy (tests/tcp_proxy.py) that a
test stops, cutting every open connection.
"""

import asyncio
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import httpx
import pytest
import sqlalchemy

import app.database
from app.database import RequestDatabase
from app.errors import UpstreamUnavailable
from ingest.run import ImportReport
from tests.conftest import Served, api_settings, serving
from tests.graphql_client import SAMPLE_CALLS, call_tool
from tests.tcp_proxy import TcpProxy

UPSTREAM = {"code": "UPSTREAM_UNAVAILABLE", "alias": "upstream_unavailable"}
# A fuzzy search on a long Arabic name: its last statement scans every name form (hundreds of ms).
HEAVY_SEARCH = {"query": "عبد الله بن محمد بن يوسف بن عبد الرحمن"}


@pytest.fixture
async def proxy(imported: ImportReport, database_url: str) -> AsyncIterator[TcpProxy]:
    running = TcpProxy(database_url)
    await running.start()
    yield running
    await running.stop()


@pytest.fixture
async def behind_proxy(proxy: TcpProxy, database_url: str) -> AsyncIterator[Served]:
    async with serving(api_settings(database_url), proxy.url) as served:
        yield served


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port bound but never listening: a connection to it is refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


async def _ok(client: httpx.AsyncClient, tool: str = "get_hadith") -> None:
    body = await call_tool(client, tool, **SAMPLE_CALLS[tool])
    assert "errors" not in body, body["errors"]
    assert body["data"][tool] is not None


async def _upstream_unavailable(client: httpx.AsyncClient, tool: str, **variables: Any) -> None:
    body = await call_tool(client, tool, **(variables or SAMPLE_CALLS[tool]))
    (error,) = body["errors"]
    assert error["extensions"] == UPSTREAM, (tool, error)
    assert body["data"] is None


async def _warm(client: httpx.AsyncClient) -> None:
    """Several requests at once, so that the pool holds several connections when the database goes."""
    await asyncio.gather(*(_ok(client, tool) for tool in SAMPLE_CALLS))


async def test_while_the_database_is_down_every_tool_is_upstream_unavailable(
    behind_proxy: Served, proxy: TcpProxy
) -> None:
    application, client = behind_proxy.app, behind_proxy.client
    await _warm(client)

    await proxy.stop()

    for tool in SAMPLE_CALLS:
        await _upstream_unavailable(client, tool)
    assert application.state.engine.pool.checkedout() == 0


async def test_while_the_database_is_down_readyz_fails_and_healthz_stays_alive(
    behind_proxy: Served, proxy: TcpProxy
) -> None:
    client = behind_proxy.client
    assert (await client.get("/readyz")).status_code == 200

    await proxy.stop()

    ready, alive = await client.get("/readyz"), await client.get("/healthz")
    assert ready.status_code == 503
    assert alive.status_code == 200


async def test_the_same_app_answers_again_when_the_database_is_back(behind_proxy: Served, proxy: TcpProxy) -> None:
    client = behind_proxy.client
    await _warm(client)
    await proxy.stop()
    await _upstream_unavailable(client, "get_hadith")

    await proxy.start()

    for tool in SAMPLE_CALLS:
        await _ok(client, tool)
    assert (await client.get("/readyz")).status_code == 200


async def test_a_database_restart_while_the_app_is_idle_costs_no_request(behind_proxy: Served, proxy: TcpProxy) -> None:
    """The pooled connections died with the server; the first request after must not be the one to find out."""
    client = behind_proxy.client
    await _warm(client)

    await proxy.stop()
    await proxy.start()

    await _ok(client)


async def test_a_database_that_never_existed_is_upstream_unavailable(closed_port: int) -> None:
    url = f"postgresql://postgres@127.0.0.1:{closed_port}/isnad"
    async with serving(api_settings(url), url) as served:
        client = served.client
        for tool in SAMPLE_CALLS:
            await _upstream_unavailable(client, tool)
        assert (await client.get("/readyz")).status_code == 503
        assert (await client.get("/healthz")).status_code == 200


async def test_a_statement_over_the_timeout_is_upstream_unavailable(imported: ImportReport, database_url: str) -> None:
    async with serving(api_settings(database_url, statement_timeout_ms=1), database_url) as served:
        client = served.client
        await _upstream_unavailable(client, "search_narrator", **HEAVY_SEARCH)


async def test_the_timeout_reaches_the_request_as_sqlstate_57014(imported: ImportReport, database_url: str) -> None:
    # 200 ms: long enough for the connection's own set-up statements on a loaded machine, far under the sleep
    engine = app.database.create_engine(api_settings(database_url, statement_timeout_ms=200), database_url)
    db = RequestDatabase(engine)
    try:
        with pytest.raises(UpstreamUnavailable) as raised:
            await db.fetch(sqlalchemy.text("SELECT pg_sleep(5)"))
    finally:
        await db.close()
        await engine.dispose()
    cause = raised.value.__cause__
    assert isinstance(cause, asyncpg.PostgresError)
    assert cause.sqlstate == "57014"  # query_canceled: statement_timeout


async def test_an_exhausted_pool_is_upstream_unavailable_and_recovers(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One connection, held by the test: a request finds none free within the pool timeout."""
    monkeypatch.setattr(app.database, "POOL_TIMEOUT_S", 0.2)
    async with serving(api_settings(database_url, pool_size=1), database_url) as served:
        application, client = served.app, served.client
        held = await application.state.engine.connect()
        try:
            await _upstream_unavailable(client, "get_hadith")
        finally:
            await held.close()
        await _ok(client)
