"""The executable schema: the Query, no Mutation, no Subscription."""

import strawberry

from schema.query import CONFIG, Query


def build_schema() -> strawberry.Schema:
    return strawberry.Schema(query=Query, config=CONFIG)
