"""The middleware that observes every HTTP request, outermost: it gives the request its id (and its
place in the caller's trace), says them in the answer's headers, and once the answer is sent, counts
it in the metrics (`app/metrics.py`) and writes its line (`app/http/request_log.py`).

What the request did (its operation, error code, SQL) is noted on its `Observation` by the code that
knows it (`app/observation.py`). The work per request is a few dictionary lookups and additions; the
log line is built only when it goes somewhere.
"""

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics
from app.http import request_log
from app.http.browser_policy import NOSNIFF
from app.http.request_log import RequestIdentity
from app.observation import Observation, forget, observe

SURFACES = {"/graphql": "graphql", "/tools": "tools", "/mcp": "mcp"}
UNANSWERED = 500  # what an exception that escaped before any answer becomes (Starlette's error page)


def surface(path: str) -> str:
    """The surface a path belongs to: graphql, tools, mcp, or other."""
    return SURFACES.get(path) or ("tools" if path.startswith("/tools/") else "other")


class Observed:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        arrived, started = time.time(), time.perf_counter()
        identity = RequestIdentity.of_headers(dict(scope["headers"]))
        observation = Observation(surface(scope["path"]))
        status = UNANSWERED

        async def answer(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *identity.headers(), NOSNIFF]
            await send(message)

        token = observe(observation)
        try:
            await self.app(scope, receive, answer)
        finally:
            forget(token)
            seconds = time.perf_counter() - started
            metrics.record(observation, status, seconds)
            if request_log.wanted():
                request_log.write(observation, identity, scope["method"], scope["path"], status, arrived, seconds)
