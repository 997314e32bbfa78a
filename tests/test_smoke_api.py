"""Each of the eight tools answers through the ASGI app over the imported subset."""

import httpx
import pytest

from tests.graphql_client import call_tool

CALLS: dict[str, dict[str, object]] = {
    "search_hadith": {"query": "bukhari:1"},
    "get_hadith": {"hadith_id": 100001},
    "get_hadith_chains": {"hadith_id": 100001},
    "search_narrator": {"query": "Abu Hurairah"},
    "get_narrator_profile": {"narrator_id": 11062},
    "get_narrator_hadiths": {"narrator_id": 11062},
    "get_transmission_relation": {"narrator_a_id": 11042, "narrator_b_id": 11213},
    "get_hadith_commentary": {"hadith_id": 100001},
}


@pytest.mark.parametrize("tool", sorted(CALLS))
async def test_every_tool_answers(client: httpx.AsyncClient, tool: str) -> None:
    body = await call_tool(client, tool, **CALLS[tool])
    assert "errors" not in body, body
    assert body["data"][tool] is not None
