"""The measure of a document as a request's is taken, that the cost tests share."""

from typing import Any

from graphql import FragmentDefinitionNode, OperationDefinitionNode, parse

from app.execution.cost import Measure, MeasureCache, coerce_variables
from app.execution.framework import graphql_core_schema
from schema.build import build_schema

SCHEMA = graphql_core_schema(build_schema())


def measured(document: str, cache: MeasureCache | None = None, **variables: Any) -> Measure:
    """The document's measure with these variables, coerced as a request's are (through `cache` if given)."""
    parsed = parse(document)
    operation = next(d for d in parsed.definitions if isinstance(d, OperationDefinitionNode))
    fragments = {d.name.value: d for d in parsed.definitions if isinstance(d, FragmentDefinitionNode)}
    coerced = coerce_variables(SCHEMA, operation, variables)
    return (cache or MeasureCache(SCHEMA)).measure(document, operation, fragments, coerced)
