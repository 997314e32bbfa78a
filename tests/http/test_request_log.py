"""Request ids, W3C trace context and the JSON line of each request, read from the request log as a
handler receives it (`serve` sends it to stderr: tests/http/test_metrics.py reads a real one)."""

import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.asgi import app_from_environment
from app.http import request_log
from app.settings import load_settings
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, api_settings, serving

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
CLIENT_KEY = "k3y-that-must-never-be-written"
GET_HADITH = {"hadith_id": 100001}


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(record.getMessage()))


@pytest.fixture
def lines() -> Iterator[list[dict[str, Any]]]:
    """The request log's lines while the test runs."""
    handler, level = _Lines(), request_log.REQUEST_LOG.level
    request_log.REQUEST_LOG.addHandler(handler)
    request_log.REQUEST_LOG.setLevel(logging.INFO)
    try:
        yield handler.lines
    finally:
        request_log.REQUEST_LOG.removeHandler(handler)
        request_log.REQUEST_LOG.setLevel(level)


async def test_a_request_gets_a_new_id_said_in_its_answer_and_its_line(
    client: httpx.AsyncClient, lines: list[dict[str, Any]]
) -> None:
    first = await client.post("/tools/get_hadith", json=GET_HADITH)
    second = await client.post("/tools/get_hadith", json=GET_HADITH)
    assert re.fullmatch(r"[0-9a-f]{32}", first.headers["x-request-id"])
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
    assert [line["request_id"] for line in lines] == [first.headers["x-request-id"], second.headers["x-request-id"]]
    assert "traceresponse" not in first.headers


async def test_the_line_of_a_tool_call(client: httpx.AsyncClient, lines: list[dict[str, Any]]) -> None:
    await client.post("/tools/get_hadith", json=GET_HADITH)
    (line,) = lines
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line.pop("time"))
    assert line.pop("duration_ms") >= line.pop("sql_ms") > 0
    assert line == {
        "request_id": line["request_id"],
        "trace_id": None,
        "span_id": None,
        "method": "POST",
        "path": "/tools/get_hadith",
        "status": 200,
        "surface": "tools",
        "operation": "get_hadith",
        "error": None,
        "sql_statements": 1,
    }


async def test_an_error_is_logged_by_its_code(client: httpx.AsyncClient, lines: list[dict[str, Any]]) -> None:
    await client.post("/tools/get_hadith", json={"hadith_id": 999999999})
    await client.post("/graphql", json={"query": "{ get_hadith(hadith_id: 0) { canonical_reference } }"})
    assert [(line["status"], line["operation"], line["error"]) for line in lines] == [
        (404, "get_hadith", "NOT_FOUND"),
        (200, "free", "INVALID_INPUT"),
    ]


@pytest.mark.parametrize("request_id", ["req-42", "0f9e8d7c-6b5a-4321-8fed-cba987654321", "a" * 128, "Root=1-5:a/b+c."])
async def test_a_valid_request_id_is_taken_as_it_came(
    client: httpx.AsyncClient, lines: list[dict[str, Any]], request_id: str
) -> None:
    response = await client.get("/tools", headers={"x-request-id": request_id})
    assert response.headers["x-request-id"] == request_id
    assert lines[0]["request_id"] == request_id


@pytest.mark.parametrize("request_id", ["", "has space", "a" * 129, 'quote"d', "semi;colon", "caf\u00e9"])
async def test_an_invalid_request_id_is_replaced(
    client: httpx.AsyncClient, lines: list[dict[str, Any]], request_id: str
) -> None:
    response = await client.get("/tools", headers={b"x-request-id": request_id.encode()})
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["x-request-id"])
    assert lines[0]["request_id"] == response.headers["x-request-id"]


@pytest.mark.parametrize("version, extra", [("00", ""), ("01", ""), ("01", "-what-a-later-version-adds")])
async def test_a_valid_traceparent_puts_the_request_in_the_callers_trace(
    client: httpx.AsyncClient, lines: list[dict[str, Any]], version: str, extra: str
) -> None:
    traceparent = f"{version}-{TRACE_ID}-{PARENT_ID}-01{extra}"
    response = await client.post("/tools/get_hadith", json=GET_HADITH, headers={"traceparent": traceparent})
    traced = re.fullmatch(rf"00-{TRACE_ID}-([0-9a-f]{{16}})-01", response.headers["traceresponse"])
    assert traced is not None
    span_id = traced.group(1)
    assert span_id != PARENT_ID
    assert (lines[0]["trace_id"], lines[0]["span_id"]) == (TRACE_ID, span_id)


@pytest.mark.parametrize(
    "traceparent",
    [
        f"00-{TRACE_ID}-{PARENT_ID}-01-more",  # version 00 has exactly four fields
        f"ff-{TRACE_ID}-{PARENT_ID}-01",  # version ff is invalid
        f"00-{'0' * 32}-{PARENT_ID}-01",  # a trace id of zeros
        f"00-{TRACE_ID}-{'0' * 16}-01",  # a parent id of zeros
        f"00-{TRACE_ID.upper()}-{PARENT_ID}-01",  # hex is lowercase
        f"00-{TRACE_ID}-{PARENT_ID}",
        "not a traceparent",
    ],
)
async def test_an_invalid_traceparent_is_ignored(
    client: httpx.AsyncClient, lines: list[dict[str, Any]], traceparent: str
) -> None:
    response = await client.get("/tools", headers={"traceparent": traceparent})
    assert response.status_code == 200
    assert "traceresponse" not in response.headers
    assert (lines[0]["trace_id"], lines[0]["span_id"]) == (None, None)


async def test_no_api_key_and_no_query_string_is_ever_written(
    imported: ImportReport, database_url: str, lines: list[dict[str, Any]]
) -> None:
    settings = api_settings(database_url, api_keys=f"web:free:{CLIENT_KEY}")
    document = "{ get_hadith(hadith_id: 100001) { canonical_reference } }"
    async with serving(settings, database_url) as served:
        key = {"x-api-key": CLIENT_KEY}
        assert (await served.client.get("/graphql", params={"query": document}, headers=key)).status_code == 200
        assert (await served.client.post("/tools/get_hadith", json=GET_HADITH, headers=key)).status_code == 200
        refused = await served.client.post("/tools/get_hadith", json=GET_HADITH, headers={"x-api-key": CLIENT_KEY[:-1]})
        assert refused.status_code == 400
    assert [line["path"] for line in lines] == ["/graphql", "/tools/get_hadith", "/tools/get_hadith"]
    written = json.dumps(lines)
    assert CLIENT_KEY[:-1] not in written
    assert "canonical_reference" not in written


def test_the_request_log_is_off_unless_turned_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ISNAD_REQUEST_LOG", raising=False)
    assert load_settings().request_log is False
    monkeypatch.setenv("ISNAD_REQUEST_LOG", "on")
    assert load_settings().request_log is True
    monkeypatch.setenv("ISNAD_REQUEST_LOG", "sometimes")
    with pytest.raises(SystemExit, match="ISNAD_REQUEST_LOG must be on or off"):
        load_settings()


async def test_served_with_the_request_log_off_no_line_is_built(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ISNAD_DATABASE_URL", database_url)
    monkeypatch.setenv("ISNAD_DB_SCHEMA", LIVE_SCHEMA)
    monkeypatch.setenv("ISNAD_REQUEST_LOG", "off")
    app = app_from_environment()
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://isnad.test") as client:
            response = await client.get("/tools")
        assert response.headers["x-request-id"]
        assert not request_log.wanted()
    finally:
        await app.state.engine.dispose()
