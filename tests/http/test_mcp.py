"""The eight tools over MCP, driven by the official SDK's own client: Streamable HTTP against a real
`isnad-graphql serve` on a free loopback port, and stdio against a real `isnad-graphql mcp --stdio`.

A call's structured content is the JSON `POST /tools/{name}` returns for the same arguments (the SDK's
client also checks it against the output schema the server lists); an error is a tool error carrying
`/tools`' code and alias.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from app.schema_version import SCHEMA_VERSION
from app.text.arabic import NORMALIZER_VERSION
from ingest.run import ImportReport
from schema.contract import TOOLS, input_schema, output_schema
from tests.conftest import LIVE_SCHEMA, REPO
from tests.live_views import imported_as
from tests.tool_calls import CALLS

COMMAND = str(Path(sys.executable).parent / "isnad-graphql")
GATEWAY_KEY = "mcp-test-gateway-key"
START_SECONDS = 60

ERRORS: list[tuple[str, dict[str, Any], str, str | None]] = [
    ("get_hadith", {"hadith_id": 999999999}, "NOT_FOUND", "not_found"),
    ("get_hadith", {"hadith_id": 0}, "INVALID_INPUT", "invalid_id"),
    ("get_hadith", {"hadith_id": "100001"}, "INVALID_INPUT", "invalid_input"),
    ("get_hadith", {}, "INVALID_INPUT", "invalid_input"),
    ("get_hadith", {"hadith_id": 100001, "hadith": 1}, "INVALID_INPUT", "invalid_input"),
    ("search_hadith", {"query": "bukhari:1", "limit": 21}, "LIMIT_EXCEEDED", "limit_exceeded"),
    ("search_hadith", {"query": "bukhari:1", "limit": 0}, "INVALID_INPUT", "invalid_input"),
    ("search_hadith", {"query": "   "}, "INVALID_INPUT", "invalid_input"),
    ("search_narrator", {"query": "Abu", "query_language": "de"}, "UNSUPPORTED_LANGUAGE", "unsupported_language"),
    ("search_narrator", {"query": "Abu", "filters": "x"}, "INVALID_INPUT", "invalid_input"),
    ("get_narrator_hadiths", {"narrator_id": 11062, "limit": 51}, "LIMIT_EXCEEDED", "limit_exceeded"),
    ("get_narrator_hadiths", {"narrator_id": 11062, "page": 0}, "INVALID_INPUT", "invalid_page"),
    ("get_transmission_relation", {"narrator_a_id": 11042, "narrator_b_id": 11042}, "INVALID_INPUT", "same_narrator"),
    ("get_hadith_commentary", {"hadith_id": 500001, "language": "en"}, "UNSUPPORTED_LANGUAGE", "unsupported_language"),
    ("drop_table", {}, "NOT_FOUND", "not_found"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _environment(database_url: str, schema: str = LIVE_SCHEMA) -> dict[str, str]:
    return {
        "ISNAD_DATABASE_URL": database_url,
        "ISNAD_DB_SCHEMA": schema,
        "ISNAD_API_KEYS": f"gateway:persisted:{GATEWAY_KEY}",
        "ISNAD_DEFAULT_CLIENT_MODE": "free",
    }


def _wait_until_alive(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert server.poll() is None, "isnad-graphql serve exited"
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError(f"isnad-graphql serve did not answer within {START_SECONDS} s")


@pytest.fixture(scope="module")
def served(imported: ImportReport, database_url: str) -> Iterator[str]:
    """The base URL of a real `isnad-graphql serve` (uvicorn) on a free loopback port."""
    port = _free_port()
    environment = os.environ | _environment(database_url)
    command = [COMMAND, "serve", "--host", "127.0.0.1", "--port", str(port)]
    with subprocess.Popen(command, env=environment, cwd=REPO) as server:  # noqa: S603 - our own command
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_until_alive(base, server)
            yield base
        finally:
            server.terminate()
            server.wait(timeout=30)


@asynccontextmanager
async def http_session(base: str, api_key: str | None = None) -> AsyncIterator[ClientSession]:
    headers = {"x-api-key": api_key} if api_key else None
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        streamable_http_client(f"{base}/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@asynccontextmanager
async def stdio_session(database_url: str, schema: str = LIVE_SCHEMA) -> AsyncIterator[ClientSession]:
    parameters = StdioServerParameters(
        command=COMMAND, args=["mcp", "--stdio"], env=_environment(database_url, schema), cwd=REPO
    )
    with tempfile.TemporaryFile("w+") as errlog:
        async with stdio_client(parameters, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def _call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, types.CallToolResult)
    assert len(result.content) == 1
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert json.loads(text.text) == result.structured_content  # the same JSON, as text
    return result


def _post_tools(base: str, tool: str, arguments: dict[str, Any], api_key: str | None = None) -> httpx.Response:
    return httpx.post(f"{base}/tools/{tool}", json=arguments, headers={"x-api-key": api_key} if api_key else {})


async def _assert_lists_the_eight_tools(session: ClientSession, descriptions: dict[str, str]) -> None:
    listed = (await session.list_tools()).tools
    assert [tool.name for tool in listed] == list(TOOLS)
    for tool in listed:
        assert tool.input_schema == input_schema(tool.name)
        assert tool.output_schema == output_schema(tool.name)
        assert tool.description == descriptions[tool.name]
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True


def _descriptions(base: str) -> dict[str, str]:
    return {tool["name"]: tool["description"] for tool in httpx.get(f"{base}/tools").json()["tools"]}


async def test_over_http_the_eight_tools_are_listed_with_the_contract_schemas(served: str) -> None:
    async with http_session(served) as session:
        await _assert_lists_the_eight_tools(session, _descriptions(served))


@pytest.mark.parametrize("tool", TOOLS)
async def test_over_http_a_call_is_what_post_tools_returns(served: str, tool: str) -> None:
    async with http_session(served) as session:
        result = await _call(session, tool, CALLS[tool])
    assert result.is_error is False
    expected = _post_tools(served, tool, CALLS[tool])
    assert expected.status_code == 200
    assert result.structured_content == expected.json()


@pytest.mark.parametrize(("tool", "arguments", "code", "alias"), ERRORS)
async def test_over_http_an_error_is_a_tool_error_with_the_code_of_post_tools(
    served: str, tool: str, arguments: dict[str, Any], code: str, alias: str | None
) -> None:
    async with http_session(served) as session:
        result = await _call(session, tool, arguments)
    assert result.is_error is True
    error = result.structured_content["error"]
    assert (error["code"], error.get("alias")) == (code, alias)
    assert isinstance(error["message"], str)
    assert error["message"]
    assert {"error": error} == _post_tools(served, tool, arguments).json()


async def test_over_http_the_api_key_chooses_the_profile_as_on_post_tools(served: str) -> None:
    async with http_session(served, "not-a-key") as session:
        refused = await _call(session, "get_hadith", CALLS["get_hadith"])
    assert refused.is_error is True
    assert refused.structured_content == _post_tools(served, "get_hadith", CALLS["get_hadith"], "not-a-key").json()
    assert refused.structured_content["error"]["code"] == "QUERY_REJECTED"
    async with http_session(served, GATEWAY_KEY) as session:
        served_call = await _call(session, "get_hadith", CALLS["get_hadith"])
    assert served_call.is_error is False
    assert served_call.structured_content["hadith_id"] == 100001


async def test_over_http_the_server_keeps_serving_after_errors(served: str) -> None:
    async with http_session(served) as session:
        for tool, arguments, _code, _alias in ERRORS:
            assert (await _call(session, tool, arguments)).is_error is True
        assert (await _call(session, "get_hadith", CALLS["get_hadith"])).is_error is False


async def test_over_stdio_the_tools_are_listed_called_and_refused_as_over_http(served: str, database_url: str) -> None:
    async with stdio_session(database_url) as session:
        await _assert_lists_the_eight_tools(session, _descriptions(served))
        for tool in TOOLS:
            result = await _call(session, tool, CALLS[tool])
            assert result.is_error is False
            assert result.structured_content == _post_tools(served, tool, CALLS[tool]).json()
        for tool, arguments, code, alias in ERRORS:
            result = await _call(session, tool, arguments)
            assert result.is_error is True
            error = result.structured_content["error"]
            assert (error["code"], error.get("alias")) == (code, alias)


async def test_over_stdio_an_import_of_another_schema_version_is_upstream_unavailable(
    imported: ImportReport, database_url: str
) -> None:
    """No lifespan runs over stdio: the import's version is read once, at start."""
    schema = "isnad_mcp_older_import"
    older = imported_as(database_url, schema, (SCHEMA_VERSION - 1, NORMALIZER_VERSION))
    async with older, stdio_session(database_url, schema) as session:
        result = await _call(session, "get_hadith", CALLS["get_hadith"])

    assert result.is_error is True
    assert result.structured_content["error"]["code"] == "UPSTREAM_UNAVAILABLE"
