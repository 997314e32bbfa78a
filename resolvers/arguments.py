"""Checks of the arguments the tools share; each failure is an error of the closed set."""

from app.errors import InvalidInput

MAX_QUERY_LENGTH = 500


def require_id(value: int, argument: str) -> int:
    if value < 1:
        raise InvalidInput(f"{argument} must be a positive id.", alias="invalid_id")
    return value


def require_text(value: str, argument: str, longest: int = MAX_QUERY_LENGTH) -> str:
    """A text argument, stripped: not empty, not over `longest`, and without the NUL character, which no
    PostgreSQL text can hold."""
    text = value.strip()
    if not text:
        raise InvalidInput(f"{argument} must not be empty.")
    if len(text) > longest:
        raise InvalidInput(f"{argument} must be at most {longest} characters.")
    if "\x00" in text:
        raise InvalidInput(f"{argument} must not contain the NUL character.")
    return text


def require_query(value: str) -> str:
    return require_text(value, "query")
