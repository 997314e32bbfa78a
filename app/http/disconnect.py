"""A client that leaves before its answer cancels the work done for it.

`CancelOnDisconnect` runs each HTTP request's app in its own task and cancels that task when the client
leaves before the answer is complete: the statement in flight is cancelled on the server and the connection
goes back settled (`app/data/database.py`), with one quiet line in the log, never a traceback.

How the leaving is learnt: `serve`'s protocol (`app/http/shedding_protocol.py`) puts a `Watch` on each
request's scope and calls it when it loses the connection, which costs a request no task. An app served
without that protocol learns it the ASGI way: a task reads the client's messages for the app (the body as
the app asks for it, one message ahead at most) and meets the server's `http.disconnect`.
"""

import asyncio
import logging
from typing import cast

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

logger = logging.getLogger("isnad_graphql")
DISCONNECT: Message = {"type": "http.disconnect"}
WATCH = "isnad.watch"  # the scope's key of the request's `Watch`, where the server watches its connection


class Watch:
    """One request's link from its connection to the task that answers it."""

    __slots__ = ("left", "work")

    def __init__(self) -> None:
        self.work: asyncio.Task[object] | None = None  # while the app runs
        self.left = False

    def client_left(self) -> None:
        """The client left before its answer was complete: cancel the work, if it still runs."""
        self.left = True
        if self.work is not None:
            self.work.cancel()


class WatchingProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, telling each request's `Watch` when it loses the connection before the
    request's answer is complete."""

    def on_headers_complete(self) -> None:
        cast(Scope, self.scope)[WATCH] = Watch()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and isinstance(watch := cycle.scope.get(WATCH), Watch):
            watch.client_left()
        super().connection_lost(exc)


class CancelOnDisconnect:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        work = asyncio.current_task()
        if scope["type"] != "http" or work is None:
            await self.app(scope, receive, send)
            return
        watch: Watch | None = scope.get(WATCH)
        listening = None
        if watch is None:
            watch = Watch()
            exchange = _Exchange(send, watch)
            listening = asyncio.create_task(exchange.listen(receive))
            receive, send = exchange.inbox.get, exchange.send
        watch.work = work
        try:
            await self.app(scope, receive, send)
        except asyncio.CancelledError:
            if not watch.left or work.uncancel() > 0:
                raise  # cancelled from outside (the server stops), not (only) by the client's leaving
            logger.info("client left before its answer: %s %s, its work cancelled", scope["method"], scope["path"])
        finally:
            watch.work = None
            if listening is not None:
                listening.cancel()


class _Exchange:
    """One request's messages, where no server watches its connection: the client's, handed to the app one
    at a time, and whether the answer is complete or the client left first."""

    def __init__(self, send: Send, watch: Watch) -> None:
        self.inbox: asyncio.Queue[Message] = asyncio.Queue(maxsize=1)  # the body is read as the app reads it
        self._send = send
        self.watch = watch
        self.answered = False

    async def send(self, message: Message) -> None:
        await self._send(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            self.answered = True

    async def listen(self, receive: Receive) -> None:
        """Hand the client's messages to the app; on `http.disconnect` before the answer is complete,
        say that the client left; then answer every later read with the disconnect."""
        while (message := await receive())["type"] != "http.disconnect":
            await self.inbox.put(message)
        if not self.answered:
            self.watch.client_left()
        while True:
            await self.inbox.put(DISCONNECT)
