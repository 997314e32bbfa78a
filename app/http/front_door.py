"""The front door: the first middleware, which answers what must stay cheap while a worker is overloaded,
before the other middleware, routing and the request log.

- `GET`/`HEAD` `/healthz` and `/readyz` (`app/http/probes.py`): a probe waits for no middleware's task, so it
  answers within the loop turn that reads it.
- A request that admission could not take, and that `serve`'s protocol did not shed already
  (`app/http/shedding.py`): admission's 503, built once, and its connection rests (`app/http/admission.py`).

Every answer here carries `X-Request-Id` (and `traceresponse` in a caller's trace), as the others do.
"""

from starlette.types import ASGIApp, Receive, Scope, Send

from app.http.admission import shed
from app.http.probes import PROBE_METHODS, PROBE_PATHS, Probes, probe_headers
from app.http.shedding import Headers, Shedding


class FrontDoor:
    def __init__(self, app: ASGIApp, shedding: Shedding, probes: Probes) -> None:
        self.app = app
        self.shedding = shedding
        self.probes = probes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
        elif scope["path"] in PROBE_PATHS and scope["method"] in PROBE_METHODS:
            await self.probe(scope, send)
        elif self.shedding.places.full() and (answer := self.shedding.answer(scope["path"], dict(scope["headers"]))):
            shed(scope, answer.retry_after_s)
            await _answer(send, 503, answer.headers, answer.body)
        else:
            await self.app(scope, receive, send)

    async def probe(self, scope: Scope, send: Send) -> None:
        status, body = await self.probes.answer(scope["path"])
        await _answer(send, status, probe_headers(body, dict(scope["headers"])), body)


async def _answer(send: Send, status: int, headers: Headers, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
