"""What every answer goes through at the HTTP edge: CORS, gzip, revalidation (ETag, 304), HEAD.

CORS answers only the origins of `ISNAD_CORS_ORIGINS` (none by default, `*` for any), never with
credentials; answers above `ISNAD_COMPRESS_MIN_BYTES` leave gzip-compressed to clients that accept it;
a persisted GET carries a strong ETag per representation and is answered 304 when the client holds it.
"""

import gzip
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.execution.persisted import DEFAULT_DIR, load_manifest
from ingest.run import ImportReport
from tests.conftest import Served, api_settings, serving

ALLOWED = "https://frontend.example"
OTHER = "https://elsewhere.example"
PROFILE = {"narrator_id": 11062, "entry_limit": 10}
REQUEST_HEADERS = "content-type, x-api-key"
PREFLIGHT_PATHS = ["/graphql", "/tools", "/tools/get_hadith"]


def _tool_id(tool: str) -> str:
    return next(op.id for op in load_manifest(DEFAULT_DIR).values() if op.name == tool)


def _persisted_get(variables: dict[str, Any], tool: str = "get_narrator_profile") -> dict[str, str]:
    return {"documentId": f"sha256:{_tool_id(tool)}", "variables": json.dumps(variables)}


def _persisted_post(variables: dict[str, Any], tool: str = "get_narrator_profile") -> dict[str, Any]:
    return {"documentId": f"sha256:{_tool_id(tool)}", "variables": variables}


def _listed(response: httpx.Response, header: str) -> set[str]:
    return {part.strip().lower() for part in response.headers.get(header, "").split(",") if part.strip()}


def _preflight(origin: str) -> dict[str, str]:
    return {
        "origin": origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": REQUEST_HEADERS,
    }


@pytest.fixture(scope="module")
async def cors(imported: ImportReport, database_url: str) -> AsyncIterator[Served]:
    async with serving(api_settings(database_url, cors_origins=(ALLOWED,)), database_url) as served:
        yield served


@pytest.fixture(scope="module")
async def cors_any(imported: ImportReport, database_url: str) -> AsyncIterator[Served]:
    async with serving(api_settings(database_url, cors_origins=("*",)), database_url) as served:
        yield served


# --- CORS -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PREFLIGHT_PATHS)
async def test_a_preflight_from_an_allowed_origin_is_answered(cors: Served, path: str) -> None:
    response = await cors.client.options(path, headers=_preflight(ALLOWED))
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == ALLOWED
    assert _listed(response, "access-control-allow-methods") == {"get", "head", "post"}
    assert _listed(response, "access-control-allow-headers") >= {"content-type", "x-api-key", "accept"}
    assert int(response.headers["access-control-max-age"]) > 0
    assert "origin" in _listed(response, "vary")
    assert "access-control-allow-credentials" not in response.headers


@pytest.mark.parametrize("path", PREFLIGHT_PATHS)
async def test_a_preflight_from_another_origin_is_refused(cors: Served, path: str) -> None:
    response = await cors.client.options(path, headers=_preflight(OTHER))
    assert response.status_code == 400
    assert "access-control-allow-origin" not in response.headers


async def test_a_request_from_an_allowed_origin_may_read_the_answer_and_its_timing(cors: Served) -> None:
    response = await cors.client.post("/graphql", json={"query": "{ __typename }"}, headers={"origin": ALLOWED})
    assert response.json()["data"] == {"__typename": "Query"}
    assert response.headers["access-control-allow-origin"] == ALLOWED
    assert _listed(response, "access-control-expose-headers") >= {"server-timing", "etag"}
    assert "origin" in _listed(response, "vary")


@pytest.mark.parametrize("origin", [OTHER, None])
async def test_an_answer_for_no_allowed_origin_still_varies_by_origin(cors: Served, origin: str | None) -> None:
    headers = {"origin": origin} if origin else {}
    response = await cors.client.get("/graphql", params=_persisted_get(PROFILE), headers=headers)
    assert response.status_code == 200
    assert "access-control-allow-origin" not in response.headers
    assert "origin" in _listed(response, "vary")


async def test_any_origin_is_answered_with_a_star_and_never_with_credentials(cors_any: Served) -> None:
    preflight = await cors_any.client.options("/tools/get_hadith", headers=_preflight(OTHER))
    assert (preflight.status_code, preflight.headers["access-control-allow-origin"]) == (200, "*")
    headers = {"origin": OTHER, "cookie": "session=1"}
    response = await cors_any.client.post("/tools/get_hadith", json={"hadith_id": 100001}, headers=headers)
    assert response.json()["hadith_id"] == 100001
    assert response.headers["access-control-allow-origin"] == "*"
    for answer in (preflight, response):
        assert "access-control-allow-credentials" not in answer.headers


async def test_no_origin_is_allowed_by_default(client: httpx.AsyncClient) -> None:
    preflight = await client.options("/graphql", headers=_preflight(ALLOWED))
    assert preflight.status_code == 400
    response = await client.post("/graphql", json={"query": "{ __typename }"}, headers={"origin": ALLOWED})
    assert "access-control-allow-origin" not in response.headers


# --- compression ----------------------------------------------------------------------------------------


async def _raw(client: httpx.AsyncClient, method: str, url: str, **kwargs: Any) -> tuple[httpx.Response, bytes]:
    """The answer, and its body as it came over the wire (not decoded)."""
    async with client.stream(method, url, **kwargs) as response:
        return response, b"".join([chunk async for chunk in response.aiter_raw()])


@pytest.mark.parametrize(
    ("method", "url", "kwargs"),
    [
        ("GET", "/graphql", {"params": _persisted_get(PROFILE)}),
        (
            "POST",
            "/graphql",
            {"json": _persisted_post(PROFILE)},
        ),
        ("GET", "/tools", {}),
        ("POST", "/tools/get_narrator_profile", {"json": PROFILE}),
        ("POST", "/graphql", {"json": {"query": "{ " + " ".join(f"no_field_{i}" for i in range(12)) + " }"}}),
    ],
    ids=["persisted-get", "persisted-post", "tool-list", "tool-call", "errors"],
)
async def test_a_large_answer_is_gzipped_for_a_client_that_accepts_it(
    client: httpx.AsyncClient, method: str, url: str, kwargs: dict[str, Any]
) -> None:
    plain, identity = await _raw(client, method, url, headers={"accept-encoding": "identity"}, **kwargs)
    zipped, wire = await _raw(client, method, url, headers={"accept-encoding": "gzip"}, **kwargs)
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) == len(wire) < len(identity) // 2
    assert "accept-encoding" in _listed(zipped, "vary")
    assert json.loads(gzip.decompress(wire)).keys() == json.loads(identity).keys()


async def test_a_small_answer_is_not_compressed(client: httpx.AsyncClient) -> None:
    response, wire = await _raw(
        client, "POST", "/graphql", json={"query": "{ __typename }"}, headers={"accept-encoding": "gzip"}
    )
    assert "content-encoding" not in response.headers
    assert json.loads(wire)["data"] == {"__typename": "Query"}


# --- revalidation and HEAD ------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["identity", "gzip"])
async def test_a_persisted_get_that_the_client_holds_is_not_modified(client: httpx.AsyncClient, encoding: str) -> None:
    params, headers = _persisted_get(PROFILE), {"accept-encoding": encoding}
    first = await client.get("/graphql", params=params, headers=headers)
    etag = first.headers["etag"]
    assert etag.startswith('"') and etag.endswith('-gzip"' if encoding == "gzip" else '"')
    again = await client.get("/graphql", params=params, headers={**headers, "if-none-match": f'"other", {etag}'})
    assert again.status_code == 304
    assert again.content == b""
    for header in ("etag", "cache-control", "vary"):
        assert again.headers[header] == first.headers[header]
    assert "content-length" not in again.headers


async def test_an_etag_names_one_representation_of_one_answer(client: httpx.AsyncClient) -> None:
    plain = await client.get("/graphql", params=_persisted_get(PROFILE), headers={"accept-encoding": "identity"})
    other = await client.get("/graphql", params=_persisted_get({**PROFILE, "entry_limit": 2}))
    assert other.headers["etag"] != plain.headers["etag"]
    zipped = await client.get(
        "/graphql",
        params=_persisted_get(PROFILE),
        headers={"accept-encoding": "gzip", "if-none-match": plain.headers["etag"]},
    )
    assert zipped.status_code == 200
    assert zipped.json() == plain.json()


@pytest.mark.parametrize(
    ("method", "kwargs"),
    [
        ("GET", {"params": {"query": "{ get_hadith(hadith_id: 100001) { hadith_id } }"}}),
        ("POST", {"json": _persisted_post({"hadith_id": 100001}, "get_hadith")}),
        ("GET", {"params": _persisted_get({"hadith_id": 999999999}, "get_hadith")}),
    ],
    ids=["free-get", "persisted-post", "persisted-get-that-errs"],
)
async def test_an_answer_that_is_not_cacheable_has_no_etag(
    client: httpx.AsyncClient, method: str, kwargs: dict[str, Any]
) -> None:
    response = await client.request(method, "/graphql", headers={"if-none-match": "*"}, **kwargs)
    assert response.status_code == 200
    assert "etag" not in response.headers


@pytest.mark.parametrize("encoding", ["identity", "gzip"])
async def test_head_carries_the_headers_of_get(client: httpx.AsyncClient, encoding: str) -> None:
    headers = {"accept-encoding": encoding}
    got = await client.get("/graphql", params=_persisted_get(PROFILE), headers=headers)
    head = await client.head("/graphql", params=_persisted_get(PROFILE), headers=headers)
    assert head.status_code == 200
    per_request = ("server-timing", "x-request-id")
    assert {k: v for k, v in head.headers.items() if k not in per_request} == {
        k: v for k, v in got.headers.items() if k not in per_request
    }
    assert head.headers["cache-control"] == "public, max-age=300"
    not_modified = await client.head(
        "/graphql", params=_persisted_get(PROFILE), headers={**headers, "if-none-match": got.headers["etag"]}
    )
    assert not_modified.status_code == 304
