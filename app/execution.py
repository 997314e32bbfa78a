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
from app.context import Context, create_context
from app.cost import CostLimits, Measure, MeasureCache, check, coerce_variables
from app.data.sources import SourceCatalog
from app.database import RequestDatabase
from app.documents import Prepared
from app.errors import ErrorCode, to_closed_set

logger = logging.getLogger("isnad_graphql")
MAX_PLANS = 1_000  # compiled operations kept (persisted ones are compiled again after a clear)


@dataclass(frozen=True)
class Admitted:
    """An operation allowed to run: its variables as sent and as coerced, and its measure."""

    operation_name: str | None
    variables: Mapping[str, Any]
    coerced: Mapping[str, Any]
    cost: Measure


@dataclass(frozen=True)
class Outcome:
    data: dict[str, Any] | None
    errors: list[GraphQLError]
    cost: Measure
    statements: int  # SQL statements run
    sql_seconds: float  # and the time they took, as the API saw it


class Executor:
    def __init__(
        self,
        strawberry_schema: strawberry.Schema,
        engine: AsyncEngine,
        sources: SourceCatalog,
        allowed: CostLimits,
        suggestions: bool = False,
    ) -> None:
        self.schema: GraphQLSchema = strawberry_schema._schema
        self.suggestions = suggestions  # "Did you mean ...?" in the errors of variables
        self.engine = engine
        self.sources = sources
        self.allowed = allowed
        self.strawberry_schema = strawberry_schema
        self.plans: dict[tuple[str, str | None], Plan | None] = {}  # by document and operation; None: none
        self.measures = MeasureCache(self.schema)

    def plan(self, prepared: Prepared, operation_name: str | None) -> Plan | None:
        """The operation's compiled plan, made on its first run, or None when its shape has none."""
        key = (prepared.text, operation_name)
        if key not in self.plans:
            if len(self.plans) >= MAX_PLANS:
                self.plans.clear()
            try:
                self.plans[key] = compile_operation(self.strawberry_schema, prepared.operation(operation_name))
            except NotCompiled:
                self.plans[key] = None
        return self.plans[key]

    def admit(self, prepared: Prepared, operation_name: str | None, variables: Mapping[str, Any]) -> Admitted:
        """The operation with its coerced variables and cost; raises an error of the closed set when it
        may not run."""
        operation = prepared.operation(operation_name)
        coerced = coerce_variables(self.schema, operation, variables, self.suggestions)
        found = self.measures.measure((prepared.text, operation_name), operation, prepared.fragments, coerced)
        check(found, self.allowed)
        return Admitted(operation_name, variables, coerced, found)

    async def run(self, prepared: Prepared, admitted: Admitted) -> Outcome:
        db = RequestDatabase(self.engine)
        try:
            plan = self.plan(prepared, admitted.operation_name)
            if plan is not None:
                data = await self._run_plan(plan, create_context(db, self.sources), admitted)
                if data is not None:
                    return Outcome(data, [], admitted.cost, db.statements, db.seconds)
            return await self._execute(prepared, create_context(db, self.sources), admitted)
        finally:
            await db.close()

    async def _run_plan(self, plan: Plan, context: Context, admitted: Admitted) -> dict[str, Any] | None:
        """The plan's answer, or None when normal execution must give it (an error, an unexpected null)."""
        try:
            return await plan.run(context, admitted.coerced)
        except Exception:
            return None

    async def _execute(self, prepared: Prepared, context: Context, admitted: Admitted) -> Outcome:
        result = execute(
            self.schema,
            prepared.valid_document,
            context_value=context,
            variable_values=dict(admitted.variables),
            operation_name=admitted.operation_name,
        )
        if inspect.isawaitable(result):
            result = await result
        errors = [_closed(error) for error in result.errors or ()]
        return Outcome(result.data, errors, admitted.cost, context.db.statements, context.db.seconds)


def _closed(error: GraphQLError) -> GraphQLError:
    mapped = to_closed_set(error)
    if (mapped.extensions or {}).get("code") == ErrorCode.INTERNAL_ERROR:
        logger.error("unexpected error at %s", error.path, exc_info=error.original_error or error)
    return mapped
