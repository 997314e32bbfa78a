"""Compiled persisted documents answer exactly what graphql-core's execution answers, byte for byte,
over many real arguments of every tool."""

from typing import Any

import orjson
import pytest
from starlette.applications import Starlette

from app.compiled import Plan
from app.context import create_context
from app.database import RequestDatabase
from app.documents import Documents, Prepared
from app.execution import Admitted, Executor, Outcome
from app.persisted import DEFAULT_DIR, read_documents
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
    "search_narrator": "SELECT form AS query FROM narrator_name_variant ORDER BY narrator_id, form LIMIT 80",
}


async def _arguments(database_url: str, tool: str) -> list[dict[str, Any]]:
    return [dict(row) for row in await rows(database_url, ARGUMENT_SQL[tool])]


@pytest.mark.parametrize("tool", sorted(ARGUMENT_SQL))
async def test_a_compiled_tool_answers_byte_for_byte_as_graphql_core(
    app: Starlette, database_url: str, tool: str
) -> None:
    executor: Executor = app.state.executor
    operation = next(op for op in read_documents(DEFAULT_DIR) if op.name == tool)
    prepared = Documents(executor.schema, 10_000).prepare(operation.body)
    plan = executor.plans[prepared.text]
    cases = await _arguments(database_url, tool)
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
    compiled_db, executed_db = RequestDatabase(executor.engine), RequestDatabase(executor.engine)
    try:
        compiled = await executor._run_plan(plan, create_context(compiled_db, executor.sources), admitted)
        executed = await executor._execute(prepared, create_context(executed_db, executor.sources), admitted)
    finally:
        await compiled_db.close()
        await executed_db.close()
    return compiled, executed
