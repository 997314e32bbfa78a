"""A connection whose request was refused for capacity rests for its `Retry-After` (`app/http/slow_clients.py`):
`GuardedProtocol`, driven as uvicorn drives it over a transport that records what the protocol does to it,
stops reading it once the 503 is written, and reads it again afterwards; any other answer leaves it read."""

import asyncio
from typing import Any

from starlette.types import Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.server import ServerState

from app.http.admission import shed
from app.http.slow_clients import GuardedProtocol
from tests.http.test_admission import eventually


class Transport(asyncio.Transport):
    """What the protocol writes, and whether it reads."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.reading = True
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += bytes(data)

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("192.0.2.7", 40000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


async def busy_or_not(scope: Scope, receive: Receive, send: Send) -> None:
    """503 for /busy, refused for capacity as admission does; 200 for any other path."""
    status = 503 if scope["path"] == "/busy" else 200
    if status == 503:
        shed(scope)
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


async def answered(path: str) -> Transport:
    """The transport of a connection after one request to `path` was answered on it."""
    config = Config(app=busy_or_not, http=GuardedProtocol, lifespan="off", proxy_headers=False)
    protocol = GuardedProtocol(config=config, server_state=ServerState(), app_state={})
    transport = Transport()
    protocol.connection_made(transport)
    protocol.data_received(f"GET {path} HTTP/1.1\r\nhost: isnad.test\r\n\r\n".encode())
    await eventually(lambda: transport.written.endswith(b"\r\n\r\n"))
    return transport


async def test_a_connection_refused_for_capacity_is_not_read_until_its_retry_after_has_passed() -> None:
    transport = await answered("/busy")
    assert transport.written.startswith(b"HTTP/1.1 503 ")
    assert not transport.reading
    await eventually(lambda: transport.reading)


async def test_any_other_answer_leaves_its_connection_read() -> None:
    transport = await answered("/ok")
    assert transport.written.startswith(b"HTTP/1.1 200 ")
    assert transport.reading
