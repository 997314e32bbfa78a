"""Running one GraphQL operation: cost check first (before any SQL), then execution on one
request-scoped connection, then every error mapped to the closed set."""

import inspect
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import strawberry
from graphql import GraphQLError, GraphQLSchema, execute
from sqlalchemy.ext.asyncio import AsyncEngine

from app.compiled import NotCompiled, Plan, compile_operation
from app.context import create_context
from app.cost import CostLimits, Measure, check, coerce_variables, measure
from app.data.sources import SourceCatalog
from app.database import RequestDatabase
from app.documents import Prepared
from app.errors import ErrorCode, to_closed_set

logger = logging.getLogger("isnad_graphql")


@dataclass(frozen=True)
class Outcome:
    data: dict[str, Any] | None
    errors: list[GraphQLError]
    cost: Measure


class Executor:
    def __init__(self, schema: GraphQLSchema, engine: AsyncEngine, sources: SourceCatalog, allowed: CostLimits):
        self.schema = schema
        self.engine = engine
        self.sources = sources
        self.allowed = allowed
        self.plans: dict[str, Plan] = {}  # compiled persisted documents, by text

    def compile(self, schema: strawberry.Schema, prepared: Prepared) -> None:
        """Give the document a compiled plan, when its shape allows one."""
        try:
            self.plans[prepared.text] = compile_operation(schema, prepared.operation(None))
        except NotCompiled:
            logger.info("not compiled: %s", prepared.text[:60])

    def measure(self, prepared: Prepared, operation_name: str | None, variables: Mapping[str, Any]) -> Measure:
        """The operation's cost; raises an error of the closed set when it may not run."""
        operation = prepared.operation(operation_name)
        found = measure(self.schema, operation, prepared.fragments, variables)
        check(found, self.allowed)
        return found

    async def run(
        self, prepared: Prepared, operation_name: str | None, variables: Mapping[str, Any], cost: Measure
    ) -> Outcome:
        plan = self.plans.get(prepared.text)
        if plan is not None:
            data = await self._run_plan(plan, prepared, operation_name, variables)
            if data is not None:
                return Outcome(data, [], cost)
        return await self._execute(prepared, operation_name, variables, cost)

    async def _run_plan(
        self, plan: Plan, prepared: Prepared, operation_name: str | None, variables: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """The plan's answer, or None when normal execution must give it (an error, an unexpected null)."""
        coerced = coerce_variables(self.schema, prepared.operation(operation_name), variables)
        context = create_context(RequestDatabase(self.engine), self.sources)
        try:
            return await plan.run(context, coerced)
        except Exception:
            return None
        finally:
            await context.db.close()

    async def _execute(
        self, prepared: Prepared, operation_name: str | None, variables: Mapping[str, Any], cost: Measure
    ) -> Outcome:
        context = create_context(RequestDatabase(self.engine), self.sources)
        try:
            result = execute(
                self.schema,
                prepared.valid_document,
                context_value=context,
                variable_values=dict(variables),
                operation_name=operation_name,
            )
            if inspect.isawaitable(result):
                result = await result
        finally:
            await context.db.close()
        return Outcome(result.data, [_closed(error) for error in result.errors or ()], cost)


def _closed(error: GraphQLError) -> GraphQLError:
    mapped = to_closed_set(error)
    if (mapped.extensions or {}).get("code") == ErrorCode.INTERNAL_ERROR:
        logger.error("unexpected error at %s", error.path, exc_info=error.original_error or error)
    return mapped
