"""Execution of one GraphQL operation: documents, cost, compiled plans, the request context and its loaders."""
