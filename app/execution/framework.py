"""The one door to graphql-core's schema behind Strawberry's: compiled plans and execution read it, and
pyproject.toml bounds strawberry-graphql above, so that a new version comes in only with the compiled-plan
equivalence test (tests/execution/test_compiled.py) passing on it."""

import strawberry
from graphql import GraphQLSchema


def graphql_core_schema(schema: strawberry.Schema) -> GraphQLSchema:
    """The graphql-core schema that Strawberry builds (a private attribute of Strawberry's)."""
    return schema._schema
