"""The API says which data it serves: the manifest's sha256 and the import run (its content checksum, when it
finished), in /readyz and in the `extensions` of every GraphQL answer, refused requests included."""

from pathlib import Path

import asyncpg
import httpx

from ingest.manifest import manifest_for
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA


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
