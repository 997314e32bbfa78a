"""A document that asks a narrator tool several times (aliases, other limits, the same narrator twice) is
answered in one statement, and each answer is the one that tool gives when asked alone."""

from typing import Any

import httpx
import pytest

from tests.graphql_client import data_of, execute

SELECTIONS = {
    "get_narrator_profile": "narrator_id identity { variants } legacy_scholarly_data { field value }"
    " source_entries { entry_id resolution_status } canonical_assertions { field value } truncated capability_note",
    "get_narrator_hadiths": "narrator_id occurrence_count distinct_hadith_count page"
    " items { chain_id node_id position } truncated",
    "get_transmission_relation": "narrator_a_id narrator_b_id relations { teacher_id student_id relation_status }"
    " chain_observations { chain_id upper_node_id lower_node_id } evidence_status truncated capability_note",
}
BATCHES: dict[str, list[dict[str, Any]]] = {
    "get_narrator_profile": [
        {"narrator_id": 11062, "entry_limit": 1},
        {"narrator_id": 11062, "entry_limit": 20},
        {"narrator_id": 13},
        {"narrator_id": 3, "entry_limit": 2},
    ],
    "get_narrator_hadiths": [
        {"narrator_id": 13, "limit": 1},
        {"narrator_id": 13, "page": 2, "limit": 3},
        {"narrator_id": 13, "page": 9, "limit": 50},
        {"narrator_id": 11062, "limit": 50},
    ],
    "get_transmission_relation": [
        {"narrator_a_id": 11421, "narrator_b_id": 4, "limit": 1},
        {"narrator_a_id": 11421, "narrator_b_id": 4, "include_chain_observations": False},
        {"narrator_a_id": 4, "narrator_b_id": 11421, "limit": 20},
        {"narrator_a_id": 11042, "narrator_b_id": 3},
    ],
}


def _document(tool: str, calls: list[dict[str, Any]]) -> str:
    """One aliased root field per call: `a0`, `a1` ..."""
    fields = []
    for n, arguments in enumerate(calls):
        listed = ", ".join(f"{name}: {str(value).lower()}" for name, value in arguments.items())
        fields.append(f"a{n}: {tool}({listed}) {{ {SELECTIONS[tool]} }}")
    return "query { " + " ".join(fields) + " }"


@pytest.mark.parametrize("tool", sorted(BATCHES))
async def test_aliases_of_a_narrator_tool_are_one_statement_each_answered_as_alone(
    client: httpx.AsyncClient, statements: list[str], tool: str
) -> None:
    calls = BATCHES[tool]
    alone = [data_of(await execute(client, _document(tool, [arguments])), "a0") for arguments in calls]

    await execute(client, _document(tool, calls))
    statements.clear()
    body = await execute(client, _document(tool, calls))

    assert "errors" not in body, body["errors"]
    assert [body["data"][f"a{n}"] for n in range(len(calls))] == alone
    assert len(statements) == 1
