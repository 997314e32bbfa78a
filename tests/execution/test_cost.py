"""The cost of a document, checked before any SQL: list limits, node count, cost, depth, aliases, fragments, tokens.

The figures of `app.execution.cost.MeasureCache` follow the rules of the `app.execution.cost` docstring: a list
counts its size in nodes (times the sizes of the lists above it), an object costs 1 per instance, a scalar 0, and a
field that reads the database adds its weight per call (`app.execution.cost.WEIGHTS`); a `limit` left out counts as
its default; a list no argument sizes counts its fixed size (10 for provenance).
"""

import json
import re
from typing import Any

import httpx
import pytest

from app.errors import ApiError, InvalidInput, LimitExceeded, QueryRejected
from app.execution.cost import WEIGHTS, CostLimits, Measure, MeasureCache, check
from schema.contract import TOOLS
from tests.cost_measure import SCHEMA, measured
from tests.graphql_client import PERSISTED

SEARCH_HADITH = WEIGHTS["Query", "search_hadith"]
GET_HADITH = WEIGHTS["Query", "get_hadith"]
HIT_HADITH = WEIGHTS.get(("HadithHit", "hadith"), 0)
HADITH_CHAINS = WEIGHTS["Hadith", "chains"]
ALLOWED = CostLimits(max_nodes=2000, max_cost=2500, max_depth=12, max_aliases=30)
GRAPHQL_RESPONSE = "application/graphql-response+json"

SEARCH_WITH_LITERAL = 'query { search_hadith(query: "bukhari:1", limit: %s) { results { hadith_id } } }'
SEARCH_WITH_VARIABLE = (
    'query($limit: Int) { search_hadith(query: "bukhari:1", limit: $limit) { results { hadith_id } } }'
)
COST_BOMB = """{ search_hadith(query: "bukhari:1", limit: 20) { results { hadith {
  chains(limit: 20) { chains { nodes { narrator { hadiths(limit: 20) { items { hadith_id } } } } } } } } } }"""
# 16 levels deep, but 862 nodes: the depth is over, and the cost of its 841 navigations (below).
DEPTH_BOMB = """{ get_narrator_hadiths(narrator_id: 11062, limit: 1) { items { hadith { chains(limit: 1) { chains {
  nodes { narrator { hadiths(limit: 1) { items { chains(limit: 1) { chains { nodes { narrator {
  hadiths(limit: 1) { items { hadith_id } } } } } } } } } } } } } } } }"""
ALIAS_BOMB = "{ " + " ".join(f"a{i}: __typename" for i in range(31)) + " }"
FRAGMENT_CYCLE = """{ get_hadith(hadith_id: 100001) { ...A } }
fragment A on Hadith { ...B }
fragment B on Hadith { ...A }"""


def _amplified(base: str) -> str:
    """F1 selects `base`; each F(n) spreads F(n-1) twice, so F15 stands for 2**14 copies of `base`."""
    fragments = [f"fragment F1 on Hadith {{ {base} }}"]
    fragments += [f"fragment F{n} on Hadith {{ ...F{n - 1} ...F{n - 1} }}" for n in range(2, 16)]
    query = '{ search_hadith(query: "bukhari:1", limit: 20) { results { hadith { ...F15 } } } }'
    return "\n".join([query, *fragments])


AMPLIFIED_LISTS = _amplified("chains(limit: 20) { chains { chain_id } }")
AMPLIFIED_SCALARS = _amplified("hadith_id")


def test_a_kept_measure_follows_the_limit_values_it_read() -> None:
    cache = MeasureCache(SCHEMA)
    first = measured(SEARCH_WITH_VARIABLE, cache, limit=2)

    assert measured(SEARCH_WITH_VARIABLE, cache, limit=2) == first
    assert measured(SEARCH_WITH_VARIABLE, cache, limit=3).nodes > first.nodes
    assert measured(SEARCH_WITH_VARIABLE, cache, limit=2) == first
    for _ in range(2):  # a refused limit is never kept: refused every time
        with pytest.raises(LimitExceeded):
            measured(SEARCH_WITH_VARIABLE, cache, limit=21)


async def _post(client: httpx.AsyncClient, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    response = await client.post(
        "/graphql", json={"query": document, "variables": variables or {}}, headers={"accept": GRAPHQL_RESPONSE}
    )
    body: dict[str, Any] = response.json()
    return body


def _refusal(body: dict[str, Any]) -> tuple[str, str]:
    assert body.get("data") is None
    (error,) = body["errors"]
    return error["extensions"]["code"], error["message"]


# --- app.execution.cost's measure, by hand ---------------------------------------------------------------------------


def test_a_single_object_with_a_provenance_list() -> None:
    # get_hadith: an object (cost 1) and its lookup; provenance: a list of 10 objects (10 nodes, cost 10); scalars: 0.
    document = "{ get_hadith(hadith_id: 1) { hadith_id provenance { source_id } } }"
    assert measured(document) == Measure(nodes=10, cost=11 + GET_HADITH, depth=3, aliases=0)


def test_a_limit_sizes_the_list_and_multiplies_what_it_holds() -> None:
    # results: 3 nodes, cost 3; each result's provenance: 10 nodes, cost 10 -> 3 + 30 = 33; search_hadith: cost 1.
    document = (
        'query { search_hadith(query: "x", limit: 3) { results { hadith_id provenance { locator } } truncated } }'
    )
    assert measured(document) == Measure(nodes=33, cost=34 + SEARCH_HADITH, depth=4, aliases=0)


def test_a_limit_left_out_counts_as_its_default() -> None:
    document = 'query { search_hadith(query: "x") { results { hadith_id provenance { locator } } } }'
    assert measured(document) == Measure(nodes=5 + 50, cost=1 + 5 + 50 + SEARCH_HADITH, depth=4, aliases=0)


def test_a_limit_from_a_variable_counts_as_the_same_literal() -> None:
    assert measured(SEARCH_WITH_VARIABLE, limit=7) == measured(SEARCH_WITH_LITERAL % 7)
    assert measured(SEARCH_WITH_VARIABLE, limit=7) == Measure(nodes=7, cost=8 + SEARCH_HADITH, depth=3, aliases=0)


def test_nested_navigation_multiplies_every_level() -> None:
    # results 2; hadith 1 each; chains (the object) 1 each; chains (the list) 4 each; nodes 20 each.
    document = """{ search_hadith(query: "x", limit: 2) { results { hadith {
      chains(limit: 4) { chains { nodes { position } } } } } } }"""
    nodes = 2 + 2 * 4 + 2 * 4 * 20
    cost = 1 + 2 + 2 * (1 + 1 + 4 + 4 * 20) + SEARCH_HADITH + 2 * (HIT_HADITH + HADITH_CHAINS)
    assert measured(document) == Measure(nodes=nodes, cost=cost, depth=7, aliases=0)


def test_a_fragment_costs_what_its_selection_costs_inline() -> None:
    inline = '{ search_hadith(query: "x", limit: 2) { results { hadith_id provenance { locator } } } }'
    spread = """{ search_hadith(query: "x", limit: 2) { results { ...Hit } } }
    fragment Hit on HadithHit { hadith_id provenance { locator } }"""
    assert measured(spread) == measured(inline) == Measure(nodes=22, cost=23 + SEARCH_HADITH, depth=4, aliases=0)


def test_aliases_are_counted_wherever_they_are() -> None:
    document = "{ a: get_hadith(hadith_id: 1) { hadith_id } b: get_hadith(hadith_id: 2) { x: hadith_id } }"
    assert measured(document) == Measure(nodes=0, cost=2 + 2 * GET_HADITH, depth=2, aliases=3)


def test_the_fragment_amplification_is_measured_once_per_fragment() -> None:
    # F1 = chains object (1) and its statement + 20 chains: 20 nodes; F15 = 2**14 * F1, under 20 results.
    f1 = 21 + HADITH_CHAINS
    assert measured(AMPLIFIED_LISTS) == Measure(
        nodes=20 + 20 * 2**14 * 20, cost=1 + 20 + SEARCH_HADITH + 20 * (1 + HIT_HADITH + 2**14 * f1), depth=6, aliases=0
    )


def test_the_depth_bomb_is_within_the_node_maximum() -> None:
    # Objects 1725; calls: get_narrator_hadiths, item.hadith and Hadith.chains once, then 20 nodes' narrator,
    # hadiths and chains, then 400 nodes' narrator and hadiths.
    narrator, hadiths = WEIGHTS.get(("ChainNode", "narrator"), 0), WEIGHTS["NarratorSummary", "hadiths"]
    calls = WEIGHTS["Query", "get_narrator_hadiths"] + WEIGHTS.get(("NarratorHadithItem", "hadith"), 0) + HADITH_CHAINS
    calls += 20 * (narrator + hadiths + HADITH_CHAINS) + 400 * (narrator + hadiths)
    assert measured(DEPTH_BOMB) == Measure(nodes=862, cost=1725 + calls, depth=16, aliases=0)


@pytest.mark.parametrize(
    ("value", "error"), [(21, LimitExceeded), (0, InvalidInput), (-1, InvalidInput), ("5", InvalidInput)]
)
def test_a_bad_limit_raises_the_contract_error(value: object, error: type[ApiError]) -> None:
    with pytest.raises(error):
        measured(SEARCH_WITH_VARIABLE, limit=value)


def test_a_fragment_cycle_is_refused_instead_of_followed() -> None:
    with pytest.raises(QueryRejected, match="spreads itself"):
        measured(FRAGMENT_CYCLE)


def test_check_refuses_over_a_maximum_naming_both_figures() -> None:
    check(Measure(nodes=2000, cost=2500, depth=12, aliases=30), ALLOWED)
    with pytest.raises(QueryRejected) as refused:
        check(Measure(nodes=2001, cost=2400, depth=3, aliases=0), ALLOWED)
    assert "node count 2001 exceeds 2000" in refused.value.message
    assert "cost 2400" in refused.value.message
    assert "depth" not in refused.value.message


def test_a_variable_left_out_counts_as_its_default_value() -> None:
    document = 'query($limit: Int = 20) { search_hadith(query: "x", limit: $limit) { results { hadith_id } } }'
    assert measured(document) == measured(document, limit=20)


# --- over HTTP: refused before any SQL --------------------------------------------------------------------


@pytest.mark.parametrize("by", ["literal", "variable"])
async def test_a_limit_over_the_maximum_is_refused_before_any_sql(
    client: httpx.AsyncClient, statements: list[str], by: str
) -> None:
    body = await (
        _post(client, SEARCH_WITH_LITERAL % 21)
        if by == "literal"
        else _post(client, SEARCH_WITH_VARIABLE, {"limit": 21})
    )
    assert _refusal(body) == ("LIMIT_EXCEEDED", "limit must be at most 20.")
    assert body["errors"][0]["extensions"]["alias"] == "limit_exceeded"
    assert statements == []


@pytest.mark.parametrize("by", ["literal", "variable"])
async def test_a_limit_of_zero_is_invalid_before_any_sql(
    client: httpx.AsyncClient, statements: list[str], by: str
) -> None:
    body = await (
        _post(client, SEARCH_WITH_LITERAL % 0) if by == "literal" else _post(client, SEARCH_WITH_VARIABLE, {"limit": 0})
    )
    assert _refusal(body) == ("INVALID_INPUT", "limit must be at least 1.")
    assert statements == []


async def test_a_cost_bomb_is_refused_naming_node_count_and_cost(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    code, message = _refusal(await _post(client, COST_BOMB))
    assert code == "QUERY_REJECTED"
    assert "node count 168420 exceeds 2000" in message
    assert re.search(r"; cost \d+ exceeds 2500", message)
    assert statements == []


@pytest.mark.parametrize(
    ("document", "named"),
    [(DEPTH_BOMB, "depth 16 exceeds 12"), (ALIAS_BOMB, "aliases 31 exceeds 30"), (AMPLIFIED_LISTS, "node count")],
    ids=["depth", "aliases", "fragment-amplification"],
)
async def test_a_bomb_is_refused_before_any_sql(
    client: httpx.AsyncClient, statements: list[str], document: str, named: str
) -> None:
    code, message = _refusal(await _post(client, document))
    assert code == "QUERY_REJECTED"
    assert named in message
    assert statements == []


async def test_a_fragment_cycle_is_refused_before_any_sql(client: httpx.AsyncClient, statements: list[str]) -> None:
    code, message = _refusal(await _post(client, FRAGMENT_CYCLE))
    assert code == "QUERY_REJECTED"
    assert "'A'" in message
    assert statements == []


async def test_an_amplified_fragment_of_scalars_is_answered(client: httpx.AsyncClient) -> None:
    body = await _post(client, AMPLIFIED_SCALARS)
    assert "errors" not in body
    assert body["data"]["search_hadith"]["results"][0]["hadith"] == {"hadith_id": 100001}


async def test_a_document_over_max_tokens_is_refused_before_any_sql(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    code, message = _refusal(await _post(client, "{ " + "__typename " * 2001 + "}"))
    assert code == "QUERY_REJECTED"
    assert "more than 2000 tokens" in message
    assert statements == []


# --- extensions.cost --------------------------------------------------------------------------------------

RESPONSES = {
    "success": "{ get_hadith(hadith_id: 100001) { hadith_id } }",
    "syntax-error": "{ get_hadith(",
    "validation-error": "{ no_such_field }",
    "limit-exceeded": SEARCH_WITH_LITERAL % 21,
    "cost-refused": COST_BOMB,
}


@pytest.mark.parametrize("kind", sorted(RESPONSES))
async def test_every_response_carries_the_requested_and_maximum_cost(client: httpx.AsyncClient, kind: str) -> None:
    cost = (await _post(client, RESPONSES[kind]))["extensions"]["cost"]
    assert set(cost) == {"requested", "maximum"}
    assert cost["maximum"] == {"nodes": 2000, "cost": 2500}
    if kind == "success":
        assert cost["requested"] == {"nodes": 0, "cost": 1 + GET_HADITH}


MAXIMAL_CALLS: dict[str, dict[str, Any]] = {
    "search_hadith": {"query": "bukhari:1", "limit": 20},
    "get_hadith": {"hadith_id": 100001},
    "get_hadith_chains": {"hadith_id": 100001, "limit": 20},
    "search_narrator": {"query": "Abu Hurairah", "limit": 20},
    "get_narrator_profile": {"narrator_id": 11062, "entry_limit": 20},
    "get_narrator_hadiths": {"narrator_id": 11062, "limit": 50},
    "get_transmission_relation": {"narrator_a_id": 11042, "narrator_b_id": 11213, "limit": 20},
    "get_hadith_commentary": {"hadith_id": 500001, "limit": 20},
}


@pytest.mark.parametrize("tool", TOOLS)
async def test_a_persisted_request_at_its_largest_limits_costs_less_than_the_maximum(
    client: httpx.AsyncClient, tool: str
) -> None:
    manifest = json.loads((PERSISTED / "manifest.json").read_text(encoding="utf-8"))
    (document_id,) = [op["id"] for op in manifest["operations"] if op["name"] == tool]
    payload = {"documentId": f"sha256:{document_id}", "variables": MAXIMAL_CALLS[tool]}
    body = (await client.post("/graphql", json=payload)).json()
    assert "errors" not in body, body["errors"]
    requested, maximum = body["extensions"]["cost"]["requested"], body["extensions"]["cost"]["maximum"]
    assert 0 < requested["cost"] < maximum["cost"]
    assert requested["nodes"] < maximum["nodes"]


# --- weights: what a field claims of the database ---------------------------------------------------------

LONG_NAME = "abcdefghij" * 49 + "x"  # 491 letters: within the 500 a query may have
SEARCHES = (
    "{ " + " ".join(f'n{i}: search_narrator(query: "{LONG_NAME}") {{ results {{ score }} }}' for i in range(30)) + " }"
)


async def test_thirty_aliased_searches_are_refused_before_any_sql(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    # Each: its weight, the result object and 5 hits (the default limit); 30 of them are over the budget.
    code, message = _refusal(await _post(client, SEARCHES))
    assert code == "QUERY_REJECTED"
    assert f"cost {30 * (WEIGHTS['Query', 'search_narrator'] + 1 + 5)} exceeds 2500" in message
    assert statements == []


TEACHING_BOMB = """{ get_narrator_profile(narrator_id: 20020) {
  teachers(limit: 50) { items { provenance { source_id } teacher { hadiths(limit: 20) { items { hadith_id } } } } }
  students(limit: 50) { items { provenance { source_id } student { hadiths(limit: 20) { items { hadith_id } } } } }
} }"""


def test_a_narrators_teachers_and_students_are_sized_by_their_limits() -> None:
    # teachers: 7 relations; students: the default 10; each list's object and its weight cost 1 + 1.
    document = """{ get_narrator_profile(narrator_id: 1) {
      teachers(limit: 7) { items { teacher_id } } students { items { student_id } } } }"""
    profile, teaching = WEIGHTS["Query", "get_narrator_profile"], WEIGHTS["NarratorProfile", "teachers"]
    cost = 1 + profile + 2 * (1 + teaching) + 7 + 10
    assert measured(document) == Measure(nodes=17, cost=cost, depth=4, aliases=0)


async def test_teachers_and_students_over_the_budget_are_refused_before_any_sql(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    # Per side: 50 relations, their 500 provenance entries, 1,000 hadith of the narrators they reach.
    code, message = _refusal(await _post(client, TEACHING_BOMB))
    assert code == "QUERY_REJECTED"
    assert "node count 3100 exceeds 2000" in message
    assert statements == []


def test_a_search_weighs_far_more_than_a_lookup() -> None:
    lookups = [weight for (parent, field), weight in WEIGHTS.items() if parent == "Query" and "search" not in field]
    assert WEIGHTS["Query", "search_narrator"] >= 50 * max(lookups)
    assert WEIGHTS["Query", "search_hadith"] >= 50 * max(lookups)
