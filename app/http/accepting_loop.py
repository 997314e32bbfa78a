"""The event loop `serve` runs: uvloop's, with a listener that accepts every connection waiting at each turn.

Since libuv 1.45 (libuv/libuv#3696) uvloop's own listener accepts one connection per turn of its loop, and under
load a turn lasts tens of milliseconds: under 1,000 connections hundreds waited in the listen queue for seconds
(docs/production.md, "Under overload"). asyncio's loop accepts up to the backlog at each turn, but runs the loop in
Python, a tenth of a lookup's CPU (docs/performance.md, "The lookups since issue 6"). Here uvloop runs the loop and
the connections; the listening socket alone is read as asyncio reads it, every connection waiting accepted at once,
and each handed to uvloop as a connection it accepted itself (`connect_accepted_socket`).

uvicorn takes the loop by its import string (`serve`'s `loop=`, LOOP) and hands it the listening socket that
`serve` binds (`create_server(..., sock=...)`).
"""

import asyncio
import errno
import logging
import socket
from collections.abc import Callable
from typing import Any

import uvloop

LOOP = "app.http.accepting_loop:AcceptingLoop"  # uvicorn's `loop=` for it
RETRY_DELAY_S = 1.0  # out of file descriptors (or buffers): the listener rests this long, as asyncio's does
# What an accept may fail with while the listener stays sound: the system is out of a resource for a while.
OUT_OF = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
logger = logging.getLogger("isnad_graphql")


class Listener:
    """A listening socket that the loop reads: at each turn, up to `backlog` waiting connections are accepted, each
    served by a protocol of `protocol_factory` on a transport of the loop's own. What uvicorn asks of a server:
    `sockets`, `close()`, `wait_closed()`."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, sock: socket.socket, protocol_factory: Callable[[], Any], backlog: int
    ) -> None:
        self._loop, self._sock, self._protocol_factory, self._backlog = loop, sock, protocol_factory, backlog
        self._opening: set[asyncio.Task[None]] = set()
        self._listening = True
        sock.setblocking(False)
        sock.listen(backlog)  # as asyncio's server does with a socket it is given (uvicorn's is bound, not listening)
        loop.add_reader(sock.fileno(), self._accept_waiting)

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return (self._sock,)

    def _accept_waiting(self) -> None:
        for _ in range(self._backlog):
            try:
                connection, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue  # the client left before it was accepted
            except OSError as error:
                if error.errno not in OUT_OF:
                    raise  # the loop logs it, as asyncio's does
                self._rest(error)
                return
            task = self._loop.create_task(self._open(connection))
            self._opening.add(task)
            task.add_done_callback(self._opening.discard)

    def _rest(self, error: OSError) -> None:
        """Stop reading the socket for RETRY_DELAY_S: it stays readable while the resource lacks."""
        logger.warning("accepting connections paused for %.0f s: %s", RETRY_DELAY_S, error.strerror)
        self._loop.remove_reader(self._sock.fileno())
        self._loop.call_later(RETRY_DELAY_S, self._resume)

    def _resume(self) -> None:
        if self._listening:
            self._loop.add_reader(self._sock.fileno(), self._accept_waiting)

    async def _open(self, connection: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._protocol_factory, connection)
        except OSError:  # the client left while its transport was made
            connection.close()

    def close(self) -> None:
        if self._listening:
            self._listening = False
            self._loop.remove_reader(self._sock.fileno())
            self._sock.close()

    async def wait_closed(self) -> None:
        await asyncio.gather(*self._opening, return_exceptions=True)


class AcceptingLoop(uvloop.Loop):
    """uvloop's loop, whose server on a given listening socket (without TLS) is a `Listener`."""

    async def create_server(self, protocol_factory: Callable[[], Any], *args: Any, **kwargs: Any) -> Any:
        sock, backlog = kwargs.get("sock"), kwargs.get("backlog", 100)
        if args or sock is None or kwargs.get("ssl") is not None:
            return await super().create_server(protocol_factory, *args, **kwargs)
        return Listener(self, sock, protocol_factory, backlog)
