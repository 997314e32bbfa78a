"""The GraphQL schema: Strawberry types (shape only) and the root Query."""
