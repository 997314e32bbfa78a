"""GraphQL over HTTP at /graphql: media types, status codes, methods, body limits, GraphiQL.

With `Accept: application/graphql-response+json` (or no Accept header) a document refused before it
runs is 400 (it does not parse, does not validate, or a limit refuses it); with `application/json`,
`application/*` or `*/*` every GraphQL error is a 200; accepting neither is 406. A request that is not
well-formed (its body not a JSON object, a parameter of the wrong type, no document) is 400 in both.
Anything but a query over GET is 405, an oversized body 413, a body not JSON-typed 415: each with its
errors in the chosen media type (406 in legacy JSON), and never a suggestion of the schema's names.
"""

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import orjson
import pytest

from ingest.run import ImportReport
from tests.conftest import api_settings, serving

GRAPHQL_RESPONSE = "application/graphql-response+json"
LEGACY_JSON = "application/json"
QUERY = "{ get_hadith(hadith_id: 100001) { hadith_id } }"
DOCUMENTS = {
    "syntax-error": "{ get_hadith(",
    "validation-error": "{ get_hadith(hadith_id: 100001) { no_such_field } }",
    "cost-refused": """{ search_hadith(query: "bukhari:1", limit: 20) { results { hadith {
      chains(limit: 20) { chains { nodes { narrator { hadiths(limit: 20) { items { hadith_id } } } } } } } } } }""",
    "success": QUERY,
}
MODERN_STATUS = {"syntax-error": 400, "validation-error": 400, "cost-refused": 400, "success": 200}


def _media_type(response: httpx.Response) -> str:
    return response.headers["content-type"].split(";")[0].strip()


def _codes(response: httpx.Response) -> list[str]:
    return [error["extensions"]["code"] for error in response.json().get("errors", [])]


async def _post(client: httpx.AsyncClient, content: bytes, accept: str | None) -> httpx.Response:
    """A JSON POST to /graphql with this Accept header, or none at all."""
    request = client.build_request("POST", "/graphql", content=content, headers={"content-type": LEGACY_JSON})
    if accept is None:
        del request.headers["accept"]
    else:
        request.headers["accept"] = accept
    return await client.send(request)


@pytest.mark.parametrize("accept", [GRAPHQL_RESPONSE, None])
@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
async def test_graphql_response_json_statuses(client: httpx.AsyncClient, kind: str, accept: str | None) -> None:
    response = await _post(client, orjson.dumps({"query": DOCUMENTS[kind]}), accept)
    assert response.status_code == MODERN_STATUS[kind]
    assert response.headers["content-type"] == f"{GRAPHQL_RESPONSE}; charset=utf-8"
    assert _codes(response) == ([] if kind == "success" else ["QUERY_REJECTED"])
    assert ("data" in response.json()) == (kind == "success")


@pytest.mark.parametrize("accept", [LEGACY_JSON, "application/*", "*/*", "text/html, */*;q=0.8"])
@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
async def test_legacy_json_answers_every_graphql_error_with_200(
    client: httpx.AsyncClient, kind: str, accept: str
) -> None:
    response = await _post(client, orjson.dumps({"query": DOCUMENTS[kind]}), accept)
    assert response.status_code == 200
    assert response.headers["content-type"] == f"{LEGACY_JSON}; charset=utf-8"
    assert _codes(response) == ([] if kind == "success" else ["QUERY_REJECTED"])


@pytest.mark.parametrize("accept", ["text/html", "image/png, text/*", f"{GRAPHQL_RESPONSE};q=0, {LEGACY_JSON};q=0"])
async def test_a_client_that_accepts_no_json_is_not_acceptable(
    client: httpx.AsyncClient, statements: list[str], accept: str
) -> None:
    response = await _post(client, orjson.dumps({"query": QUERY}), accept)
    assert (response.status_code, _media_type(response)) == (406, LEGACY_JSON)
    assert _codes(response) == ["QUERY_REJECTED"]
    assert GRAPHQL_RESPONSE in response.json()["errors"][0]["message"]
    assert statements == []


@pytest.mark.parametrize(
    ("accept", "chosen"),
    [
        (f"{LEGACY_JSON}, {GRAPHQL_RESPONSE}", LEGACY_JSON),
        (f"{GRAPHQL_RESPONSE}, {LEGACY_JSON}", GRAPHQL_RESPONSE),
        (f"{LEGACY_JSON};q=0.5, {GRAPHQL_RESPONSE}", GRAPHQL_RESPONSE),
        (f"*/*;q=0.1, {GRAPHQL_RESPONSE};q=0.2", GRAPHQL_RESPONSE),
        (f"{GRAPHQL_RESPONSE};q=oops, {LEGACY_JSON}", LEGACY_JSON),
    ],
)
async def test_the_media_type_follows_the_clients_preference(
    client: httpx.AsyncClient, accept: str, chosen: str
) -> None:
    response = await _post(client, orjson.dumps({"query": QUERY}), accept)
    assert (response.status_code, _media_type(response)) == (200, chosen)


async def test_graphql_response_json_is_chosen_when_preferred_among_others(client: httpx.AsyncClient) -> None:
    accept = f"{GRAPHQL_RESPONSE}, {LEGACY_JSON};q=0.9"
    response = await client.post("/graphql", json={"query": DOCUMENTS["validation-error"]}, headers={"accept": accept})
    assert (response.status_code, _media_type(response)) == (400, GRAPHQL_RESPONSE)


@pytest.mark.parametrize("accept", [GRAPHQL_RESPONSE, LEGACY_JSON])
async def test_a_query_over_get_is_answered(client: httpx.AsyncClient, accept: str) -> None:
    response = await client.get("/graphql", params={"query": QUERY}, headers={"accept": accept})
    assert (response.status_code, _media_type(response)) == (200, accept)
    assert response.json()["data"] == {"get_hadith": {"hadith_id": 100001}}


async def test_get_variables_and_operation_name_are_json_query_parameters(client: httpx.AsyncClient) -> None:
    document = "query One($id: Int!) { get_hadith(hadith_id: $id) { hadith_id } } query Two { __typename }"
    params = {"query": document, "variables": '{"id": 100001}', "operationName": "One"}
    response = await client.get("/graphql", params=params)
    assert response.json()["data"] == {"get_hadith": {"hadith_id": 100001}}


@pytest.mark.parametrize("accept", [GRAPHQL_RESPONSE, LEGACY_JSON])
@pytest.mark.parametrize("variables", ["not json", "[1, 2]"])
async def test_get_variables_that_are_not_a_json_object_are_a_bad_request(
    client: httpx.AsyncClient, variables: str, accept: str
) -> None:
    response = await client.get("/graphql", params={"query": QUERY, "variables": variables}, headers={"accept": accept})
    assert (response.status_code, _media_type(response)) == (400, accept)
    assert _codes(response) == ["QUERY_REJECTED"]


@pytest.mark.parametrize("accept", [GRAPHQL_RESPONSE, LEGACY_JSON])
async def test_a_mutation_over_get_is_method_not_allowed(
    client: httpx.AsyncClient, statements: list[str], accept: str
) -> None:
    response = await client.get("/graphql", params={"query": "mutation { x }"}, headers={"accept": accept})
    assert (response.status_code, _media_type(response)) == (405, accept)
    assert _codes(response) == ["QUERY_REJECTED"]
    assert "GET" in response.headers["allow"]
    assert statements == []


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
async def test_other_methods_are_not_allowed(client: httpx.AsyncClient, method: str) -> None:
    response = await client.request(method, "/graphql", json={"query": QUERY})
    assert (response.status_code, _media_type(response)) == (405, LEGACY_JSON)  # httpx accepts */*
    assert _codes(response) == ["QUERY_REJECTED"]
    assert {m.strip() for m in response.headers["allow"].split(",")} >= {"GET", "POST"}


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
async def test_a_body_that_is_not_json_typed_is_unsupported(
    client: httpx.AsyncClient, statements: list[str], content_type: str | None
) -> None:
    request = client.build_request("POST", "/graphql", content=b'{"query": "{ __typename }"}')
    if content_type is None:
        request.headers.pop("content-type", None)
    else:
        request.headers["content-type"] = content_type
    response = await client.send(request)
    assert (response.status_code, _media_type(response)) == (415, LEGACY_JSON)
    assert _codes(response) == ["QUERY_REJECTED"]
    assert statements == []


async def test_json_with_a_charset_is_accepted(client: httpx.AsyncClient) -> None:
    headers = {"content-type": "application/json; charset=utf-8"}
    response = await client.post("/graphql", content=b'{"query": "{ __typename }"}', headers=headers)
    assert response.json()["data"] == {"__typename": "Query"}


def _chunks(body: bytes) -> Iterator[bytes]:
    yield from (body[i : i + 256] for i in range(0, len(body), 256))


async def test_a_body_over_max_body_bytes_is_refused(imported: ImportReport, database_url: str) -> None:
    body = b'{"query": "{ __typename }", "variables": {"padding": "' + b"x" * 1100 + b'"}}'
    async with serving(api_settings(database_url, max_body_bytes=1024), database_url) as served:
        http = served.client
        declared = await http.post("/graphql", content=body, headers={"content-type": LEGACY_JSON})
        assert (declared.status_code, _media_type(declared)) == (413, LEGACY_JSON)
        assert _codes(declared) == ["LIMIT_EXCEEDED"]

        async def streamed() -> AsyncIterator[bytes]:
            for chunk in _chunks(body):
                yield chunk

        undeclared = await http.post("/graphql", content=streamed(), headers={"content-type": LEGACY_JSON})
        assert "content-length" not in undeclared.request.headers
        assert undeclared.status_code == 413
        assert _codes(undeclared) == ["LIMIT_EXCEEDED"]

        small = await http.post("/graphql", json={"query": "{ __typename }"})
        assert small.json()["data"] == {"__typename": "Query"}


@pytest.mark.parametrize("accept", [GRAPHQL_RESPONSE, LEGACY_JSON])
@pytest.mark.parametrize("body", [b"{not json", b"", b"[1, 2]", b'"query"'])
async def test_a_post_body_that_is_not_a_json_object_is_a_bad_request(
    client: httpx.AsyncClient, statements: list[str], body: bytes, accept: str
) -> None:
    response = await _post(client, body, accept)
    assert (response.status_code, _media_type(response)) == (400, accept)
    assert _codes(response) == ["QUERY_REJECTED"]
    assert "data" not in response.json()
    assert statements == []


@pytest.mark.parametrize("accept", [GRAPHQL_RESPONSE, LEGACY_JSON])
@pytest.mark.parametrize(
    "payload",
    [{}, {"qeury": QUERY}, {"query": 42}, {"query": QUERY, "variables": [1]}, {"query": QUERY, "operationName": 1}],
    ids=["no-query", "query-misspelt", "query-not-a-string", "variables-not-an-object", "operation-name-not-a-string"],
)
async def test_malformed_request_parameters_are_a_bad_request(
    client: httpx.AsyncClient, payload: dict[str, Any], accept: str
) -> None:
    response = await _post(client, orjson.dumps(payload), accept)
    assert (response.status_code, _media_type(response)) == (400, accept)
    assert _codes(response) == ["QUERY_REJECTED"]


async def test_a_browser_get_is_served_graphiql(client: httpx.AsyncClient) -> None:
    response = await client.get("/graphql", headers={"accept": "text/html,application/xhtml+xml"})
    assert response.status_code == 200
    assert _media_type(response) == "text/html"
    assert "graphiql" in response.text.lower()


async def test_a_browser_get_with_a_query_is_answered_not_served_graphiql(client: httpx.AsyncClient) -> None:
    accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"  # a browser's navigation
    response = await client.get("/graphql", params={"query": QUERY}, headers={"accept": accept})
    assert _media_type(response) == LEGACY_JSON
    assert response.json()["data"] == {"get_hadith": {"hadith_id": 100001}}


@pytest.mark.parametrize(
    "document",
    [
        "{ get_hadith(hadith_id: 100001) { hadith_ix } }",
        "{ get_hadit(hadith_id: 100001) { hadith_id } }",
        '{ search_narrator(query: "Abu", filter: { generation: "1" }) { truncated } }',
    ],
    ids=["field", "root-field", "argument"],
)
async def test_errors_suggest_no_name_of_the_schema_by_default(client: httpx.AsyncClient, document: str) -> None:
    response = await client.post("/graphql", json={"query": document})
    (error,) = response.json()["errors"]
    assert error["extensions"]["code"] == "QUERY_REJECTED"
    assert "Did you mean" not in error["message"]


async def test_variables_suggest_no_name_of_the_schema_by_default(client: httpx.AsyncClient) -> None:
    document = 'query($f: NarratorFilters) { search_narrator(query: "Abu", filters: $f) { truncated } }'
    response = await client.post("/graphql", json={"query": document, "variables": {"f": {"generaton": "1"}}})
    (error,) = response.json()["errors"]
    assert error["extensions"]["code"] == "INVALID_INPUT"
    assert "Did you mean" not in error["message"]


async def test_suggestions_may_be_turned_on_for_development(imported: ImportReport, database_url: str) -> None:
    async with serving(api_settings(database_url, suggestions=True), database_url) as served:
        response = await served.client.post("/graphql", json={"query": "{ get_hadit(hadith_id: 1) { hadith_id } }"})
    assert "Did you mean 'get_hadith'" in response.json()["errors"][0]["message"]
