"""When the database cannot answer (down, never there, too slow, no connection free, a link that
stalls), every tool answers UPSTREAM_UNAVAILABLE; /readyz says so and /healthz stays alive; and the
same app answers again, without a restart, once the database is back.

The database goes down for real: the app reaches it through a TCP proxy (tests/tcp_proxy.py) that a
test stops, cutting every open connection, or stalls, forwarding nothing.
"""

import asyncio
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import httpx
import pytest
import sqlalchemy

import app.data.database
from app.data.database import RequestDatabase
from app.errors import UpstreamUnavailable
from ingest.run import ImportReport
from tests.conftest import Served, api_settings, serving
from tests.graphql_client import SAMPLE_CALLS, call_tool
from tests.tcp_proxy import TcpProxy

UPSTREAM = {"code": "UPSTREAM_UNAVAILABLE", "alias": "upstream_unavailable"}
# A fuzzy search on a long Arabic name: its last statement scans every name form (hundreds of ms).
HEAVY_SEARCH = {"query": "عبد الله بن محمد بن يوسف بن عبد الرحمن"}
STALL_BOUND_S = 20  # far over the client-side timeouts of a stall, far under a stall that hangs


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


@asynccontextmanager
async def stalled(proxy: TcpProxy) -> AsyncIterator[None]:
    """The link stalled while the block runs, which must end within STALL_BOUND_S; forwarding again after,
    whatever happened (so that the app's connections can close)."""
    proxy.stall()
    try:
        async with asyncio.timeout(STALL_BOUND_S):
            yield
    finally:
        proxy.resume()


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
    engine = app.data.database.create_engine(api_settings(database_url, statement_timeout_ms=200), database_url)
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
    monkeypatch.setattr(app.data.database, "POOL_TIMEOUT_S", 0.2)
    async with serving(api_settings(database_url, pool_size=1), database_url) as served:
        application, client = served.app, served.client
        held = await application.state.engine.connect()
        try:
            await _upstream_unavailable(client, "get_hadith")
        finally:
            await held.close()
        await _ok(client)


async def test_a_stalled_link_fails_fast_on_pooled_connections(
    imported: ImportReport, database_url: str, proxy: TcpProxy
) -> None:
    """The link accepts and forwards nothing (no refusal, no answer): a request on a pooled connection fails
    with UPSTREAM_UNAVAILABLE once the server's own statement timeout would have answered, not after the
    stall; the request deadline is set far off, so that the client-side timeouts are what end it."""
    settings = api_settings(database_url, statement_timeout_ms=1_000, request_timeout_ms=120_000)
    async with serving(settings, proxy.url) as served:
        await _warm(served.client)

        async with stalled(proxy):
            await _upstream_unavailable(served.client, "get_hadith")
            await _upstream_unavailable(served.client, "get_narrator_profile")  # on a connection made during the stall
            assert served.app.state.engine.pool.checkedout() == 0

        await _ok(served.client)


async def test_during_a_stall_readyz_answers_503_within_its_timeout(behind_proxy: Served, proxy: TcpProxy) -> None:
    client = behind_proxy.client
    assert (await client.get("/readyz")).status_code == 200

    async with stalled(proxy):
        ready = await client.get("/readyz")
    assert ready.status_code == 503
    assert (await client.get("/healthz")).status_code == 200


async def test_readyz_answers_while_every_request_connection_is_taken(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under load the request pool has no connection free: the database is healthy all the same."""
    monkeypatch.setattr(app.data.database, "POOL_TIMEOUT_S", 0.2)
    async with serving(api_settings(database_url, pool_size=1), database_url) as served:
        held = await served.app.state.engine.connect()
        try:
            await _upstream_unavailable(served.client, "get_hadith")
            assert (await served.client.get("/readyz")).status_code == 200
        finally:
            await held.close()


async def test_database_connections_are_kept_alive_over_tcp(
    imported: ImportReport, database_url: str, proxy: TcpProxy
) -> None:
    """TCP keepalive on the API's end of a request connection: the kernel finds a dead link while a pooled
    connection sits idle. (The server's end is asked for in the session's settings; behind this proxy the
    server sees a unix socket, where they do not apply.)"""
    engine = app.data.database.create_engine(api_settings(database_url), proxy.url)
    db = RequestDatabase(engine)
    try:
        await db.fetch(sqlalchemy.text("SELECT 1"))
        assert db._connection is not None
        sock = db._connection.driver_connection._transport.get_extra_info("socket")  # type: ignore[union-attr]
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == app.data.database.KEEPALIVE_IDLE_S
    finally:
        await db.close()
        await engine.dispose()
