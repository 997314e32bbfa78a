"""The closed set of errors the API returns, and the one place every failure is mapped into it.

    ApiError                    extensions.code            HTTP  aliases used by the contract
    |-- InvalidInput            INVALID_INPUT              400   invalid_input, invalid_id, invalid_page, same_narrator
    |-- UnsupportedLanguage     UNSUPPORTED_LANGUAGE       400   unsupported_language
    |-- LimitExceeded           LIMIT_EXCEEDED             400   limit_exceeded
    |-- NotFound                NOT_FOUND                  404   not_found
    |-- UpstreamUnavailable     UPSTREAM_UNAVAILABLE       503   upstream_unavailable
    |-- QueryRejected           QUERY_REJECTED             400
    |-- PersistedQueryNotFound  PERSISTED_QUERY_NOT_FOUND  404
    |-- RateLimited             RATE_LIMITED               429
    `-- InternalError           INTERNAL_ERROR             500

The HTTP status is the class's own (`status`): an endpoint that answers an error with its status (`/tools`)
reads it there (`status_of`), never from a second table.

Anything else that escapes a resolver is masked as INTERNAL_ERROR: no message ever carries SQL, a
table or column name, or a stack trace.
"""

from enum import StrEnum
from typing import ClassVar

from graphql import GraphQLError


class ErrorCode(StrEnum):
    INVALID_INPUT = "INVALID_INPUT"
    UNSUPPORTED_LANGUAGE = "UNSUPPORTED_LANGUAGE"
    LIMIT_EXCEEDED = "LIMIT_EXCEEDED"
    NOT_FOUND = "NOT_FOUND"
    UPSTREAM_UNAVAILABLE = "UPSTREAM_UNAVAILABLE"
    QUERY_REJECTED = "QUERY_REJECTED"
    PERSISTED_QUERY_NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
    RATE_LIMITED = "RATE_LIMITED"
    INTERNAL_ERROR = "INTERNAL_ERROR"


class ApiError(Exception):
    """An error of the closed set, with a short message that is safe to show."""

    code: ClassVar[ErrorCode]
    status: ClassVar[int]
    default_alias: ClassVar[str | None] = None

    def __init__(self, message: str, alias: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.alias = alias or self.default_alias

    @property
    def extensions(self) -> dict[str, str]:
        extensions = {"code": self.code.value}
        if self.alias:
            extensions["alias"] = self.alias
        return extensions


class InvalidInput(ApiError):
    code = ErrorCode.INVALID_INPUT
    status = 400
    default_alias = "invalid_input"


class UnsupportedLanguage(ApiError):
    code = ErrorCode.UNSUPPORTED_LANGUAGE
    status = 400
    default_alias = "unsupported_language"


class LimitExceeded(ApiError):
    code = ErrorCode.LIMIT_EXCEEDED
    status = 400
    default_alias = "limit_exceeded"


class NotFound(ApiError):
    code = ErrorCode.NOT_FOUND
    status = 404
    default_alias = "not_found"


class UpstreamUnavailable(ApiError):
    code = ErrorCode.UPSTREAM_UNAVAILABLE
    status = 503
    default_alias = "upstream_unavailable"

    def __init__(self, message: str = "The database is unavailable; try again shortly.") -> None:
        super().__init__(message)


class QueryRejected(ApiError):
    code = ErrorCode.QUERY_REJECTED
    status = 400


class PersistedQueryNotFound(ApiError):
    code = ErrorCode.PERSISTED_QUERY_NOT_FOUND
    status = 404


class RateLimited(ApiError):
    code = ErrorCode.RATE_LIMITED
    status = 429


class InternalError(ApiError):
    code = ErrorCode.INTERNAL_ERROR
    status = 500

    def __init__(self, message: str = "Internal error.") -> None:
        super().__init__(message)


def status_of(code: str) -> int:
    """The HTTP status of an error code of the closed set; 500 for anything else."""
    return next((kind.status for kind in ApiError.__subclasses__() if kind.code == code), InternalError.status)


def _with(error: GraphQLError, api_error: ApiError) -> GraphQLError:
    return GraphQLError(
        message=api_error.message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        original_error=None,
        extensions=api_error.extensions,
    )


def rejected_document(error: GraphQLError) -> GraphQLError:
    """A parse or validation error of the document: QUERY_REJECTED, keeping its place in the document."""
    return _with(error, QueryRejected(error.message))


def to_closed_set(error: GraphQLError) -> GraphQLError:
    """Map any GraphQL error to the closed set; unknown failures become a masked INTERNAL_ERROR."""
    original = error.original_error
    if isinstance(original, ApiError):
        return _with(error, original)
    if error.path is None and (original is None or isinstance(original, GraphQLError)):
        # graphql-core's own parse, validation and variable errors: they name only the document.
        if error.message.startswith("Variable '$"):
            return _with(error, InvalidInput(error.message))
        return _with(error, QueryRejected(error.message))
    return _with(error, InternalError())
