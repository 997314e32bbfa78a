"""Request ids, W3C trace context, and one JSON line per request on the `isnad_graphql.requests` logger
(INFO), which `serve` sends to stderr unless ISNAD_REQUEST_LOG is off:

    {"time":"2026-12-01T16:02:11.532Z","request_id":"9f1c...","trace_id":null,"span_id":null,
     "method":"POST","path":"/tools/get_hadith","status":200,"duration_ms":2.31,"surface":"tools",
     "operation":"get_hadith","error":null,"sql_statements":1,"sql_ms":0.84}

A request's id is its `X-Request-Id` when that is 1 to 128 characters of `A-Z a-z 0-9 . _ : = + / -`,
else a new random one. A valid `traceparent` (W3C Trace Context) puts the request in the caller's
trace: the line carries its trace id and the span id this server gave the request, and the answer
says both in `traceresponse`. `time` is when the request arrived (UTC). The line holds the path, never
the query string (a GET's document and variables), and no header but those ids: no API key is ever
written. With no handler at INFO (tests, benchmarks), no line is built.
"""

import logging
import re
import secrets
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson

from app.observation import Observation

REQUEST_LOG = logging.getLogger("isnad_graphql.requests")
MAX_PATH = 256  # characters of the path written: the client chooses it
REQUEST_ID = re.compile(r"[A-Za-z0-9._:=+/-]{1,128}")
TRACEPARENT = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?")
INVALID_TRACE_ID, INVALID_SPAN_ID = "0" * 32, "0" * 16


@dataclass(frozen=True, slots=True)
class RequestIdentity:
    """How a request is known in the logs and in its answer's headers."""

    request_id: str
    trace_id: str | None = None  # the caller's trace, from a valid traceparent
    span_id: str | None = None  # this server's span in that trace
    flags: str = "00"  # the caller's trace flags, returned as they came

    @classmethod
    def of(cls, request_id: str | None, traceparent: str | None) -> "RequestIdentity":
        if request_id is None or not REQUEST_ID.fullmatch(request_id):
            request_id = secrets.token_hex(16)
        trace = TRACEPARENT.fullmatch(traceparent) if traceparent is not None else None
        if trace is None or not _valid_trace(*trace.groups()):
            return cls(request_id)
        return cls(request_id, trace_id=trace.group(2), span_id=secrets.token_hex(8), flags=trace.group(4))

    @classmethod
    def of_headers(cls, headers: Mapping[bytes, bytes]) -> "RequestIdentity":
        """From a request's headers as ASGI gives them (names in lower case)."""
        return cls.of(_text(headers.get(b"x-request-id")), _text(headers.get(b"traceparent")))

    def headers(self) -> list[tuple[bytes, bytes]]:
        """`X-Request-Id`, and `traceresponse` in a caller's trace."""
        headers = [(b"x-request-id", self.request_id.encode())]
        if self.trace_id is not None:
            headers.append((b"traceresponse", f"00-{self.trace_id}-{self.span_id}-{self.flags}".encode()))
        return headers


def _valid_trace(version: str, trace_id: str, parent_id: str, flags: str, more: str | None) -> bool:
    """Version ff is invalid, version 00 has exactly four fields, ids of zeros are invalid; a later
    version may add fields, which are ignored."""
    if version == "ff" or (version == "00" and more is not None):
        return False
    return trace_id != INVALID_TRACE_ID and parent_id != INVALID_SPAN_ID


def _text(value: bytes | None) -> str | None:
    return value.decode("latin-1") if value is not None else None


def wanted() -> bool:
    """Whether a line would be written anywhere."""
    return REQUEST_LOG.isEnabledFor(logging.INFO)


def write(
    observation: Observation,
    identity: RequestIdentity,
    method: str,
    path: str,
    status: int,
    arrived: float,
    seconds: float,
) -> None:
    """The line of a request that arrived at `arrived` (epoch seconds), answered `status` after `seconds`."""
    line = {
        "time": datetime.fromtimestamp(arrived, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "request_id": identity.request_id,
        "trace_id": identity.trace_id,
        "span_id": identity.span_id,
        "method": method,
        "path": path[:MAX_PATH],
        "status": status,
        "duration_ms": round(seconds * 1000, 2),
        "surface": observation.surface,
        "operation": observation.operation,
        "error": observation.error,
        "sql_statements": observation.statements,
        "sql_ms": round(observation.sql_seconds * 1000, 2),
    }
    REQUEST_LOG.info("%s", orjson.dumps(line).decode())


def to_stderr() -> None:
    """Send the request log to stderr, one bare line each."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    REQUEST_LOG.addHandler(handler)
    REQUEST_LOG.setLevel(logging.INFO)
    REQUEST_LOG.propagate = False
