"""Checks of the arguments the tools share; each failure is an error of the closed set."""

from app.errors import InvalidInput

MAX_QUERY_LENGTH = 500
MAX_PAGE = 100_000


def require_id(value: int, argument: str) -> int:
    if value < 1:
        raise InvalidInput(f"{argument} must be a positive id.", alias="invalid_id")
    return value


def require_page(value: int | None) -> int:
    """A page number from 1; null is the first page."""
    page = 1 if value is None else value
    if not 1 <= page <= MAX_PAGE:
        raise InvalidInput(f"page must be between 1 and {MAX_PAGE}.", alias="invalid_page")
    return page


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
