"""The front door: the first middleware, which answers what must stay cheap while a worker is overloaded,
before the other middleware, routing and the request log.

- `GET`/`HEAD` `/healthz` and `/readyz` (`app/http/probes.py`): a probe waits for no middleware's task, so it
  answers within the loop turn that reads it.
- A request to `/graphql`, `/tools` or `/mcp` that admission could not take (no place free and the queue full,
  `app/http/admission.py`): 503 `UPSTREAM_UNAVAILABLE` with `Retry-After`, the answer admission gives, its
  bytes built once at start-up. It is counted in `isnad_admissions_refused_total{reason="queue_full"}` and
  `isnad_requests_total`, not written to the request log (under overload that would be a line per refusal),
  and its connection rests for the second its `Retry-After` asks (`app/http/slow_clients.py`).
  A request with an `Origin` (its refusal needs CORS' headers) or an API key (its client's rate limit
  answers 429 first) goes the usual way, where admission refuses it with the same envelope.

Every answer here carries `X-Request-Id` (and `traceresponse` in a caller's trace), as the others do.
"""

import time
from functools import lru_cache

from starlette.types import ASGIApp, Receive, Scope, Send

from app import metrics
from app.http.admission import BUSY, BUSY_HEADERS, Places, guarded, shed
from app.http.graphql import GRAPHQL_RESPONSE, response_media_type
from app.http.observability import surface
from app.http.probes import ALIVE, Probes
from app.http.profiles import API_KEY_HEADER
from app.http.refusals import GRAPHQL_PATH, refusal
from app.http.request_log import RequestIdentity
from app.metrics import ADMISSIONS_REFUSED
from app.observation import Observation

Headers = list[tuple[bytes, bytes]]
PROBE_METHODS = ("GET", "HEAD")
JSON_TYPE = (b"content-type", b"application/json")
GOES_THE_USUAL_WAY = (b"origin", API_KEY_HEADER.encode())
QUEUE_FULL = ADMISSIONS_REFUSED.labels("queue_full")


def busy_answer(path: str, accept: bytes | None) -> tuple[Headers, bytes]:
    """Admission's 503 for a request to `path` with this Accept header: its headers and body."""
    headers = [(b"accept", accept)] if accept is not None else []
    response = refusal({"type": "http", "path": path, "headers": headers}, 503, BUSY, BUSY_HEADERS)
    return response.raw_headers, bytes(response.body)


@lru_cache(maxsize=64)
def _modern(accept: bytes | None) -> bool:
    """Whether /graphql answers this Accept header in application/graphql-response+json."""
    return response_media_type(accept.decode("latin-1") if accept is not None else None) == GRAPHQL_RESPONSE


class FrontDoor:
    def __init__(self, app: ASGIApp, places: Places, probes: Probes) -> None:
        self.app = app
        self.places = places
        self.probes = probes
        self.busy = {
            (True, True): busy_answer(GRAPHQL_PATH, None),
            (True, False): busy_answer(GRAPHQL_PATH, b"application/json"),
            (False, False): busy_answer("/tools", None),
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
        elif scope["path"] in ("/healthz", "/readyz") and scope["method"] in PROBE_METHODS:
            await self.probe(scope, send)
        elif self.places.full() and guarded(scope):
            await self.refuse(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def probe(self, scope: Scope, send: Send) -> None:
        status, body = (200, ALIVE) if scope["path"] == "/healthz" else await self.probes.ready()
        identity = RequestIdentity.of_headers(dict(scope["headers"]))
        length = (b"content-length", str(len(body)).encode())
        await _answer(send, status, [JSON_TYPE, length, *identity.headers()], body)

    async def refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        headers = dict(scope["headers"])
        if any(name in headers for name in GOES_THE_USUAL_WAY):
            await self.app(scope, receive, send)
            return
        graphql = scope["path"] == GRAPHQL_PATH
        answer, body = self.busy[graphql, graphql and _modern(headers.get(b"accept"))]
        shed(scope)
        await _answer(send, 503, [*answer, *RequestIdentity.of_headers(headers).headers()], body)
        QUEUE_FULL.inc()
        metrics.record(Observation(surface(scope["path"]), error=BUSY.code), 503, time.perf_counter() - started)


async def _answer(send: Send, status: int, headers: Headers, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
