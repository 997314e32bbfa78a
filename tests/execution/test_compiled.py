"""Compiled operations answer exactly what graphql-core's execution answers, byte for byte: the persisted
documents over many real arguments of every tool, and free documents that navigate the graph."""

from typing import Any

import orjson
import pytest
from starlette.applications import Starlette

from app.data.database import RequestDatabase
from app.execution.compiled import Plan
from app.execution.context import create_context
from app.execution.documents import Documents, Prepared
from app.execution.executor import Admitted, Executor, Outcome
from app.execution.persisted import DEFAULT_DIR, read_documents
from tests.graphql_client import rows

ARGUMENT_SQL: dict[str, str] = {
    "get_hadith": "SELECT hadith_id FROM hadith ORDER BY hadith_id",
    "get_hadith_chains": "SELECT hadith_id, 2 AS limit FROM hadith ORDER BY hadith_id",
    "get_hadith_commentary": "SELECT DISTINCT hadith_id FROM commentary_passage WHERE hadith_id IS NOT NULL",
    "get_narrator_profile": "SELECT narrator_id, 3 AS entry_limit FROM narrator WHERE chain_node_count > 0"
    " ORDER BY narrator_id LIMIT 120",
    "get_narrator_hadiths": "SELECT narrator_id, 2 AS page, 3 AS limit FROM narrator WHERE chain_node_count > 3"
    " ORDER BY narrator_id LIMIT 80",
    "get_transmission_relation": "SELECT teacher_id AS narrator_a_id, student_id AS narrator_b_id"
    " FROM transmission_relation ORDER BY relation_id LIMIT 80",
    "search_hadith": "SELECT split_part(text_ar_normalized, ' ', 3) || ' ' || split_part(text_ar_normalized, ' ', 4)"
    " AS query FROM hadith WHERE text_ar_normalized IS NOT NULL ORDER BY hadith_id LIMIT 60",
    "search_narrator": "SELECT form AS query FROM narrator_name_variant WHERE length(form) <= 60"
    " ORDER BY narrator_id, form LIMIT 80",  # names as people type them, not a notice's whole headword
}


async def _arguments(database_url: str, tool: str) -> list[dict[str, Any]]:
    return [dict(row) for row in await rows(database_url, ARGUMENT_SQL[tool])]


@pytest.mark.parametrize("tool", sorted(ARGUMENT_SQL))
async def test_a_compiled_tool_answers_byte_for_byte_as_graphql_core(
    app: Starlette, database_url: str, tool: str
) -> None:
    operation = next(op for op in read_documents(DEFAULT_DIR) if op.name == tool)
    await _assert_same_bytes(app.state.executor, operation.body, await _arguments(database_url, tool))


# Free documents as web frontends write them: navigation below the tools, aliases, __typename, variables.
FREE_DOCUMENTS: dict[str, tuple[str, str]] = {
    "hadith, chains, nodes, narrators": (
        """query web($id: Int!) { get_hadith(hadith_id: $id) { __typename hadith_id canonical_reference
          collection { code name } chains(limit: 20) { chains { chain_number nodes { position narrator_id
          narrator { canonical_display } } } truncated } } }""",
        "SELECT DISTINCT hadith_id AS id FROM chain ORDER BY 1 LIMIT 40",
    ),
    "two hadith by alias, chains navigating to each narrator's hadiths": (
        """query two($a: Int!, $b: Int!, $n: Int) { first: get_hadith(hadith_id: $a) { hadith_id }
          second: get_hadith_chains(hadith_id: $b, limit: $n) { chains { nodes { n: narrator {
          narrator_id hadiths(limit: 2) { items { hadith_id } truncated } } } } } }""",
        "SELECT min(hadith_id) AS a, max(hadith_id) AS b, 2 AS n FROM chain GROUP BY hadith_id % 30",
    ),
    "relations to their narrators and observations to their hadith": (
        """query rel($a: Int!, $b: Int!) { get_transmission_relation(narrator_a_id: $a, narrator_b_id: $b, limit: 5) {
          relations { teacher { narrator_id canonical_display } student { narrator_id } }
          chain_observations { hadith { hadith_id collection { code } } } } }""",
        "SELECT teacher_id AS a, student_id AS b FROM transmission_relation ORDER BY relation_id LIMIT 30",
    ),
    "hadith grades, from the root and from search hits": (
        """query grades($id: Int!, $n: Int) { get_hadith(hadith_id: $id) { grades(limit: $n) { items { grader grade
          grade_class evidence_status provenance { source_id source_key edition_id citation } } truncated } }
          search_hadith(query: "حدثنا", limit: 3) { results { hadith { g: grades { items { grade_class } } } } } }""",
        "SELECT hadith_id AS id, 1 + hadith_id % 5 AS n FROM hadith_grade GROUP BY hadith_id ORDER BY 1 LIMIT 40",
    ),
    "narrator hadiths to their chains": (
        """query occ($id: Int!) { get_narrator_hadiths(narrator_id: $id, limit: 3) { items { hadith {
          hadith_id chains(limit: 1) { chains { nodes { narrator { narrator_id } } } } } } } }""",
        "SELECT narrator_id AS id FROM narrator WHERE chain_node_count > 3 ORDER BY narrator_id LIMIT 30",
    ),
}


@pytest.mark.parametrize("name", sorted(FREE_DOCUMENTS))
async def test_a_compiled_free_document_answers_byte_for_byte_as_graphql_core(
    app: Starlette, database_url: str, name: str
) -> None:
    text, argument_sql = FREE_DOCUMENTS[name]
    await _assert_same_bytes(app.state.executor, text, await rows(database_url, argument_sql))


@pytest.mark.parametrize(
    "text",
    [
        "query { get_hadith(hadith_id: 100001) { ...h } } fragment h on Hadith { hadith_id }",
        "query ($skip: Boolean!) { get_hadith(hadith_id: 100001) { hadith_id @skip(if: $skip) } }",
        "query { get_hadith(hadith_id: 100001) { hadith_id } get_hadith(hadith_id: 100001) { canonical_reference } }",
        "query { __schema { queryType { name } } }",
    ],
)
def test_a_document_the_plans_do_not_handle_gets_none(app: Starlette, text: str) -> None:
    executor: Executor = app.state.executor
    prepared = Documents(executor.schema, 10_000).prepare(text)

    assert executor.plan(prepared, None) is None


async def test_a_plan_that_meets_an_error_answers_as_graphql_core(app: Starlette) -> None:
    """A root field not found while its sibling's statement runs: the plan gives way, and the answer is
    graphql-core's (NOT_FOUND in its place), never an error of the connection."""
    executor: Executor = app.state.executor
    text = """{ missing: get_hadith(hadith_id: 999999999) { hadith_id }
      found: get_hadith_chains(hadith_id: 100001) { chains { chain_id nodes { narrator { narrator_id } } } } }"""
    prepared = Documents(executor.schema, 10_000).prepare(text)
    assert executor.plan(prepared, None) is not None
    admitted = executor.admit(prepared, None, {})
    db = RequestDatabase(executor.reads.primary)
    try:
        expected = await executor._execute(prepared, create_context(db, executor.sources, executor.names), admitted)
    finally:
        await db.close()
    for _ in range(20):
        outcome = await executor.run(prepared, admitted)
        assert [error.formatted for error in outcome.errors] == [error.formatted for error in expected.errors]
        assert orjson.dumps(outcome.data) == orjson.dumps(expected.data)
    assert [error.extensions for error in expected.errors] == [{"code": "NOT_FOUND", "alias": "not_found"}]


async def _assert_same_bytes(executor: Executor, text: str, cases: list[dict[str, Any]]) -> None:
    """The document has a plan, and for each of at least 20 argument sets the plan answers the bytes
    graphql-core answers, without errors."""
    prepared = Documents(executor.schema, 10_000).prepare(text)
    plan = executor.plan(prepared, None)
    assert plan is not None
    assert len(cases) >= 20
    for variables in cases:
        admitted = executor.admit(prepared, None, variables)
        compiled, executed = await _both_ways(executor, plan, prepared, admitted)
        assert executed.errors == [], (variables, executed.errors)
        assert compiled is not None, variables
        assert orjson.dumps(compiled) == orjson.dumps(executed.data), variables


async def _both_ways(
    executor: Executor, plan: Plan, prepared: Prepared, admitted: Admitted
) -> tuple[dict[str, Any] | None, Outcome]:
    """The plan's answer and graphql-core's, each on a request connection of its own."""
    compiled_db, executed_db = RequestDatabase(executor.reads.primary), RequestDatabase(executor.reads.primary)
    try:
        compiled = await executor._run_plan(
            plan, create_context(compiled_db, executor.sources, executor.names), admitted
        )
        executed = await executor._execute(
            prepared, create_context(executed_db, executor.sources, executor.names), admitted
        )
    finally:
        await compiled_db.close()
        await executed_db.close()
    return compiled, executed
