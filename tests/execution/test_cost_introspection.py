"""Introspection is measured like every other selection (app/execution/list_sizes.py, `ListSizes`): aliased
`__schema` and `__type` count their aliases, and their lists count what the schema holds, so an introspection
bomb is refused before it runs, while the introspection query that GraphiQL sends is answered, its measure
being what it answers."""

from typing import Any

import httpx
from graphql import get_introspection_query

from app.execution.cost import Measure
from tests.cost_measure import SCHEMA, measured

GRAPHQL_RESPONSE = "application/graphql-response+json"
# GraphiQL 3 sends graphql-js's getIntrospectionQuery({inputValueDeprecation, schemaDescription}), under
# the operation name IntrospectionQuery; graphql-core's function writes the same document.
GRAPHIQL = get_introspection_query(descriptions=True, schema_description=True, input_value_deprecation=True)
# 29 aliased __schema, each spreading a fragment of 50 aliased `fields` (the bomb that answered 19.6 MB).
SCHEMAS = " ".join(f"s{i}: __schema {{ ...F }}" for i in range(29))
FIELDS = " ".join(f"f{j}: fields {{ name }}" for j in range(50))
BOMB = f"{{ {SCHEMAS} }}\nfragment F on __Schema {{ types {{ {FIELDS} }} }}"
# Within the alias maximum, still wide: 20 aliased `types`, each with every field's arguments.
TYPES = " ".join(f"t{i}: types {{ fields {{ args {{ type {{ name }} }} type {{ name }} }} }}" for i in range(20))
WIDE = f"{{ __schema {{ {TYPES} }} }}"


def objects(value: Any) -> int:
    """The objects in an answer's data (the data object itself left out)."""
    if isinstance(value, list):
        return sum(objects(item) for item in value)
    if isinstance(value, dict):
        return 1 + sum(objects(item) for item in value.values())
    return 0


async def _post(client: httpx.AsyncClient, document: str) -> httpx.Response:
    return await client.post("/graphql", json={"query": document}, headers={"accept": GRAPHQL_RESPONSE})


async def test_the_introspection_bomb_is_refused_before_it_runs(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    assert len(BOMB.encode()) < 2_000
    response = await _post(client, BOMB)
    body = response.json()
    assert response.status_code == 400
    assert body.get("data") is None
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "QUERY_REJECTED"
    assert "aliases 1479 exceeds 30" in error["message"]
    assert "cost 456025 exceeds 2500" in error["message"]
    assert statements == []


async def test_wide_introspection_within_the_alias_maximum_is_refused_by_its_cost(client: httpx.AsyncClient) -> None:
    body = (await _post(client, WIDE)).json()
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "QUERY_REJECTED"
    assert "aliases" not in error["message"].split("(")[0]
    assert "cost" in error["message"]


async def test_graphiqls_introspection_query_is_answered_and_measured_as_what_it_answers(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/graphql", json={"query": GRAPHIQL, "operationName": "IntrospectionQuery"})
    body = response.json()
    assert "errors" not in body
    assert body["data"]["__schema"]["queryType"] == {"name": "Query", "kind": "OBJECT"}
    assert body["extensions"]["cost"]["requested"]["cost"] == objects(body["data"]["__schema"])


def test_every_option_of_the_introspection_query_stays_within_the_maxima() -> None:
    full = get_introspection_query(
        descriptions=True,
        specified_by_url=True,
        directive_is_repeatable=True,
        schema_description=True,
        input_value_deprecation=True,
        one_of=True,
    )
    found = measured(full)
    assert found.cost < 2500
    assert found.nodes < 2000
    assert found.depth <= 12


def test_a_type_asked_by_name_counts_the_largest_lists_of_the_schema() -> None:
    # __type: 1; fields: the most fields of a type (15), each with the most arguments of a field (4).
    largest_fields = max(len(t.fields) for t in SCHEMA.type_map.values() if hasattr(t, "fields"))
    assert largest_fields == 15
    document = '{ __type(name: "Query") { name fields { name args { name } } } }'
    assert measured(document) == Measure(nodes=15 + 15 * 4, cost=1 + 15 * (1 + 4), depth=4, aliases=0)


def test_of_type_is_followed_only_as_deep_as_the_schema_wraps_a_type() -> None:
    # `[X!]!` is the deepest wrapping: type (1) and three ofType; the fourth is null, and nothing below it.
    chain = "ofType { " * 12 + "name" + " }" * 12
    document = f'{{ __type(name: "Query") {{ fields {{ type {{ {chain} }} }} }} }}'
    assert measured(document) == Measure(nodes=15, cost=1 + 15 * (1 + 1 + 3), depth=7, aliases=0)


async def test_a_usual_client_introspection_is_answered(client: httpx.AsyncClient) -> None:
    document = '{ __typename __type(name: "Hadith") { name kind fields { name type { name kind ofType { name } } } } }'
    body = (await _post(client, document)).json()
    assert "errors" not in body
    assert body["data"]["__type"]["name"] == "Hadith"
