"""The executable schema: the Query, no Mutation, no Subscription."""

from collections.abc import Callable, Sequence

import strawberry
from strawberry.extensions import SchemaExtension

from schema.query import CONFIG, Query

Extension = type[SchemaExtension] | Callable[[], SchemaExtension]


def build_schema(extensions: Sequence[Extension] = ()) -> strawberry.Schema:
    return strawberry.Schema(query=Query, config=CONFIG, extensions=list(extensions))
