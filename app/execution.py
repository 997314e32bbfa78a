"""Running one GraphQL operation: cost check first (before any SQL), then execution on one
request-scoped connection, then every error mapped to the closed set."""

import inspect
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphql import GraphQLError, GraphQLSchema, execute
from sqlalchemy.ext.asyncio import AsyncEngine

from app.context import create_context
from app.cost import CostLimits, Measure, check, measure
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

    def measure(self, prepared: Prepared, operation_name: str | None, variables: Mapping[str, Any]) -> Measure:
        """The operation's cost; raises an error of the closed set when it may not run."""
        operation = prepared.operation(operation_name)
        found = measure(self.schema, operation, prepared.fragments, variables)
        check(found, self.allowed)
        return found

    async def run(
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
