"""What a worker sheds before its app runs: a request to `/graphql`, `/tools` or `/mcp` that admission could
not take (no place free and its queue full, `app/http/admission.py`), answered 503 `UPSTREAM_UNAVAILABLE` with
`Retry-After`, the answer admission gives, its bytes built once at start-up.

`serve`'s protocol (`app/http/shedding_protocol.py`) sheds at the connection, before uvicorn builds the
request's task; the front door (`app/http/front_door.py`), the first middleware, sheds what reaches the app
(an app served without that protocol). A request with an `Origin` (its refusal needs CORS' headers) or an
API key (its client's rate limit answers 429 first) goes the usual way, where admission refuses it with the
same envelope. A shed request is counted in `isnad_admissions_refused_total{reason="queue_full"}` and
`isnad_requests_total`, and not written to the request log (under overload that would be a line a refusal).
"""

import time
from functools import lru_cache
from typing import NamedTuple

from app import metrics
from app.http.admission import BUSY, RETRY_AFTER_S, Places, busy_headers, guarded_path
from app.http.browser_policy import NOSNIFF
from app.http.graphql import GRAPHQL_RESPONSE, response_media_type
from app.http.observability import surface
from app.http.profiles import API_KEY_HEADER
from app.http.refusals import GRAPHQL_PATH, refusal
from app.http.request_log import RequestIdentity
from app.observation import Observation

Headers = list[tuple[bytes, bytes]]
GOES_THE_USUAL_WAY = (b"origin", API_KEY_HEADER.encode())
STATE_KEY = "isnad.shedding"  # the lifespan state's key that hands `Shedding` to the protocol
# A shed request's kind, (to /graphql, answered in application/graphql-response+json): a path and an Accept for it
KINDS = {
    (True, True): (GRAPHQL_PATH, None),
    (True, False): (GRAPHQL_PATH, b"application/json"),
    (False, False): ("/tools", None),
}


class Shed(NamedTuple):
    """The 503 that sheds a request, and the seconds of its `Retry-After`, for which its connection rests."""

    headers: Headers
    body: bytes
    retry_after_s: int


def busy_answer(path: str, accept: bytes | None, retry_after_s: int) -> tuple[Headers, bytes]:
    """Admission's 503 for a request to `path` with this Accept header: its headers and body."""
    headers = [(b"accept", accept)] if accept is not None else []
    response = refusal({"type": "http", "path": path, "headers": headers}, 503, BUSY, busy_headers(retry_after_s))
    return response.raw_headers, bytes(response.body)


@lru_cache(maxsize=64)
def _modern(accept: bytes | None) -> bool:
    """Whether /graphql answers this Accept header in application/graphql-response+json."""
    return response_media_type(accept.decode("latin-1") if accept is not None else None) == GRAPHQL_RESPONSE


class Shedding:
    def __init__(self, places: Places) -> None:
        self.places = places
        self.answers = {
            (*kind, seconds): busy_answer(path, accept, seconds)
            for kind, (path, accept) in KINDS.items()
            for seconds in RETRY_AFTER_S
        }

    def answer(self, path: str, headers: dict[bytes, bytes]) -> Shed | None:
        """The 503 that sheds a request to `path` with `headers` (names in lower case), counted; None when
        it is not to be shed here."""
        if not (self.places.full() and guarded_path(path)) or any(name in headers for name in GOES_THE_USUAL_WAY):
            return None
        started = time.perf_counter()
        graphql = path == GRAPHQL_PATH
        seconds = self.places.refuse("queue_full")
        answer, body = self.answers[graphql, graphql and _modern(headers.get(b"accept")), seconds]
        metrics.record(Observation(surface(path), error=BUSY.code), 503, time.perf_counter() - started)
        return Shed([*answer, *RequestIdentity.of_headers(headers).headers(), NOSNIFF], body, seconds)
