"""Admission: a bound on the requests each worker serves at once, so that overload is refused at once
instead of queueing until the database's pool times out.

Requests to `/graphql`, `/tools` and `/mcp` take one of `ISNAD_MAX_IN_FLIGHT` places. When none is
free, a request waits for one in a short queue: at most `ISNAD_MAX_QUEUED` requests, each for at most
`ISNAD_QUEUE_WAIT_MS`. A request the queue cannot take, or that waited its time out, is answered 503
`UPSTREAM_UNAVAILABLE` with `Retry-After`, in the error envelope of its surface (`app/http/refusals.py`),
before any of its work: 1 second in the first second of an overload, 2 in the next, 4 after that
(RETRY_AFTER_S, DOUBLES_EVERY_S), which cuts what a sustained overload spends on refusals to a quarter. The
overload ends when the worker has refused nothing for OVERLOAD_ENDS_S.

The queue is for bursts: a worker that has refused a request for capacity within OVERLOADED_S is
overloaded, not in a burst, and queues none (a queue that overload keeps full would add its wait to every
admitted request); when neither a place nor the queue can take a request, it is shed before the app runs
(`app/http/shedding.py`). Either way its connection is not read again for the seconds its `Retry-After`
says (`app/http/shedding_protocol.py`): a client that sends again at once cannot take the worker's time
from the admitted requests. Everything else (`/healthz`, `/readyz`, `/metrics`, GraphiQL's files) is never
held back. The bound is per worker process: N workers admit N times as many.
"""

import asyncio
import math
import time

from starlette.types import ASGIApp, Receive, Scope, Send

from app.errors import UpstreamUnavailable
from app.http.refusals import refusal
from app.metrics import ADMISSIONS_REFUSED

GUARDED_PATHS = ("/graphql", "/tools", "/mcp")
RETRY_AFTER_S = (1, 2, 4)  # a refusal's `Retry-After`, in the first second of an overload, the next, and after
BUSY = UpstreamUnavailable("The server is at capacity; retry shortly.")
OVERLOADED_S = 0.1  # a worker that refused a request for capacity this recently queues none
DOUBLES_EVERY_S = 1.0  # each second of an overload doubles the wait it asks for, up to the last of RETRY_AFTER_S
# A worker that has refused nothing for this long is out of its overload: every client it refused has had its
# Retry-After, and a second more. Shorter breaks are the same overload: its refused clients coming back.
OVERLOAD_ENDS_S = RETRY_AFTER_S[-1] + 1.0
SHED = "isnad.shed"  # on the scope of a request refused for capacity: the seconds its connection rests


def busy_headers(retry_after_s: int) -> dict[str, str]:
    return {"retry-after": str(retry_after_s)}


def shed(scope: Scope, retry_after_s: int) -> None:
    """Mark `scope` as refused for capacity: the server reads nothing more on its connection for
    `retry_after_s`, the wait its `Retry-After` asked for."""
    scope[SHED] = retry_after_s


def guarded(scope: Scope) -> bool:
    """Whether a request is one that admission and rate limits apply to: the API's own endpoints."""
    if scope["type"] != "http":  # the lifespan and websockets have no path to guard
        return False
    return guarded_path(scope["path"])


def guarded_path(path: str) -> bool:
    return any(path == p or path.startswith(f"{p}/") for p in GUARDED_PATHS)


class Places:
    """The bound of one worker: at most `max_in_flight` guarded requests at once (0: no bound), and a queue of
    at most `max_queued` requests waiting up to `max_wait_ms` for a place, which takes none while the worker is
    overloaded. The admission middleware takes places; `serve`'s protocol and the front door
    (`app/http/front_door.py`) read `full` to shed a request before any middleware."""

    def __init__(self, max_in_flight: int, max_queued: int, max_wait_ms: int) -> None:
        self.bounded = max_in_flight > 0
        self.places = asyncio.Semaphore(max(max_in_flight, 1))
        self.max_queued = max_queued
        self.max_wait_s = max_wait_ms / 1000
        self.queued = 0
        self.refused_at = -math.inf  # time.monotonic() of the last refusal for capacity
        self.overloaded_since = self.refused_at  # of the first refusal of the overload that the last one is in

    def full(self) -> bool:
        """No place free, and the queue full or the worker overloaded: a request arriving now would be shed."""
        return self.bounded and self.places.locked() and (self.queued >= self.max_queued or self.overloaded())

    def overloaded(self) -> bool:
        """A request was refused for capacity within OVERLOADED_S."""
        return time.monotonic() - self.refused_at < OVERLOADED_S

    def refuse(self, reason: str) -> int:
        """Count a request refused for capacity (`queue_full`: neither a place nor the queue could take it;
        `wait_over`: it waited its time out in the queue), and return the seconds of its `Retry-After`, which
        double with each DOUBLES_EVERY_S that the worker has refused with no break of OVERLOAD_ENDS_S."""
        now = time.monotonic()
        if now - self.refused_at >= OVERLOAD_ENDS_S:
            self.overloaded_since = now
        self.refused_at = now
        ADMISSIONS_REFUSED.labels(reason).inc()
        doublings = int((now - self.overloaded_since) / DOUBLES_EVERY_S)
        return RETRY_AFTER_S[min(doublings, len(RETRY_AFTER_S) - 1)]

    async def enter(self) -> int:
        """Take a place, at once or after a wait in the queue: 0; when the request is to be shed instead, the
        seconds of its `Retry-After`."""
        if not self.places.locked():
            await self.places.acquire()
            return 0
        if self.queued >= self.max_queued or self.overloaded():
            return self.refuse("queue_full")
        self.queued += 1
        try:
            await asyncio.wait_for(self.places.acquire(), self.max_wait_s)
        except TimeoutError:
            return self.refuse("wait_over")
        finally:
            self.queued -= 1
        return 0

    def leave(self) -> None:
        self.places.release()


class Admission:
    """ASGI middleware: each guarded request takes one of `places` for its whole run, or is answered 503."""

    def __init__(self, app: ASGIApp, places: Places) -> None:
        self.app = app
        self.places = places

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not (self.places.bounded and guarded(scope)):
            await self.app(scope, receive, send)
            return
        if retry_after_s := await self.places.enter():
            shed(scope, retry_after_s)
            await refusal(scope, 503, BUSY, busy_headers(retry_after_s))(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.places.leave()
