"""Checks of the arguments the tools share; each failure is an error of the closed set."""

from app.errors import InvalidInput

MAX_QUERY_LENGTH = 500


def require_id(value: int, argument: str) -> int:
    if value < 1:
        raise InvalidInput(f"{argument} must be a positive id.", alias="invalid_id")
    return value


def require_query(value: str) -> str:
    query = value.strip()
    if not query:
        raise InvalidInput("query must not be empty.")
    if len(query) > MAX_QUERY_LENGTH:
        raise InvalidInput(f"query must be at most {MAX_QUERY_LENGTH} characters.")
    return query
