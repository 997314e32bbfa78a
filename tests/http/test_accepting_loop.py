"""The loop `serve` runs accepts every connection waiting at each turn (app/http/accepting_loop.py): uvloop's own
listener took one a turn, and under load hundreds of clients waited in the listen queue."""

import asyncio
import errno
import logging
import socket
from typing import Any

import pytest

from app.http.accepting_loop import RETRY_DELAY_S, AcceptingLoop, Listener

WAITING = 64  # connections the kernel holds before the loop's first turn
TURNS = 10  # turns of the loop they are given to be accepted and made


class _Counted(asyncio.Protocol):
    def __init__(self, made: list[asyncio.BaseTransport]) -> None:
        self._made = made

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._made.append(transport)


async def _serve_for(turns: int, listening: socket.socket, made: list[asyncio.BaseTransport]) -> Listener:
    """The loop's server on `listening` for `turns` turns, then closed."""
    server = await asyncio.get_running_loop().create_server(lambda: _Counted(made), sock=listening, backlog=128)
    for _ in range(turns):
        await asyncio.sleep(0)
    server.close()
    await server.wait_closed()
    for transport in made:
        transport.close()
    assert isinstance(server, Listener)
    return server


@pytest.fixture
def listening() -> socket.socket:
    return socket.create_server(("127.0.0.1", 0), backlog=128)


def test_every_connection_waiting_is_accepted_within_a_few_turns_of_the_loop(listening: socket.socket) -> None:
    port = listening.getsockname()[1]
    clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(WAITING)]  # queued, none accepted yet
    made: list[asyncio.BaseTransport] = []
    loop = AcceptingLoop()
    try:
        loop.run_until_complete(_serve_for(TURNS, listening, made))
    finally:
        loop.close()
        for client in clients:
            client.close()

    assert len(made) == WAITING


def test_a_closed_listener_takes_no_more_connections(listening: socket.socket) -> None:
    port = listening.getsockname()[1]
    loop = AcceptingLoop()
    try:
        loop.run_until_complete(_serve_for(1, listening, []))
    finally:
        loop.close()

    assert listening.fileno() == -1
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


class _OutOfDescriptorsOnce(socket.socket):
    """A listening socket whose first accept fails as it does in a process out of file descriptors."""

    failed = False

    def accept(self) -> tuple[socket.socket, Any]:
        if not self.failed:
            self.failed = True
            raise OSError(errno.EMFILE, "Too many open files")
        return super().accept()


def test_out_of_file_descriptors_the_listener_rests_then_accepts_again(caplog: pytest.LogCaptureFixture) -> None:
    listening = _OutOfDescriptorsOnce(socket.AF_INET, socket.SOCK_STREAM)
    listening.bind(("127.0.0.1", 0))
    listening.listen(8)
    client = socket.create_connection(listening.getsockname())
    made: list[asyncio.BaseTransport] = []

    async def served() -> tuple[int, int]:
        server = await asyncio.get_running_loop().create_server(lambda: _Counted(made), sock=listening, backlog=8)
        await asyncio.sleep(RETRY_DELAY_S / 2)
        resting = len(made)
        await asyncio.sleep(RETRY_DELAY_S)
        server.close()
        await server.wait_closed()
        for transport in made:
            transport.close()
        return resting, len(made)

    loop = AcceptingLoop()
    try:
        with caplog.at_level(logging.WARNING, logger="isnad_graphql"):
            assert loop.run_until_complete(served()) == (0, 1)
    finally:
        loop.close()
        client.close()

    assert "accepting connections paused for 1 s: Too many open files" in caplog.text
