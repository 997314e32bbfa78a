"""The number of SQL statements of a request depends on the shape of the document, never on the size of
its lists: each level of the graph is one batched statement, whatever the number of objects at that level."""

from typing import Any

import httpx
import pytest

from ingest.run import ImportReport
from tests.graphql_client import call_tool, data_of, execute, rows

NAVIGATE_CHAIN = "chains(limit: 1) { chains { nodes { narrator { hadiths(limit: 3) { items { hadith_id } } } } } }"
SEARCH_HITS = (
    'query ($limit: Int) { search_hadith(query: "حدثنا", limit: $limit) { results { hadith { '
    + NAVIGATE_CHAIN
    + " } } } }"
)
CHAINS = """query ($limit: Int) { get_hadith_chains(hadith_id: 600022, limit: $limit) {
    chains { nodes { narrator { narrator_id hadiths(limit: 3) { items { hadith_id } } } } } } }"""
OCCURRENCES = """query ($limit: Int) { get_narrator_hadiths(narrator_id: 13, limit: $limit) {
    items { hadith { hadith_id chains(limit: 1) { chains { nodes { narrator { narrator_id } } } } } } } }"""
NARRATOR_HITS = """query ($limit: Int) { search_narrator(query: "عبد الله", limit: $limit) {
    results { narrator { hadiths(limit: 3) { items { hadith_id chains(limit: 1) { chains { chain_id } } } } } } } }"""
NAME_SEARCH_STATEMENTS = 1  # search_narrator runs its match tiers (exact ... fuzzy) in one statement
OBSERVATIONS = """query ($limit: Int) {
  get_transmission_relation(narrator_a_id: 11421, narrator_b_id: 4, limit: $limit) {
    chain_observations { hadith { chains(limit: 1) { chains { nodes { narrator { narrator_id } } } } } } } }"""
ROOT_CHAINS = (
    "h%d: get_hadith_chains(hadith_id: %d, limit: 2)"
    " { chains { nodes { narrator { hadiths(limit: 2) { items { hadith_id } } } } } }"
)
BUKHARI = (100001, 100002, 100003, 100004, 100005)
TEACHING = (
    "n%d: get_narrator_profile(narrator_id: %d) { teachers(limit: 10) { count items { teacher { narrator_id } } }"
    " students(limit: 10) { count items { student { narrator_id } } } }"
)
TWENTY_TEACHERS = (  # twenty narrators with teachers and students recorded
    "SELECT teacher_id AS id FROM transmission_relation INTERSECT SELECT student_id FROM transmission_relation"
    " ORDER BY 1 LIMIT 20"
)


async def _run(
    client: httpx.AsyncClient, statements: list[str], document: str, **variables: Any
) -> tuple[int, dict[str, Any]]:
    """The statements of one request, after an identical request has warmed what is read once per process
    (the source catalog)."""
    await execute(client, document, **variables)
    statements.clear()
    body = await execute(client, document, **variables)
    assert "errors" not in body, body["errors"]
    data: dict[str, Any] = body["data"]
    return len(statements), data


def _narrators(value: Any) -> int:
    """How many narrator objects a response holds (to be sure the deep levels were reached)."""
    if isinstance(value, list):
        return sum(_narrators(item) for item in value)
    if isinstance(value, dict):
        return sum(1 if key == "narrator" and item else _narrators(item) for key, item in value.items())
    return 0


async def test_search_hits_navigating_to_narrators_hadiths_cost_the_same_for_1_or_10_hits(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    one, small = await _run(client, statements, SEARCH_HITS, limit=1)
    ten, large = await _run(client, statements, SEARCH_HITS, limit=10)

    assert (len(small["search_hadith"]["results"]), len(large["search_hadith"]["results"])) == (1, 10)
    assert 0 < _narrators(small) < _narrators(large)
    assert one == ten


async def test_one_or_two_chains_of_a_hadith_cost_the_same(client: httpx.AsyncClient, statements: list[str]) -> None:
    one, small = await _run(client, statements, CHAINS, limit=1)
    two, large = await _run(client, statements, CHAINS, limit=2)

    assert (len(small["get_hadith_chains"]["chains"]), len(large["get_hadith_chains"]["chains"])) == (1, 2)
    assert one == two


async def test_one_or_five_hadith_chains_asked_at_the_root_cost_the_same(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    def document(ids: tuple[int, ...]) -> str:
        return "query { " + " ".join(ROOT_CHAINS % (hadith, hadith) for hadith in ids) + " }"

    one, small = await _run(client, statements, document(BUKHARI[:1]))
    five, large = await _run(client, statements, document(BUKHARI))

    assert 0 < _narrators(small) < _narrators(large)
    assert one == five


async def test_a_page_of_1_or_50_occurrences_costs_the_same(client: httpx.AsyncClient, statements: list[str]) -> None:
    one, small = await _run(client, statements, OCCURRENCES, limit=1)
    fifty, large = await _run(client, statements, OCCURRENCES, limit=50)

    assert (len(small["get_narrator_hadiths"]["items"]), len(large["get_narrator_hadiths"]["items"])) == (1, 44)
    assert _narrators(small) < _narrators(large)
    assert one == fifty


async def test_narrator_hits_navigating_to_their_hadiths_cost_the_same_for_1_or_20_hits(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    _, small = await _run(client, statements, NARRATOR_HITS, limit=1)
    tiers_one = [s for s in statements if "narrator_search_form" in s]
    navigation_one = len(statements) - len(tiers_one)
    _, large = await _run(client, statements, NARRATOR_HITS, limit=20)
    tiers_twenty = [s for s in statements if "narrator_search_form" in s]
    navigation_twenty = len(statements) - len(tiers_twenty)

    assert (len(small["search_narrator"]["results"]), len(large["search_narrator"]["results"])) == (1, 20)
    assert len(tiers_one) == len(tiers_twenty) == NAME_SEARCH_STATEMENTS
    assert navigation_one == navigation_twenty


async def test_chain_observations_navigating_to_hadith_cost_the_same_for_1_or_all(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    one, small = await _run(client, statements, OBSERVATIONS, limit=1)
    all_, large = await _run(client, statements, OBSERVATIONS, limit=20)

    observations = large["get_transmission_relation"]["chain_observations"]
    assert len(small["get_transmission_relation"]["chain_observations"]) == 1
    assert len(observations) > 1
    assert 0 < _narrators(small) < _narrators(large)
    assert one == all_


async def test_the_teachers_and_students_of_1_or_20_narrators_cost_the_same(
    client: httpx.AsyncClient, statements: list[str], imported: ImportReport, database_url: str
) -> None:
    ids = [row["id"] for row in await rows(database_url, TWENTY_TEACHERS)]

    def document(narrators: list[int]) -> str:
        return "query { " + " ".join(TEACHING % (narrator, narrator) for narrator in narrators) + " }"

    one, small = await _run(client, statements, document(ids[:1]))
    twenty, large = await _run(client, statements, document(ids))
    relations = [statement for statement in statements if "transmission_relation" in statement]

    def reached(data: dict[str, Any]) -> int:
        return sum(len(profile[side]["items"]) for profile in data.values() for side in ("teachers", "students"))

    assert len(ids) == 20 and 0 < reached(small) < reached(large)
    assert one == twenty == 4  # the profiles, their teachers, their students, the narrators they reach
    assert len(relations) == 2


# A tool call reads each kind of record once, with its smallest and its largest list alike.
TOOL_CALLS: dict[str, tuple[dict[str, Any], str, int, int]] = {
    # tool: (arguments, limit argument, its hard max, statements)
    "get_hadith_chains": ({"hadith_id": 600022}, "limit", 20, 1),  # the hadith, its chains and their nodes
    "get_narrator_profile": ({"narrator_id": 11062}, "entry_limit", 20, 1),  # the narrator and its lists
    "get_narrator_hadiths": ({"narrator_id": 13}, "limit", 50, 1),  # the narrator, its counts and its page
    "get_transmission_relation": ({"narrator_a_id": 11421, "narrator_b_id": 4}, "limit", 20, 1),  # the pair
    "get_hadith_commentary": ({"hadith_id": 500002}, "limit", 20, 1),  # the hadith with its passages
}


@pytest.mark.parametrize("tool", sorted(TOOL_CALLS))
async def test_a_tool_call_reads_each_kind_of_record_once_whatever_its_limit(
    client: httpx.AsyncClient, statements: list[str], tool: str
) -> None:
    arguments, limit, maximum, expected = TOOL_CALLS[tool]

    smallest, _ = await _tool(client, statements, tool, **arguments, **{limit: 1})
    largest, _ = await _tool(client, statements, tool, **arguments, **{limit: maximum})

    assert (smallest, largest) == (expected, expected)


async def test_get_hadith_is_one_statement(client: httpx.AsyncClient, statements: list[str]) -> None:
    count, _ = await _tool(client, statements, "get_hadith", hadith_id=100001)

    assert count == 1


async def _tool(client: httpx.AsyncClient, statements: list[str], tool: str, **arguments: Any) -> tuple[int, Any]:
    """The statements of one call of a tool's persisted document, warmed like `_run`."""
    await call_tool(client, tool, **arguments)
    statements.clear()
    data = data_of(await call_tool(client, tool, **arguments), tool)
    return len(statements), data
