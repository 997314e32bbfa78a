"""The API says which data it serves: the manifest's sha256 and the import run (its content checksum, when it
finished), in /readyz and in the `extensions` of every GraphQL answer, refused requests included. It serves only an
import of its own schema and normalizer versions."""

from pathlib import Path

import asyncpg
import httpx
import pytest

from app.data.data_version import READ
from app.schema_version import SCHEMA_VERSION
from app.text.arabic import NORMALIZER_VERSION
from ingest.manifest import manifest_for
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, api_settings, serving
from tests.graphql_client import SAMPLE_CALLS, call_tool, tool_document
from tests.live_views import imported_as, swap_in_live_import

OTHER_IMPORT = "isnad_other_import"  # the live data, recorded as an import of other versions
UPSTREAM = {"code": "UPSTREAM_UNAVAILABLE", "alias": "upstream_unavailable"}


async def _expected(imported: ImportReport, subset_dir: Path, database_url: str) -> dict[str, object]:
    conn = await asyncpg.connect(database_url)
    try:
        finished = await conn.fetchval(f"SELECT finished_at FROM {LIVE_SCHEMA}.import_run")
    finally:
        await conn.close()
    return {
        "manifest_sha256": manifest_for(subset_dir).sha256,
        "content_checksum": imported.content_checksum,
        "imported_at": finished.isoformat(timespec="seconds").replace("+00:00", "Z"),
    }


async def test_readyz_reports_the_data_version(
    client: httpx.AsyncClient, imported: ImportReport, subset_dir: Path, database_url: str
) -> None:
    body = (await client.get("/readyz")).json()

    assert body["status"] == "ready"
    assert body["data_version"].items() >= (await _expected(imported, subset_dir, database_url)).items()


async def test_every_graphql_answer_carries_the_data_version(
    client: httpx.AsyncClient, imported: ImportReport, subset_dir: Path, database_url: str
) -> None:
    expected = await _expected(imported, subset_dir, database_url)
    assert (await client.get("/readyz")).status_code == 200  # the tests' app runs no lifespan: the probe reads it
    answered = (await client.post("/graphql", json={"query": "{ __typename }"})).json()
    refused = (await client.post("/graphql", json={"query": "{ nothing_here }"})).json()

    assert answered["data"] == {"__typename": "Query"}
    assert refused["errors"]
    for body in (answered, refused):
        assert body["extensions"]["data_version"].items() >= expected.items()


@pytest.mark.parametrize(
    "versions",
    [(SCHEMA_VERSION - 1, NORMALIZER_VERSION), (SCHEMA_VERSION, NORMALIZER_VERSION - 1)],
    ids=["an older schema", "another normalizer"],
)
async def test_an_import_of_other_versions_is_refused_before_any_statement_till_one_of_these_is_swapped_in(
    imported: ImportReport, database_url: str, versions: tuple[int, int]
) -> None:
    refused, ready, answered = await _refused_then_served(database_url, versions)

    assert (ready.status_code, ready.json()["status"]) == (503, "unreadable data")
    assert ready.json()["reads"] == READ
    found = ready.json()["data_version"]
    assert (found["schema_version"], found["normalizer_version"]) == versions
    assert f"an import of schema version {versions[0]} and normalizer version {versions[1]}" in refused
    assert answered


async def test_a_database_with_no_import_is_refused_before_any_statement_till_one_is_swapped_in(
    imported: ImportReport, database_url: str
) -> None:
    refused, ready, answered = await _refused_then_served(database_url, None)

    assert (ready.status_code, ready.json()) == (503, ready.json() | {"status": "no import", "reads": READ})
    assert "holds no import" in refused
    assert answered


async def _refused_then_served(database_url: str, versions: tuple[int, int] | None) -> tuple[str, httpx.Response, bool]:
    """Served from the live data recorded as an import of `versions` (None: no import): /readyz, and a tool's call
    over GraphQL and over /tools, each refused with UPSTREAM_UNAVAILABLE and no statement; then, once the live import
    is swapped in, /readyz and the call answer. The refusal's message, the first /readyz, whether the call was
    answered."""
    call = SAMPLE_CALLS["get_hadith"]
    settings = api_settings(database_url, db_schema=OTHER_IMPORT)
    async with imported_as(database_url, OTHER_IMPORT, versions) as conn, serving(settings, database_url) as served:
        ready = await served.client.get("/readyz")
        served.statements.clear()
        graphql = await served.client.post("/graphql", json={"query": tool_document("get_hadith"), "variables": call})
        tool = await served.client.post("/tools/get_hadith", json=call)
        statements = list(served.statements)
        await swap_in_live_import(conn, OTHER_IMPORT)
        ready_again = await served.client.get("/readyz")
        answered = await call_tool(served.client, "get_hadith", **call)

    (error,) = graphql.json()["errors"]
    assert (graphql.status_code, error["extensions"]) == (503, UPSTREAM)
    assert "data" not in graphql.json()
    assert (tool.status_code, tool.json()["error"]) == (503, tool.json()["error"] | {"code": UPSTREAM["code"]})
    assert tool.json()["error"]["message"] == error["message"]
    assert statements == []
    assert (ready_again.status_code, ready_again.json()["status"]) == (200, "ready")
    return error["message"], ready, answered["data"]["get_hadith"]["hadith_id"] == call["hadith_id"]
