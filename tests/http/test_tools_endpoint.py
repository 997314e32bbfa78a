"""The neutral tool surface: `GET /tools` describes the eight tools, `POST /tools/{name}` runs one.

A tool's output is `data.<tool>` of its persisted GraphQL response, byte for byte; an error is
`{"error": {code, message, alias}}` with a fitting HTTP status.
"""

import json
from typing import Any

import httpx
import orjson
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from starlette.applications import Starlette

from ingest.run import ImportReport
from schema.contract import TOOLS, input_schema, output_schema
from tests.conftest import api_settings, serving
from tests.graphql_client import PERSISTED
from tests.tool_calls import CALLS


def _manifest_ids() -> dict[str, str]:
    manifest = json.loads((PERSISTED / "manifest.json").read_text(encoding="utf-8"))
    return {op["name"]: op["id"] for op in manifest["operations"]}


def _error(response: httpx.Response) -> dict[str, Any]:
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert set(body) == {"error"}
    assert isinstance(body["error"]["message"], str)
    assert body["error"]["message"]
    error: dict[str, Any] = body["error"]
    return error


def test_the_calls_are_valid_tool_inputs() -> None:
    for tool in TOOLS:
        Draft202012Validator(input_schema(tool)).validate(CALLS[tool])


async def test_get_tools_describes_the_eight_tools(client: httpx.AsyncClient) -> None:
    response = await client.get("/tools")
    assert response.status_code == 200
    tools = response.json()["tools"]
    assert [tool["name"] for tool in tools] == list(TOOLS)
    ids = _manifest_ids()
    for tool in tools:
        name = tool["name"]
        assert set(tool) == {"name", "description", "input_schema", "output_schema", "persisted_document_id"}
        assert isinstance(tool["description"], str)
        assert tool["description"]
        assert tool["input_schema"] == input_schema(name)
        assert tool["output_schema"] == output_schema(name)
        assert tool["persisted_document_id"] == f"sha256:{ids[name]}"


@pytest.mark.parametrize("tool", TOOLS)
async def test_a_tool_call_is_the_data_of_its_persisted_response_byte_for_byte(
    client: httpx.AsyncClient, tool: str
) -> None:
    persisted = await client.post(
        "/graphql", json={"documentId": f"sha256:{_manifest_ids()[tool]}", "variables": CALLS[tool]}
    )
    graphql_json = orjson.loads(persisted.content)
    assert "errors" not in graphql_json, graphql_json["errors"]

    response = await client.post(f"/tools/{tool}", json=CALLS[tool])
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert response.content == orjson.dumps(graphql_json["data"][tool])
    Draft202012Validator(output_schema(tool)).validate(orjson.loads(response.content))


@pytest.mark.parametrize(
    ("tool", "arguments", "status", "code", "alias"),
    [
        ("get_hadith", {"hadith_id": 0}, 400, "INVALID_INPUT", "invalid_id"),
        ("get_hadith", {"hadith_id": -5}, 400, "INVALID_INPUT", "invalid_id"),
        ("get_hadith", {"hadith_id": 999999999}, 404, "NOT_FOUND", "not_found"),
        ("search_hadith", {"query": "bukhari:1", "limit": 21}, 400, "LIMIT_EXCEEDED", "limit_exceeded"),
        ("get_narrator_hadiths", {"narrator_id": 11062, "limit": 51}, 400, "LIMIT_EXCEEDED", "limit_exceeded"),
        ("search_hadith", {"query": "bukhari:1", "limit": 0}, 400, "INVALID_INPUT", "invalid_input"),
        ("get_hadith", {"hadith_id": 100001, "hadith": 1}, 400, "INVALID_INPUT", "invalid_input"),
        (
            "get_transmission_relation",
            {"narrator_a_id": 11042, "narrator_b_id": 11042},
            400,
            "INVALID_INPUT",
            "same_narrator",
        ),
    ],
    ids=[
        "id-zero",
        "id-negative",
        "not-found",
        "limit-over-20",
        "limit-over-50",
        "limit-zero",
        "unknown-argument",
        "same-narrator",
    ],
)
async def test_a_tool_error_is_the_contract_error_with_its_status(
    client: httpx.AsyncClient, tool: str, arguments: dict[str, Any], status: int, code: str, alias: str
) -> None:
    response = await client.post(f"/tools/{tool}", json=arguments)
    assert response.status_code == status
    error = _error(response)
    assert (error["code"], error.get("alias")) == (code, alias)


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"query": "bukhari:1", "limit": 21}, "LIMIT_EXCEEDED"),
        ({"query": "bukhari:1", "query_language": "de"}, "UNSUPPORTED_LANGUAGE"),
        ({"query": "   "}, "INVALID_INPUT"),
        ({"query": "bukhari:1", "collection_id": "1"}, "INVALID_INPUT"),
    ],
    ids=["limit-over-the-maximum", "language", "blank-query", "wrong-type"],
)
async def test_an_input_its_schema_refuses_runs_no_sql(
    client: httpx.AsyncClient, statements: list[str], arguments: dict[str, Any], code: str
) -> None:
    response = await client.post("/tools/search_hadith", json=arguments)
    assert _error(response)["code"] == code
    assert statements == []


async def test_an_unknown_api_key_is_refused(client: httpx.AsyncClient, statements: list[str]) -> None:
    response = await client.post("/tools/get_hadith", json={"hadith_id": 100001}, headers={"x-api-key": "not-a-key"})
    assert response.status_code == 400
    assert _error(response)["code"] == "QUERY_REJECTED"
    assert statements == []


async def test_an_unknown_tool_is_not_found(client: httpx.AsyncClient) -> None:
    response = await client.post("/tools/drop_table", json={})
    assert response.status_code == 404
    assert _error(response)["code"] == "NOT_FOUND"


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b"42"])
async def test_a_body_that_is_not_a_json_object_is_invalid(
    client: httpx.AsyncClient, statements: list[str], body: bytes
) -> None:
    response = await client.post("/tools/get_hadith", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert _error(response)["code"] == "INVALID_INPUT"
    assert statements == []


NOT_JSON = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]


@pytest.mark.parametrize("content_type", NOT_JSON)
async def test_a_body_that_is_not_json_typed_is_unsupported(
    client: httpx.AsyncClient, statements: list[str], content_type: str | None
) -> None:
    """A form or text/plain POST is what another site's page may send without a preflight: never run."""
    request = client.build_request("POST", "/tools/get_hadith", content=b'{"hadith_id": 100001}')
    if content_type is None:
        request.headers.pop("content-type", None)
    else:
        request.headers["content-type"] = content_type
    response = await client.send(request)
    assert response.status_code == 415
    assert _error(response)["code"] == "INVALID_INPUT"
    assert statements == []


async def test_json_with_a_charset_runs_the_tool(client: httpx.AsyncClient) -> None:
    headers = {"content-type": "application/json; charset=utf-8"}
    response = await client.post("/tools/get_hadith", content=b'{"hadith_id": 100001}', headers=headers)
    assert response.json()["hadith_id"] == 100001


@pytest.mark.parametrize(("method", "path"), [("GET", "/tools/get_hadith"), ("PUT", "/tools"), ("POST", "/tools")])
async def test_a_method_a_route_does_not_take_is_an_error_of_the_closed_set(
    client: httpx.AsyncClient, method: str, path: str
) -> None:
    response = await client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"]
    assert _error(response)["code"] == "QUERY_REJECTED"


async def test_an_unknown_path_is_not_found_in_the_envelope(client: httpx.AsyncClient) -> None:
    response = await client.get("/no/such/path")
    assert response.status_code == 404
    assert _error(response)["code"] == "NOT_FOUND"


@pytest.mark.parametrize("body", [b'{"hadith_id": "100001"}', b"{}", b""], ids=["wrong-type", "missing", "no-body"])
async def test_a_wrong_or_missing_argument_is_invalid_input(client: httpx.AsyncClient, body: bytes) -> None:
    response = await client.post("/tools/get_hadith", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert _error(response)["code"] == "INVALID_INPUT"


async def test_a_tool_body_over_max_body_bytes_is_refused(imported: ImportReport, database_url: str) -> None:
    async with serving(api_settings(database_url, max_body_bytes=1024), database_url) as served:
        http = served.client
        response = await http.post("/tools/search_hadith", json={"query": "x" * 2000})
        assert response.status_code == 413
        assert _error(response)["code"] == "LIMIT_EXCEEDED"


async def test_an_unexpected_failure_is_a_masked_internal_error(
    client: httpx.AsyncClient, app: Starlette, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def fails(*_: object) -> None:
        raise RuntimeError('relation "isnad.hadith" does not exist')

    monkeypatch.setattr(app.state.tools.executor, "run", fails)
    response = await client.post("/tools/get_hadith", json={"hadith_id": 100001})
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "INTERNAL_ERROR", "message": "Internal error."}}
