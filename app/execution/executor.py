"""Running one GraphQL operation: the data's version and the cost checked first (before any SQL), then execution on
one request-scoped connection, within the request's deadline, then every error mapped to the closed set.

The deadline bounds all of an operation's statements together: when it passes, the statement in flight
is cancelled (on the server too), the connection goes back to the pool settled (`app/data/database.py`), and
the answer is UPSTREAM_UNAVAILABLE, with no data."""

import asyncio
import inspect
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import strawberry
from graphql import GraphQLError, GraphQLSchema, execute

from app.data.database import RequestDatabase
from app.data.replicas import ReadRouting
from app.data.search import NameIndex
from app.data.sources import SourceCatalog
from app.errors import ErrorCode, UpstreamUnavailable, to_closed_set
from app.execution.compiled import NotCompiled, Plan, compile_operation
from app.execution.context import Context, create_context
from app.execution.cost import CostLimits, Measure, MeasureCache, check, coerce_variables
from app.execution.documents import Prepared
from app.execution.framework import graphql_core_schema
from app.observation import note_sql

logger = logging.getLogger("isnad_graphql")
MAX_PLANS = 1_000  # compiled operations kept (persisted ones are compiled again after a clear)
PAST_DEADLINE = UpstreamUnavailable("The request ran past its deadline; the database did not answer in time.")


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
        reads: ReadRouting,
        sources: SourceCatalog,
        names: NameIndex,
        allowed: CostLimits,
        deadline_s: float,
        suggestions: bool = False,
    ) -> None:
        self.schema: GraphQLSchema = graphql_core_schema(strawberry_schema)
        self.suggestions = suggestions  # "Did you mean ...?" in the errors of variables
        self.reads = reads  # the pool each request reads from, the import it holds (app/data/replicas.py)
        self.deadline_s = deadline_s  # for all of an operation's statements together
        self.sources = sources
        self.names = names  # the name keys held in memory (app/data/search/name_index.py)
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
        self.reads.served.require_readable()
        operation = prepared.operation(operation_name)
        coerced = coerce_variables(self.schema, operation, variables, self.suggestions)
        found = self.measures.measure((prepared.text, operation_name), operation, prepared.fragments, coerced)
        check(found, self.allowed)
        return Admitted(operation_name, variables, coerced, found)

    async def run(self, prepared: Prepared, admitted: Admitted) -> Outcome:
        db = RequestDatabase(self.reads.pick(), self.reads.instead_of)
        deadline = asyncio.timeout(self.deadline_s)
        try:
            async with deadline:
                return await self._answer(prepared, admitted, db)
        except TimeoutError:
            if not deadline.expired():
                raise
            logger.warning("a request ran past its deadline of %.1f s; its statement was cancelled", self.deadline_s)
            error = GraphQLError(PAST_DEADLINE.message, extensions=PAST_DEADLINE.extensions)
            return Outcome(None, [error], admitted.cost, db.statements, db.seconds)
        finally:
            note_sql(db.statements, db.seconds)
            await db.close()

    async def _answer(self, prepared: Prepared, admitted: Admitted, db: RequestDatabase) -> Outcome:
        """The plan's answer; where it gives way (an error, an unexpected null), graphql-core's, on the same
        context: its loaders already hold what the plan read (a record, None, or the failure), so no
        statement runs twice and a stalled one is not waited for again."""
        context = create_context(db, self.sources, self.names)
        plan = self.plan(prepared, admitted.operation_name)
        if plan is not None:
            data = await self._run_plan(plan, context, admitted)
            if data is not None:
                return Outcome(data, [], admitted.cost, db.statements, db.seconds)
        return await self._execute(prepared, context, admitted)

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
