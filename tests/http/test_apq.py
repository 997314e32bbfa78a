"""Automatic persisted queries over HTTP: a hash alone misses, the hash with its text registers the
document for clients that may send free documents, later calls with the hash alone find it.

Every test registers documents of its own (the session's app keeps what it registered), so none
depends on another's order.
"""

import hashlib
import json
from typing import Any

import httpx
import pytest

from ingest.run import ImportReport
from tests.conftest import api_settings, serving
from tests.graphql_client import tool_document
from tests.persisted_calls import _apq, _error, _ids

MODERN = {"accept": "application/graphql-response+json"}
NOT_FOUND = ("PERSISTED_QUERY_NOT_FOUND", "PersistedQueryNotFound")
MISMATCH = ("QUERY_REJECTED", "provided sha does not match query")


def _document(alias: str) -> str:
    """A free document of its own for each test, by the alias it gives the field."""
    return f"{{ {alias}: get_hadith(hadith_id: 100001) {{ hadith_id }} }}"


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def _send(http: httpx.AsyncClient, text: str | None, hash_: str, **extra: Any) -> httpx.Response:
    body: dict[str, Any] = {"extensions": _apq(hash_)} | ({"query": text} if text is not None else {})
    return await http.post("/graphql", json=body, **extra)


async def test_a_hash_misses_then_registers_with_its_text_then_hits(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    text = _document("registered")
    hash_ = _hash(text)
    assert _error(await _send(client, None, hash_)) == NOT_FOUND
    assert statements == []

    registering = await _send(client, text, hash_)
    assert "errors" not in registering.json()
    assert registering.json()["data"] == {"registered": {"hadith_id": 100001}}
    hit = await _send(client, None, hash_)
    assert hit.json()["data"] == {"registered": {"hadith_id": 100001}}


async def test_a_registered_hash_is_found_by_get_and_by_document_id_and_a_get_is_cacheable(
    client: httpx.AsyncClient,
) -> None:
    text = _document("by_get")
    hash_ = _hash(text)
    await _send(client, text, hash_)
    by_get = await client.get("/graphql", params={"extensions": json.dumps(_apq(hash_))})
    assert by_get.json()["data"] == {"by_get": {"hadith_id": 100001}}
    assert by_get.headers["cache-control"] == "public, max-age=300"
    by_id = await client.post("/graphql", json={"documentId": f"sha256:{hash_}"})
    assert by_id.json()["data"] == {"by_get": {"hadith_id": 100001}}


async def test_a_text_that_is_not_the_hashs_is_refused_unrun_and_unregistered(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    hash_ = _hash(_document("announced"))
    refused = await _send(client, _document("sent"), hash_, headers=MODERN)
    assert refused.status_code == 400
    assert _error(refused) == MISMATCH
    assert _error(await _send(client, None, hash_)) == NOT_FOUND
    assert _error(await _send(client, None, _hash(_document("sent")))) == NOT_FOUND
    assert statements == []


async def test_a_manifest_hash_runs_only_the_manifest_text(client: httpx.AsyncClient, statements: list[str]) -> None:
    manifest_hash, variables = _ids()["get_hadith"], {"hadith_id": 100001}
    body = {"query": _document("other"), "extensions": _apq(manifest_hash), "variables": variables}
    assert _error(await client.post("/graphql", json=body)) == MISMATCH
    by_id = {"query": _document("other"), "documentId": f"sha256:{manifest_hash}", "variables": variables}
    assert _error(await client.post("/graphql", json=by_id)) == MISMATCH
    assert statements == []

    own_text = (await client.post("/graphql", json={**body, "query": tool_document("get_hadith")})).json()
    assert own_text["data"]["get_hadith"]["canonical_reference"] == "bukhari:1"


@pytest.mark.parametrize(
    "text",
    ["{ get_hadith(hadith_id: 100001) { no_such_field } }", "{ get_hadith(hadith_id: "],
    ids=["invalid", "unparsable"],
)
async def test_a_document_that_does_not_validate_is_not_registered(
    client: httpx.AsyncClient, statements: list[str], text: str
) -> None:
    hash_ = _hash(text)
    refused = await _send(client, text, hash_, headers=MODERN)
    assert refused.status_code == 400
    assert _error(refused)[0] == "QUERY_REJECTED"
    assert _error(await _send(client, None, hash_)) == NOT_FOUND
    assert statements == []


async def test_a_document_over_the_limits_is_refused_and_not_registered(
    imported: ImportReport, database_url: str
) -> None:
    async with serving(api_settings(database_url, max_cost=0), database_url) as served:
        text = _document("costly")
        refused = await _send(served.client, text, _hash(text))
        code, message = _error(refused)
        assert (code, message.startswith("Query too costly")) == ("QUERY_REJECTED", True)
        assert _error(await _send(served.client, None, _hash(text))) == NOT_FOUND
        assert served.statements == []


async def test_the_least_recently_used_document_is_forgotten_first(imported: ImportReport, database_url: str) -> None:
    async with serving(api_settings(database_url, apq_cache_size=2), database_url) as served:
        http = served.client
        texts = {alias: _document(alias) for alias in ("first", "second", "third")}
        for alias in ("first", "second"):
            assert "errors" not in (await _send(http, texts[alias], _hash(texts[alias]))).json()
        assert "errors" not in (await _send(http, None, _hash(texts["first"]))).json()  # now the most recent
        assert "errors" not in (await _send(http, texts["third"], _hash(texts["third"]))).json()

        assert _error(await _send(http, None, _hash(texts["second"]))) == NOT_FOUND
        for alias in ("first", "third"):
            hit = (await _send(http, None, _hash(texts[alias]))).json()
            assert hit["data"] == {alias: {"hadith_id": 100001}}


async def test_a_persisted_only_client_registers_nothing_and_finds_only_the_manifest(
    imported: ImportReport, database_url: str
) -> None:
    settings = api_settings(database_url, api_keys="gateway:persisted:s3cret,web:free:w3b")
    async with serving(settings, database_url) as served:
        http, gateway, web = served.client, {"x-api-key": "s3cret"}, {"x-api-key": "w3b"}
        text = _document("gateway")
        refused = await _send(http, text, _hash(text), headers=gateway)
        assert _error(refused) == ("QUERY_REJECTED", "This client may send persisted documents only.")
        assert served.statements == []

        assert "errors" not in (await _send(http, text, _hash(text), headers=web)).json()
        assert _error(await _send(http, None, _hash(text), headers=gateway)) == NOT_FOUND
        assert (await _send(http, None, _hash(text), headers=web)).json()["data"] == {"gateway": {"hadith_id": 100001}}

        body = {"extensions": _apq(_ids()["get_hadith"]), "variables": {"hadith_id": 100001}}
        accepted = (await http.post("/graphql", json=body, headers=gateway)).json()
        assert accepted["data"]["get_hadith"]["hadith_id"] == 100001
