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
from app.http.probes import ALIVE, Probes
from app.http.request_log import RequestIdentity
from app.http.shedding import Headers, Shedding

PROBE_METHODS = ("GET", "HEAD")
JSON_TYPE = (b"content-type", b"application/json")


class FrontDoor:
    def __init__(self, app: ASGIApp, shedding: Shedding, probes: Probes) -> None:
        self.app = app
        self.shedding = shedding
        self.probes = probes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
        elif scope["path"] in ("/healthz", "/readyz") and scope["method"] in PROBE_METHODS:
            await self.probe(scope, send)
        elif self.shedding.places.full() and (answer := self.shedding.answer(scope["path"], dict(scope["headers"]))):
            shed(scope)
            await _answer(send, 503, *answer)
        else:
            await self.app(scope, receive, send)

    async def probe(self, scope: Scope, send: Send) -> None:
        status, body = (200, ALIVE) if scope["path"] == "/healthz" else await self.probes.ready()
        identity = RequestIdentity.of_headers(dict(scope["headers"]))
        await _answer(
            send, status, [JSON_TYPE, (b"content-length", str(len(body)).encode()), *identity.headers()], body
        )


async def _answer(send: Send, status: int, headers: Headers, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
