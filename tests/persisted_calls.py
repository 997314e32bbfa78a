"""What the tests of persisted documents and automatic persisted queries share: one call of each tool, the
manifest's ids, the APQ extension of a hash, and the code and message of an error answer."""

import json
from typing import Any

import httpx

from tests.graphql_client import PERSISTED

CALLS: dict[str, dict[str, Any]] = {
    "search_hadith": {"query": "bukhari:1", "limit": 3},
    "get_hadith": {"hadith_id": 100001},
    "get_hadith_chains": {"hadith_id": 100001, "limit": 2},
    "search_narrator": {"query": "Abu Hurairah", "limit": 3},
    "get_narrator_profile": {"narrator_id": 11062, "entry_limit": 3},
    "get_narrator_hadiths": {"narrator_id": 11062, "page": 1, "limit": 3},
    "get_transmission_relation": {"narrator_a_id": 11042, "narrator_b_id": 11213, "limit": 3},
    "get_hadith_commentary": {"hadith_id": 500001, "limit": 2},
}


def _manifest() -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((PERSISTED / "manifest.json").read_text(encoding="utf-8"))
    return manifest


def _ids() -> dict[str, str]:
    return {operation["name"]: operation["id"] for operation in _manifest()["operations"]}


def _apq(hash_: str) -> dict[str, Any]:
    return {"persistedQuery": {"version": 1, "sha256Hash": hash_}}


def _error(response: httpx.Response) -> tuple[str, str]:
    body = response.json()
    assert "data" not in body or body["data"] is None
    (error,) = body["errors"]
    return error["extensions"]["code"], error["message"]
