"""A request has a deadline for all of its statements together, and a client that leaves cancels its work:
either way the statement in flight is cancelled on the server, the connection goes back to the pool
settled, and the app keeps serving.

A statement is made slow for real: another session holds every table of the live schema locked
(tests/locked_tables.py).
"""

import asyncio
import logging
from collections.abc import AsyncIterator

import orjson
import pytest
from starlette.types import Message

from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, Served, api_settings, serving
from tests.graphql_client import SAMPLE_CALLS, call_tool, execute
from tests.live_server import api_serving
from tests.locked_tables import BOUND_S, slow_tables, until_waiting, waiting

UPSTREAM = {"code": "UPSTREAM_UNAVAILABLE", "alias": "upstream_unavailable"}
STATEMENT_TIMEOUT_MS = 30_000
NO_DEADLINE = {"request_timeout_ms": 120_000}  # far off: the client's leaving is what ends the work
# Three statements, as the 30 aliased searches: without a deadline, each waits its own timeout.
ALIASED_SEARCHES = """{
  a: search_narrator(query: "Abu Hurairah") { results { narrator_id } }
  b: search_narrator(query: "Malik") { results { narrator_id } }
  c: search_narrator(query: "Anas") { results { narrator_id } }
}"""


@pytest.fixture
async def one_connection(imported: ImportReport, database_url: str) -> AsyncIterator[Served]:
    """An app with a short deadline and one connection, warmed (the connection open, in the pool)."""
    settings = api_settings(
        database_url, pool_size=1, statement_timeout_ms=STATEMENT_TIMEOUT_MS, request_timeout_ms=2_000
    )
    async with serving(settings, database_url) as served:
        body = await call_tool(served.client, "get_hadith", **SAMPLE_CALLS["get_hadith"])
        assert "errors" not in body
        yield served


async def test_a_request_past_its_deadline_is_upstream_unavailable_and_its_statement_cancelled(
    one_connection: Served, database_url: str
) -> None:
    client, pool = one_connection.client, one_connection.app.state.engine.pool
    async with slow_tables(database_url) as locker:
        request = asyncio.create_task(execute(client, ALIASED_SEARCHES))
        await until_waiting(locker)
        async with asyncio.timeout(BOUND_S):
            body = await request
        assert body["data"] is None
        (error,) = body["errors"]
        assert error["extensions"] == UPSTREAM
        assert "deadline" in error["message"]
        assert await waiting(locker) == 0  # cancelled on the server, while the lock is still held

    assert pool.checkedout() == 0
    assert pool.checkedin() == 1  # settled, not dropped
    body = await call_tool(client, "get_hadith", **SAMPLE_CALLS["get_hadith"])
    assert "errors" not in body, body["errors"]


async def test_a_tool_past_its_deadline_answers_503(one_connection: Served, database_url: str) -> None:
    async with slow_tables(database_url), asyncio.timeout(BOUND_S):
        response = await one_connection.client.post("/tools/search_narrator", json=SAMPLE_CALLS["search_narrator"])
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "UPSTREAM_UNAVAILABLE"


async def test_a_client_that_leaves_cancels_its_statement(
    imported: ImportReport, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The ASGI server says `http.disconnect` while the statement waits: the work stops at once, nothing
    is sent, one line is logged, and the statement no longer runs on the server."""
    settings = api_settings(database_url, pool_size=1, statement_timeout_ms=STATEMENT_TIMEOUT_MS, **NO_DEADLINE)
    async with serving(settings, database_url) as served:
        left = asyncio.Event()
        messages: list[Message] = [
            {"type": "http.request", "body": orjson.dumps({"query": ALIASED_SEARCHES}), "more_body": False}
        ]
        sent: list[Message] = []

        async def receive() -> Message:
            if messages:
                return messages.pop(0)
            await left.wait()
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            sent.append(message)

        caplog.set_level(logging.INFO, logger="isnad_graphql")
        async with slow_tables(database_url) as locker:
            request = asyncio.create_task(served.app(_post_scope("/graphql"), receive, send))
            await until_waiting(locker)
            left.set()
            async with asyncio.timeout(BOUND_S):
                await request
            assert await waiting(locker) == 0

        assert sent == []
        assert served.app.state.engine.pool.checkedout() == 0
        (record,) = [r for r in caplog.records if "client left" in r.getMessage()]
        assert record.exc_info is None
        assert record.getMessage() == "client left before its answer: POST /graphql, its work cancelled"


async def test_a_client_that_closes_its_socket_cancels_its_statement_on_a_real_server(
    imported: ImportReport, database_url: str
) -> None:
    """The same through uvicorn: the client sends its request, then closes the socket while the statement
    waits; the server's statement stops waiting at once, not at its timeout."""
    environment = {
        "ISNAD_STATEMENT_TIMEOUT_MS": str(STATEMENT_TIMEOUT_MS),
        "ISNAD_REQUEST_TIMEOUT_MS": str(NO_DEADLINE["request_timeout_ms"]),
        "ISNAD_POOL_SIZE": "1",
    }
    with api_serving(database_url, LIVE_SCHEMA, **environment) as base:
        host, port = base.removeprefix("http://").split(":")
        async with slow_tables(database_url) as locker:
            _, writer = await asyncio.open_connection(host, int(port))
            writer.write(_raw_post(orjson.dumps({"query": ALIASED_SEARCHES})))
            await until_waiting(locker)
            writer.close()
            await writer.wait_closed()
            async with asyncio.timeout(BOUND_S):
                while await waiting(locker):
                    await asyncio.sleep(0.05)


def _raw_post(body: bytes) -> bytes:
    head = (
        f"POST /graphql HTTP/1.1\r\nhost: isnad.test\r\ncontent-type: application/json\r\ncontent-length: {len(body)}"
    )
    return head.encode() + b"\r\n\r\n" + body


def _post_scope(path: str) -> dict[str, object]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"isnad.test"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
