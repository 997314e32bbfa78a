"""A client that leaves before its answer cancels the work done for it.

`CancelOnDisconnect` runs each HTTP request's app in a task of its own and reads the client's messages
for it: the body as the app asks for it (one message ahead at most), then, while the app works, the
server's `http.disconnect`. When that comes before the answer has been sent, the app's task is cancelled:
the statement in flight is cancelled on the server and the connection goes back settled
(`app/data/database.py`), with one quiet line in the log, never a traceback.
"""

import asyncio
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("isnad_graphql")
DISCONNECT: Message = {"type": "http.disconnect"}


class CancelOnDisconnect:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        exchange = _Exchange(send)
        work = asyncio.create_task(self.serve(scope, exchange))
        listening = asyncio.create_task(exchange.listen(receive, work))
        try:
            await work
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if not exchange.left or (current is not None and current.cancelling()):
                raise  # cancelled from outside (the server stops), not by the client's leaving
            logger.info("client left before its answer: %s %s, its work cancelled", scope["method"], scope["path"])
        finally:
            listening.cancel()

    async def serve(self, scope: Scope, exchange: "_Exchange") -> None:
        await self.app(scope, exchange.inbox.get, exchange.send)


class _Exchange:
    """One request's messages: the client's, handed to the app one at a time, and whether the answer is
    complete or the client left first."""

    def __init__(self, send: Send) -> None:
        self.inbox: asyncio.Queue[Message] = asyncio.Queue(maxsize=1)  # the body is read as the app reads it
        self._send = send
        self.answered = False
        self.left = False

    async def send(self, message: Message) -> None:
        await self._send(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            self.answered = True

    async def listen(self, receive: Receive, work: "asyncio.Task[None]") -> None:
        """Hand the client's messages to the app; on `http.disconnect` before the answer is complete,
        cancel the app's work; then answer every later read with the disconnect."""
        while (message := await receive())["type"] != "http.disconnect":
            await self.inbox.put(message)
        if not self.answered:
            self.left = True
            work.cancel()
        while True:
            await self.inbox.put(DISCONNECT)
