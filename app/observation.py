"""What one HTTP request did, as the metrics and the request log report it: its surface, the operation
it ran, its error code, its SQL statements and their time.

`app/http/observability.py` opens an `Observation` for each request and makes it current; the code that
learns something notes it here (`note_operation`, `note_error`, `note_sql`). Outside a request (the
stdio MCP server, a benchmark's app) nothing is current, and a note is dropped.
"""

from contextvars import ContextVar, Token
from dataclasses import dataclass

NO_OPERATION = "none"  # a request that ran no document (refused first, or not a document's path)
FREE_DOCUMENT = "free"  # any document that is not the manifest's: never its text, which the client chooses


@dataclass(slots=True)
class Observation:
    surface: str  # graphql, tools, mcp or other
    operation: str = NO_OPERATION  # a manifest document's name (a tool's), FREE_DOCUMENT, or NO_OPERATION
    error: str | None = None  # the code of the closed set the answer carries (its first error's)
    statements: int = 0
    sql_seconds: float = 0.0


_current: ContextVar[Observation | None] = ContextVar("isnad_observation", default=None)


def observe(observation: Observation) -> Token[Observation | None]:
    """Make `observation` the current request's; returns the token that `forget` takes."""
    return _current.set(observation)


def forget(token: Token[Observation | None]) -> None:
    _current.reset(token)


def note_operation(name: str) -> None:
    observation = _current.get()
    if observation is not None:
        observation.operation = name


def note_error(code: str) -> None:
    observation = _current.get()
    if observation is not None:
        observation.error = code


def note_sql(statements: int, seconds: float) -> None:
    observation = _current.get()
    if observation is not None:
        observation.statements += statements
        observation.sql_seconds += seconds
