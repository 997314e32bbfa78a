"""`GET /metrics`: requests by surface, operation, error code and status, their latency and SQL, and the
request pool, scraped from the app in the Prometheus text format; several workers add up their values.

The metrics of one process are shared by every app a test builds, so each test reads what its own
requests added to a scrape taken before them.
"""

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.applications import Starlette

from app.errors import ErrorCode
from app.settings import load_settings
from ingest.run import ImportReport
from schema.contract import TOOLS
from tests.conftest import LIVE_SCHEMA, REPO, api_settings, serving
from tests.tcp_proxy import free_port

Sample = tuple[str, frozenset[tuple[str, str]]]
GET_HADITH = {"hadith_id": 100001}
FREE_DOCUMENT = "{ get_hadith(hadith_id: 100001) { canonical_reference } }"
MCP_HEADERS = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}
COMMAND = str(Path(sys.executable).parent / "isnad-graphql")
START_SECONDS = 90
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
TRACED = {"traceparent": f"00-{TRACE_ID}-00f067aa0ba902b7-01"}
MAX_CALLS = 500  # new connections until both workers have taken one


async def scrape(client: httpx.AsyncClient) -> dict[Sample, float]:
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return parse(response.text)


def parse(text: str) -> dict[Sample, float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def added(before: dict[Sample, float], after: dict[Sample, float], name: str, **labels: str) -> float:
    key = (name, frozenset(labels.items()))
    return after.get(key, 0.0) - before.get(key, 0.0)


def assert_bounded_labels(scraped: dict[Sample, float]) -> None:
    """Every label of the API's metrics takes one of a few known values: never what a client sent."""
    allowed = {
        "surface": {"graphql", "tools", "mcp", "other"},
        "operation": {*TOOLS, "free", "none"},
        "error": {*ErrorCode, "none"},
    }
    for name, labels in scraped:
        for label, value in labels:
            if name.startswith("isnad_") and label in allowed:
                assert value in allowed[label], (name, label, value)


def requests(surface: str, operation: str, error: str = "none", status: str = "200") -> dict[str, str]:
    return {"surface": surface, "operation": operation, "error": error, "status": status}


def _manifest_id(name: str) -> str:
    manifest = json.loads((REPO / "persisted" / "manifest.json").read_text())
    return next(str(operation["id"]) for operation in manifest["operations"] if operation["name"] == name)


async def test_a_tool_call_is_counted_with_its_latency_and_its_one_statement(client: httpx.AsyncClient) -> None:
    await client.post("/tools/get_hadith", json=GET_HADITH)  # the app's first request reads the source catalog too
    before = await scrape(client)
    assert (await client.post("/tools/get_hadith", json=GET_HADITH)).status_code == 200
    after = await scrape(client)
    assert added(before, after, "isnad_requests_total", **requests("tools", "get_hadith")) == 1
    per_request = {"surface": "tools", "operation": "get_hadith"}
    assert added(before, after, "isnad_request_duration_seconds_count", **per_request) == 1
    assert added(before, after, "isnad_request_duration_seconds_sum", **per_request) > 0
    assert added(before, after, "isnad_request_sql_statements_sum", **per_request) == 1
    assert added(before, after, "isnad_request_sql_statements_bucket", **per_request, le="0.0") == 0
    assert added(before, after, "isnad_request_sql_statements_bucket", **per_request, le="1.0") == 1
    assert added(before, after, "isnad_request_sql_seconds_sum", **per_request) > 0


async def test_a_persisted_document_is_counted_by_its_name_and_a_free_one_as_free(client: httpx.AsyncClient) -> None:
    before = await scrape(client)
    persisted = {"documentId": f"sha256:{_manifest_id('get_hadith')}", "variables": GET_HADITH}
    assert (await client.post("/graphql", json=persisted)).status_code == 200
    assert (await client.post("/graphql", json={"query": FREE_DOCUMENT})).status_code == 200
    after = await scrape(client)
    assert added(before, after, "isnad_requests_total", **requests("graphql", "get_hadith")) == 1
    assert added(before, after, "isnad_requests_total", **requests("graphql", "free")) == 1
    assert_bounded_labels(after)


async def test_errors_are_counted_by_code_and_status_and_never_by_what_the_client_chose(
    client: httpx.AsyncClient,
) -> None:
    before = await scrape(client)
    assert (await client.post("/tools/get_hadith", json={"hadith_id": 999999999})).status_code == 404
    assert (await client.post("/tools/drop_table_hadith", json={})).status_code == 404
    unknown_field = {"query": "{ get_hadith(hadith_id: 100001) { no_such_field } }"}
    modern = {"accept": "application/graphql-response+json"}
    assert (await client.post("/graphql", json=unknown_field, headers=modern)).status_code == 400
    not_an_object = await client.post("/graphql", content=b"[1]", headers={"content-type": "application/json"})
    assert not_an_object.status_code == 400
    after = await scrape(client)
    assert added(before, after, "isnad_requests_total", **requests("tools", "get_hadith", "NOT_FOUND", "404")) == 1
    assert added(before, after, "isnad_requests_total", **requests("tools", "none", "NOT_FOUND", "404")) == 1
    assert added(before, after, "isnad_requests_total", **requests("graphql", "free", "QUERY_REJECTED", "400")) == 1
    assert added(before, after, "isnad_requests_total", **requests("graphql", "none", "QUERY_REJECTED", "400")) == 1
    assert_bounded_labels(after)


async def test_other_paths_are_one_surface(client: httpx.AsyncClient) -> None:
    before = await scrape(client)
    assert (await client.get("/explore")).status_code == 200
    assert (await client.get("/no/such/path/x1")).status_code == 404
    after = await scrape(client)
    assert added(before, after, "isnad_requests_total", **requests("other", "none")) >= 2  # the scrape too
    assert added(before, after, "isnad_requests_total", **requests("other", "none", "NOT_FOUND", "404")) == 1
    assert_bounded_labels(after)


async def test_an_mcp_tool_call_is_counted_by_its_tool(imported: ImportReport, database_url: str) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "get_hadith", "arguments": GET_HADITH},
    }
    async with serving(api_settings(database_url), database_url) as served:
        app: Starlette = served.app
        async with app.router.lifespan_context(app):  # the MCP session manager runs in the lifespan
            await served.client.post("/tools/get_hadith", json=GET_HADITH)  # reads the source catalog
            before = await scrape(served.client)
            answer = await served.client.post("/mcp", json=call, headers=MCP_HEADERS)
            assert answer.status_code == 200
            assert answer.json()["result"]["isError"] is False
            after = await scrape(served.client)
            missing = {**call, "params": {"name": "get_hadith", "arguments": {"hadith_id": 999999999}}}
            assert (await served.client.post("/mcp", json=missing, headers=MCP_HEADERS)).json()["result"]["isError"]
            last = await scrape(served.client)
    assert added(before, after, "isnad_requests_total", **requests("mcp", "get_hadith")) == 1
    assert added(before, after, "isnad_request_sql_statements_sum", surface="mcp", operation="get_hadith") == 1
    assert added(after, last, "isnad_requests_total", **requests("mcp", "get_hadith", "NOT_FOUND")) == 1


async def test_the_pool_gauges_show_a_request_waiting_and_metrics_need_no_connection(
    imported: ImportReport, database_url: str
) -> None:
    async with serving(api_settings(database_url, pool_size=1), database_url) as served:
        engine = served.app.state.engine
        held = await engine.raw_connection()  # the pool's only connection
        try:
            before = await scrape(served.client)
            waiting = asyncio.create_task(served.client.post("/tools/get_hadith", json=GET_HADITH))
            while (now := await scrape(served.client)).get(("isnad_pool_connections_waiting", frozenset())) == 0:
                await asyncio.sleep(0.005)  # until the request waits: /metrics answers meanwhile
            assert added(before, now, "isnad_pool_connections_waiting") == 1
        finally:
            held.close()
        assert (await waiting).status_code == 200
        after = await scrape(served.client)
    assert added(before, now, "isnad_pool_connections_in_use") == 0  # the held one was counted before
    assert added(before, after, "isnad_pool_connections_waiting") == 0
    assert added(before, after, "isnad_pool_connections_in_use") == -1  # the held one, given back


def _serve(database_url: str, port: int, metrics_dir: Path, stderr: IO[bytes]) -> subprocess.Popen[bytes]:
    environment = os.environ | {
        "ISNAD_DATABASE_URL": database_url,
        "ISNAD_DB_SCHEMA": LIVE_SCHEMA,
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
        "ISNAD_REQUEST_LOG": "on",
    }
    command = [COMMAND, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    return subprocess.Popen(command, env=environment, cwd=REPO, stderr=stderr)  # noqa: S603 - our own command


def _wait_until_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert server.poll() is None, "isnad-graphql serve exited"
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError(f"isnad-graphql serve did not answer within {START_SECONDS} s")


@dataclass
class Workers:
    base: str
    port: int
    metrics_dir: Path  # where the workers keep their metrics
    stderr: IO[bytes]  # the server's

    def stderr_lines(self) -> list[str]:
        self.stderr.seek(0)
        return self.stderr.read().decode().splitlines()


@pytest.fixture(scope="module")
def two_workers(imported: ImportReport, database_url: str) -> Iterator[Workers]:
    """A real `isnad-graphql serve --workers 2`."""
    with tempfile.TemporaryDirectory(prefix="isnad-metrics-") as folder, tempfile.TemporaryFile() as stderr:
        port = free_port()
        with _serve(database_url, port, Path(folder), stderr) as server:
            try:
                _wait_until_ready(f"http://127.0.0.1:{port}", server)
                yield Workers(f"http://127.0.0.1:{port}", port, Path(folder), stderr)
            finally:
                server.terminate()
                server.wait(timeout=30)


def _workers_that_served(metrics_dir: Path) -> int:
    """A worker's counter file appears with the first request it counts."""
    return len(list(metrics_dir.glob("counter_*.db")))


def test_with_two_workers_any_scrape_adds_up_both(two_workers: Workers) -> None:
    calls = 0
    while _workers_that_served(two_workers.metrics_dir) < 2 and calls < MAX_CALLS:
        response = httpx.post(f"{two_workers.base}/tools/get_hadith", json=GET_HADITH)  # a new connection each
        assert response.status_code == 200
        calls += 1
    assert _workers_that_served(two_workers.metrics_dir) == 2
    for _ in range(10):  # scrapes on new connections too: either worker answers
        scraped = parse(httpx.get(f"{two_workers.base}/metrics").text)
        assert scraped[("isnad_requests_total", frozenset(requests("tools", "get_hadith").items()))] == calls
        assert scraped[("isnad_pool_size", frozenset())] == 2 * load_settings().pool_size


def _stderr_once_traced(workers: Workers) -> list[str]:
    """The server's lines, once the traced request's line is written (it follows the response)."""
    deadline = time.monotonic() + START_SECONDS
    while TRACE_ID not in "".join(lines := workers.stderr_lines()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return lines


def test_serve_says_its_url_data_and_workers_then_writes_a_line_per_request(two_workers: Workers) -> None:
    with httpx.Client(base_url=two_workers.base) as connection:  # one connection, so one worker for both
        assert connection.post("/tools/get_hadith", json=GET_HADITH).status_code == 200  # reads its source catalog
        assert connection.post("/tools/get_hadith", json=GET_HADITH, headers=TRACED).status_code == 200
    first, *rest = _stderr_once_traced(two_workers)
    assert re.fullmatch(
        rf"isnad-graphql serving http://127\.0\.0\.1:{two_workers.port}/graphql with 2 workers; "
        r"data: schema version \d+, normalizer version \d+, imported \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, "
        r"manifest [0-9a-f]{12}, content [0-9a-f]{12}",
        first,
    )
    lines = [json.loads(line) for line in rest if line.startswith("{")]
    assert len(lines) == len(rest)  # nothing else: no stack trace, no warning
    traced = [line for line in lines if line["trace_id"] == TRACE_ID]
    assert len(traced) == 1
    assert traced[0]["path"] == "/tools/get_hadith"
    assert traced[0]["operation"] == "get_hadith"
    assert traced[0]["sql_statements"] == 1
