"""The exact JSON shape of an error entry, one test per code of the closed set (CONTRACT.md section C).

A field error (raised while a field runs) is `{message, locations, path, extensions: {code, alias?}}`
and nulls `data`; a request error (refused before anything runs) has no `path` and no `data`.
An unexpected exception inside a resolver is masked as INTERNAL_ERROR, 'Internal error.'.
"""

import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.errors import ErrorCode
from tests.conftest import api_settings, serving
from tests.graphql_client import execute

RESPONSE_KEYS = {"data", "errors", "extensions"}
REQUEST_ERROR_KEYS = {"message", "locations", "extensions"}


class ShortMessage:
    """Equal to a message a person can read: one short line, no stack trace."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and 0 < len(other) <= 200 and "\n" not in other

    def __repr__(self) -> str:
        return "<a short one-line message>"

    __hash__ = None  # type: ignore[assignment]


SHORT = ShortMessage()


def field_error(body: dict[str, Any]) -> dict[str, Any]:
    """The one error of a response whose root field failed."""
    assert set(body) <= RESPONSE_KEYS
    assert body["data"] is None
    (error,) = body["errors"]
    entry: dict[str, Any] = error
    return entry


def request_error(body: dict[str, Any]) -> dict[str, Any]:
    """The one error of a response refused before execution: no `data`, no `path`."""
    assert set(body) <= RESPONSE_KEYS - {"data"}
    (error,) = body["errors"]
    assert {"message", "extensions"} <= set(error) <= REQUEST_ERROR_KEYS
    entry: dict[str, Any] = error
    return entry


async def test_invalid_input(client: httpx.AsyncClient) -> None:
    body = await execute(client, "{ get_hadith(hadith_id: 0) { hadith_id } }")
    assert field_error(body) == {
        "message": SHORT,
        "locations": [{"line": 1, "column": 3}],
        "path": ["get_hadith"],
        "extensions": {"code": "INVALID_INPUT", "alias": "invalid_id"},
    }


async def test_unsupported_language(client: httpx.AsyncClient) -> None:
    body = await execute(client, '{\n  search_narrator(query: "Abu", query_language: "xx") { truncated } }')
    assert field_error(body) == {
        "message": SHORT,
        "locations": [{"line": 2, "column": 3}],
        "path": ["search_narrator"],
        "extensions": {"code": "UNSUPPORTED_LANGUAGE", "alias": "unsupported_language"},
    }


async def test_limit_exceeded(client: httpx.AsyncClient) -> None:
    body = await execute(client, "{ get_hadith_chains(hadith_id: 100001, limit: 21) { truncated } }")
    error = request_error(body)
    assert error["message"] == SHORT
    assert error["extensions"] == {"code": "LIMIT_EXCEEDED", "alias": "limit_exceeded"}


async def test_not_found(client: httpx.AsyncClient) -> None:
    body = await execute(client, "query { get_narrator_profile(narrator_id: 99999999) { narrator_id } }")
    assert field_error(body) == {
        "message": SHORT,
        "locations": [{"line": 1, "column": 9}],
        "path": ["get_narrator_profile"],
        "extensions": {"code": "NOT_FOUND", "alias": "not_found"},
    }


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port bound but never listening: a connection to it is refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


async def test_upstream_unavailable(database_url: str, closed_port: int) -> None:
    url = f"postgresql://postgres@127.0.0.1:{closed_port}/isnad"
    async with serving(api_settings(url), url) as served:
        body = await execute(served.client, "{ get_hadith(hadith_id: 100001) { hadith_id } }")
    assert field_error(body) == {
        "message": SHORT,
        "locations": [{"line": 1, "column": 3}],
        "path": ["get_hadith"],
        "extensions": {"code": "UPSTREAM_UNAVAILABLE", "alias": "upstream_unavailable"},
    }


async def test_query_rejected(client: httpx.AsyncClient) -> None:
    body = await execute(client, "{ get_hadith(hadith_id: 100001) { no_such_field } }")
    error = request_error(body)
    assert error["message"] == SHORT
    assert error["extensions"] == {"code": "QUERY_REJECTED"}


@pytest.mark.parametrize(
    ("document", "location"),
    [
        ("{ get_hadith(hadith_id: 100001) { no_such_field } }", {"line": 1, "column": 35}),
        ("{\n  get_hadith(hadith_id: 100001) {", {"line": 2, "column": 34}),
    ],
    ids=["validation", "syntax"],
)
async def test_a_document_error_points_at_its_place(
    client: httpx.AsyncClient, document: str, location: dict[str, int]
) -> None:
    """GraphQL spec, section 7.1.2: an error tied to a point of the document carries `locations`."""
    error = request_error(await execute(client, document))
    assert error.get("locations") == [location]


async def test_persisted_query_not_found(client: httpx.AsyncClient) -> None:
    """Apollo clients look for this message or this code to send the document again."""
    apq = {"persistedQuery": {"version": 1, "sha256Hash": "0" * 64}}
    body = (await client.post("/graphql", json={"extensions": apq})).json()
    assert request_error(body) == {
        "message": "PersistedQueryNotFound",
        "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"},
    }


async def test_rate_limited(database_url: str) -> None:
    """The edge refuses a client over its rate (`app/http/rate_limits.py`) before anything runs."""
    async with serving(api_settings(database_url, rate_limits="default=0.001/1"), database_url) as served:
        await served.client.post("/graphql", json={"query": "{ __typename }"})
        refused = await served.client.post("/graphql", json={"query": "{ __typename }"})
    assert refused.status_code == 429
    assert request_error(refused.json()) == {"message": SHORT, "extensions": {"code": "RATE_LIMITED"}}


LEAKY_TEXT = 'SELECT text_ar_normalized FROM hadith_source_record -- File "/srv/app.py", asyncpg'


async def test_an_unexpected_exception_is_masked_as_internal_error(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    called = []

    async def explode(*args: object) -> None:
        called.append(args)
        raise RuntimeError(LEAKY_TEXT)

    monkeypatch.setattr("resolvers.get_hadith.load_hadith", explode)
    response = await client.post("/graphql", json={"query": "{ get_hadith(hadith_id: 100001) { hadith_id } }"})

    assert called, "the patched resolver function was not the one the schema calls"
    assert field_error(response.json()) == {
        "message": "Internal error.",
        "locations": [{"line": 1, "column": 3}],
        "path": ["get_hadith"],
        "extensions": {"code": "INTERNAL_ERROR"},
    }
    for fragment in ("SELECT", "text_ar_normalized", "hadith_source_record", "File", "asyncpg", "RuntimeError"):
        assert fragment not in response.text


async def test_an_unexpected_exception_in_a_nested_field_is_masked(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def explode(*args: object) -> None:
        raise KeyError(LEAKY_TEXT)

    monkeypatch.setattr("schema.hadith.chains_of_hadith", explode)
    body = await execute(client, "{ get_hadith(hadith_id: 100001) { hadith_id chains { truncated } } }")

    error = field_error(body)
    assert error["path"] == ["get_hadith", "chains"]
    assert (error["message"], error["extensions"]) == ("Internal error.", {"code": "INTERNAL_ERROR"})


SHAPE_TESTS = {
    ErrorCode.INVALID_INPUT: test_invalid_input,
    ErrorCode.UNSUPPORTED_LANGUAGE: test_unsupported_language,
    ErrorCode.LIMIT_EXCEEDED: test_limit_exceeded,
    ErrorCode.NOT_FOUND: test_not_found,
    ErrorCode.UPSTREAM_UNAVAILABLE: test_upstream_unavailable,
    ErrorCode.QUERY_REJECTED: test_query_rejected,
    ErrorCode.PERSISTED_QUERY_NOT_FOUND: test_persisted_query_not_found,
    ErrorCode.RATE_LIMITED: test_rate_limited,
    ErrorCode.INTERNAL_ERROR: test_an_unexpected_exception_is_masked_as_internal_error,
}


def test_every_code_of_the_closed_set_has_a_shape_test() -> None:
    assert set(SHAPE_TESTS) == set(ErrorCode)
