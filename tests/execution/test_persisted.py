"""Persisted documents: the Apollo manifest, the three ways to send one, and the profiles that require them.

A persisted document is found by Apollo's `extensions.persistedQuery.sha256Hash` (POST or GET) or by
the GraphQL-over-HTTP `documentId: "sha256:<hex>"` (POST or GET). Registering documents on the fly
(automatic persisted queries) is tested in test_apq.py.
"""

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

import app.execution.persisted
import cli
from ingest.run import ImportReport
from schema.contract import TOOLS
from tests.conftest import api_settings, serving
from tests.graphql_client import PERSISTED, WEB_PAGES, tool_document, web_document
from tests.persisted_calls import CALLS, _apq, _error, _ids, _manifest

FREE_DOCUMENT = "{ get_hadith(hadith_id: 100001) { hadith_id } }"
UNKNOWN_HASH = "0" * 64


# --- the manifest ---------------------------------------------------------------------------------------


def test_the_manifest_is_an_apollo_manifest_of_the_eight_tools_and_the_web_pages() -> None:
    manifest = _manifest()
    assert (manifest["format"], manifest["version"]) == ("apollo-persisted-query-manifest", 1)
    operations = manifest["operations"]
    assert [op["name"] for op in operations] == [*sorted(TOOLS), *WEB_PAGES]
    for op in operations:
        assert set(op) == {"id", "name", "type", "body"}
        assert op["type"] == "query"
        assert op["body"].startswith(f"query {op['name']}(")


def test_each_manifest_id_is_the_sha256_of_its_body() -> None:
    for op in _manifest()["operations"]:
        assert op["id"] == hashlib.sha256(op["body"].encode("utf-8")).hexdigest()
        document = web_document if op["name"] in WEB_PAGES else tool_document
        assert op["body"] == document(op["name"])


def test_the_manifest_is_up_to_date_with_the_documents() -> None:
    assert cli.main(["persisted-manifest", "--check"]) == 0


def test_the_manifest_check_fails_on_a_changed_document_until_regenerated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "persisted"
    shutil.copytree(PERSISTED, folder)
    monkeypatch.setattr(app.execution.persisted, "DEFAULT_DIR", folder)
    document = folder / "get_hadith.graphql"
    document.write_text(document.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")

    assert cli.main(["persisted-manifest", "--check"]) == 1
    assert "out of date" in capsys.readouterr().out
    assert cli.main(["persisted-manifest"]) == 0
    assert cli.main(["persisted-manifest", "--check"]) == 0
    ids = {op.name: op.id for op in app.execution.persisted.load_manifest(folder).values()}
    assert ids["get_hadith"] == hashlib.sha256(document.read_bytes()).hexdigest()
    assert ids["get_hadith"] != _ids()["get_hadith"]


# --- the three persisted forms ------------------------------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
async def test_every_persisted_form_gives_the_data_of_the_full_text_document(
    client: httpx.AsyncClient, tool: str
) -> None:
    variables = CALLS[tool]
    full = (await client.post("/graphql", json={"query": tool_document(tool), "variables": variables})).json()
    assert "errors" not in full, full["errors"]
    hash_ = _ids()[tool]
    as_params = {"variables": json.dumps(variables)}
    responses = {
        "apq-post": await client.post("/graphql", json={"extensions": _apq(hash_), "variables": variables}),
        "apq-get": await client.get("/graphql", params={**as_params, "extensions": json.dumps(_apq(hash_))}),
        "document-id-post": await client.post(
            "/graphql", json={"documentId": f"sha256:{hash_}", "variables": variables}
        ),
        "document-id-get": await client.get("/graphql", params={**as_params, "documentId": f"sha256:{hash_}"}),
    }
    assert {form: r.status_code for form, r in responses.items()} == dict.fromkeys(responses, 200)
    assert {form: r.json()["data"] for form, r in responses.items()} == dict.fromkeys(responses, full["data"])


UNKNOWN_FORMS: dict[str, dict[str, Any]] = {
    "apq-post": {"method": "POST", "json": {"extensions": _apq(UNKNOWN_HASH)}},
    "apq-get": {"method": "GET", "params": {"extensions": json.dumps(_apq(UNKNOWN_HASH))}},
    "apq-without-hash": {"method": "POST", "json": {"extensions": {"persistedQuery": {"version": 1}}}},
    "document-id-post": {"method": "POST", "json": {"documentId": f"sha256:{UNKNOWN_HASH}"}},
    "document-id-get": {"method": "GET", "params": {"documentId": f"sha256:{UNKNOWN_HASH}"}},
    "document-id-without-prefix": {"method": "POST", "json": {"documentId": UNKNOWN_HASH}},
}


@pytest.mark.parametrize("form", sorted(UNKNOWN_FORMS))
async def test_an_unknown_persisted_id_is_not_found_without_sql(
    client: httpx.AsyncClient, statements: list[str], form: str
) -> None:
    response = await client.request(url="/graphql", **UNKNOWN_FORMS[form])
    assert _error(response) == ("PERSISTED_QUERY_NOT_FOUND", "PersistedQueryNotFound")
    assert statements == []


# --- cache headers --------------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["extensions", "documentId"])
async def test_a_persisted_get_is_cacheable(client: httpx.AsyncClient, form: str) -> None:
    hash_ = _ids()["get_hadith"]
    found = json.dumps(_apq(hash_)) if form == "extensions" else f"sha256:{hash_}"
    response = await client.get("/graphql", params={form: found, "variables": json.dumps({"hadith_id": 100001})})
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=300"
    assert {part.strip().lower() for part in response.headers["vary"].split(",")} >= {"accept", "x-api-key"}


async def test_a_free_get_is_not_cacheable(client: httpx.AsyncClient) -> None:
    response = await client.get("/graphql", params={"query": FREE_DOCUMENT})
    assert response.json()["data"] == {"get_hadith": {"hadith_id": 100001}}
    assert "cache-control" not in response.headers


async def test_a_persisted_post_is_not_cacheable(client: httpx.AsyncClient) -> None:
    body = {"documentId": f"sha256:{_ids()['get_hadith']}", "variables": {"hadith_id": 100001}}
    response = await client.post("/graphql", json=body)
    assert response.json()["data"]["get_hadith"]["hadith_id"] == 100001
    assert "cache-control" not in response.headers


async def test_a_persisted_get_that_errs_is_not_cacheable(client: httpx.AsyncClient) -> None:
    params = {"documentId": f"sha256:{_ids()['get_hadith']}", "variables": json.dumps({"hadith_id": 999999999})}
    response = await client.get("/graphql", params=params)
    assert response.json()["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert "cache-control" not in response.headers


# --- client profiles ------------------------------------------------------------------------------------


async def test_a_persisted_only_key_refuses_a_free_document_and_accepts_a_persisted_one(
    imported: ImportReport, database_url: str
) -> None:
    async with serving(api_settings(database_url, api_keys="gateway:persisted:s3cret"), database_url) as served:
        http, seen = served.client, served.statements
        key = {"x-api-key": "s3cret"}
        refused = await http.post("/graphql", json={"query": FREE_DOCUMENT}, headers=key)
        assert _error(refused)[0] == "QUERY_REJECTED"
        refused_get = await http.get("/graphql", params={"query": FREE_DOCUMENT}, headers=key)
        assert _error(refused_get)[0] == "QUERY_REJECTED"
        assert seen == []

        body = {"extensions": _apq(_ids()["get_hadith"]), "variables": {"hadith_id": 100001}}
        accepted = (await http.post("/graphql", json=body, headers=key)).json()
        assert "errors" not in accepted
        assert accepted["data"]["get_hadith"]["canonical_reference"] == "bukhari:1"


async def test_without_a_key_the_default_profile_may_send_free_documents(
    imported: ImportReport, database_url: str
) -> None:
    async with serving(api_settings(database_url, api_keys="gateway:persisted:s3cret"), database_url) as served:
        http = served.client
        body = (await http.post("/graphql", json={"query": FREE_DOCUMENT})).json()
        assert body["data"] == {"get_hadith": {"hadith_id": 100001}}


@pytest.mark.parametrize("persisted", [False, True])
async def test_an_unknown_key_is_refused_without_sql(
    client: httpx.AsyncClient, statements: list[str], persisted: bool
) -> None:
    payload: dict[str, Any] = {"variables": {"hadith_id": 100001}}
    payload |= {"extensions": _apq(_ids()["get_hadith"])} if persisted else {"query": FREE_DOCUMENT}
    response = await client.post("/graphql", json=payload, headers={"x-api-key": "not-a-key"})
    assert _error(response) == ("QUERY_REJECTED", "Unknown API key.")
    assert statements == []


async def test_the_default_profile_can_be_persisted_only(imported: ImportReport, database_url: str) -> None:
    async with serving(api_settings(database_url, default_client_mode="persisted"), database_url) as served:
        http, seen = served.client, served.statements
        refused = await http.post("/graphql", json={"query": FREE_DOCUMENT})
        assert _error(refused)[0] == "QUERY_REJECTED"
        assert seen == []

        params = {"documentId": f"sha256:{_ids()['get_hadith']}", "variables": json.dumps({"hadith_id": 100001})}
        accepted = (await http.get("/graphql", params=params)).json()
        assert accepted["data"]["get_hadith"]["hadith_id"] == 100001
