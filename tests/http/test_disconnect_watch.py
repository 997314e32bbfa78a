"""A lost connection cancels its request's work where `serve`'s protocol watches it (`app/http/disconnect.py`):
the app's task is cancelled in the turn that loses the connection, its cancellation ends quietly in one log
line, and a connection lost after its answer cancels nothing. (`tests/execution/test_deadlines.py` drives the
same through a real server and a statement in flight, and the ASGI way without the protocol.)"""

import asyncio
import logging

import pytest
from starlette.types import Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.server import ServerState

from app.http.disconnect import CancelOnDisconnect
from app.http.slow_clients import GuardedProtocol
from tests.http.conftest import Transport

REQUEST = b"POST /graphql HTTP/1.1\r\nhost: isnad.test\r\ncontent-length: 2\r\n\r\n{}"


class Work:
    """An app that answers at once, or waits until cancelled when `waits`; what happened to it."""

    def __init__(self, waits: bool) -> None:
        self.waits = waits
        self.started = asyncio.Event()
        self.cancelled = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await receive()
        self.started.set()
        try:
            if self.waits:
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})


async def served(work: Work) -> tuple[GuardedProtocol, ServerState]:
    """A connection of `serve`'s protocol whose request `work` is serving."""
    config = Config(app=CancelOnDisconnect(work), http=GuardedProtocol, lifespan="off", proxy_headers=False)
    state = ServerState()
    protocol = GuardedProtocol(config=config, server_state=state, app_state={})
    protocol.connection_made(Transport())
    protocol.data_received(REQUEST)
    await asyncio.wait_for(work.started.wait(), 10)
    return protocol, state


async def test_a_connection_lost_before_the_answer_cancels_the_work_quietly(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    work = Work(waits=True)
    protocol, state = await served(work)
    (task,) = state.tasks
    protocol.connection_lost(None)
    await asyncio.wait_for(task, 10)
    assert work.cancelled
    assert not task.cancelled()  # the cancellation ended in the middleware, not in uvicorn's task
    lines = [record for record in caplog.records if record.levelno >= logging.INFO]
    assert [record.getMessage() for record in lines] == [
        "client left before its answer: POST /graphql, its work cancelled"
    ]
    assert all(record.exc_info is None for record in lines)


async def test_a_connection_lost_after_the_answer_cancels_nothing() -> None:
    work = Work(waits=False)
    protocol, state = await served(work)
    for task in list(state.tasks):
        await asyncio.wait_for(task, 10)
    protocol.connection_lost(None)
    await asyncio.sleep(0.01)
    assert not work.cancelled
