"""Apollo Client 3 and urql 6, with their own persisted query links, against the API as `serve` serves it.

Each client sends a free document through automatic persisted queries twice (the miss, the
registration, then a hit by hash alone) and the eight tools by their manifest ids.
`tests/js/apq/run.mjs` drives them; `.ci/run` installs their pinned packages into
`tests/js/apq/node_modules` (`npm ci --prefix tests/js/apq`). Without node or those packages the
tests skip, but under CI (`CI=true`) they fail.
"""

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA
from tests.graphql_client import PERSISTED
from tests.live_server import api_serving
from tests.persisted_calls import CALLS, _apq, _ids

JS = Path(__file__).resolve().parent.parent / "js" / "apq"
FREE_DOCUMENT = "query Opening($id: Int! = 100001) { get_hadith(hadith_id: $id) { hadith_id canonical_reference } }"
CLIENT_SECONDS = 60


@pytest.fixture(scope="module")
def node() -> str:
    """The node that runs the clients, or a skip (a failure under CI) saying what is missing."""
    found = shutil.which("node")
    missing = "node" if found is None else None
    if found is not None and not (JS / "node_modules" / "@apollo" / "client").is_dir():
        missing = "the client packages (npm ci --omit=peer --prefix tests/js/apq)"
    if missing is None and found is not None:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must install {missing} for the real-client tests")
    pytest.skip(f"{missing} not installed")


@pytest.fixture(scope="module")
def api_url(imported: ImportReport, database_url: str) -> Iterator[str]:
    """The API as `serve` serves it, on a free loopback port, over the imported subset."""
    with api_serving(database_url, LIVE_SCHEMA) as base:
        yield f"{base}/graphql"


def _drive(node: str, kind: str, url: str) -> dict[str, Any]:
    manifest = json.loads((PERSISTED / "manifest.json").read_text(encoding="utf-8"))
    plan = {"free": FREE_DOCUMENT, "manifest": manifest, "tools": CALLS}
    done = subprocess.run(  # noqa: S603 - node and our own script
        [node, str(JS / "run.mjs"), kind, url],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
        timeout=CLIENT_SECONDS,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.fixture(scope="module", params=["apollo", "urql"])
def report(request: pytest.FixtureRequest, node: str, api_url: str) -> dict[str, Any]:
    kind: str = request.param
    return _drive(node, kind, api_url)


def _sent(exchanges: list[dict[str, Any]]) -> list[tuple[bool, bool, list[str]]]:
    """Each exchange as (text sent, hash sent, error codes)."""
    return [(e["query"], e["hash"] is not None, e["codes"]) for e in exchanges]


def test_a_free_document_misses_registers_then_hits_by_hash_alone(report: dict[str, Any]) -> None:
    first, second = report["free"]
    miss, registration = first["exchanges"]
    (hit,) = second["exchanges"]
    assert _sent([miss, registration, hit]) == [
        (False, True, ["PERSISTED_QUERY_NOT_FOUND"]),
        (True, True, []),
        (False, True, []),
    ]
    assert (registration["status"], hit["status"]) == (200, 200)
    assert len({miss["hash"], registration["hash"], hit["hash"]}) == 1
    for answer in (first, second):
        assert answer["errors"] is None
        assert answer["data"]["get_hadith"]["hadith_id"] == 100001
        assert answer["data"]["get_hadith"]["canonical_reference"] == "bukhari:1"


@pytest.mark.parametrize("tool", sorted(CALLS))
async def test_every_tool_runs_by_its_manifest_id_alone(
    report: dict[str, Any], client: httpx.AsyncClient, tool: str
) -> None:
    answer = report["tools"][tool]
    assert [(e["query"], e["hash"], e["status"], e["codes"]) for e in answer["exchanges"]] == [
        (False, _ids()[tool], 200, [])
    ]
    expected = await client.post("/graphql", json={"extensions": _apq(_ids()[tool]), "variables": CALLS[tool]})
    assert answer["errors"] is None
    assert answer["data"] == expected.json()["data"]
