"""A TCP proxy in front of the test PostgreSQL, that a test can take down and bring back.

`TcpProxy(database_url)` listens on 127.0.0.1 and forwards every connection to the server of
`database_url`: its unix socket (`?host=/dir` -> `/dir/.s.PGSQL.<port>`) or its host:port.
`stop()` closes the listening socket and cuts every open connection, as a database that goes
down would; `start()` listens again on the same port. `stall()` keeps every connection open and
accepts new ones, but forwards nothing either way, as a link that hangs would (nothing is refused,
nothing answers); `resume()` forwards again what was held.
"""

import asyncio
import contextlib
import socket
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

DEFAULT_PORT = 5432
CHUNK = 65536


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def with_address(database_url: str, host: str, port: int) -> str:
    """`database_url` with its server replaced by host:port (a `host` query parameter removed)."""
    parts = urlsplit(database_url)
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = f"{userinfo}@{host}:{port}" if userinfo else f"{host}:{port}"
    query = {key: values for key, values in parse_qs(parts.query).items() if key not in {"host", "port"}}
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, doseq=True)))


def server_address(database_url: str) -> tuple[str, int]:
    """The host (a unix socket's folder when it starts with /) and port of `database_url`'s server."""
    parts = urlsplit(database_url)
    query = parse_qs(parts.query)
    port = int(query.get("port", [parts.port or DEFAULT_PORT])[0])
    return query.get("host", [parts.hostname or "127.0.0.1"])[0], port


class TcpProxy:
    def __init__(self, database_url: str) -> None:
        host, port = server_address(database_url)
        self._unix_path = f"{host}/.s.PGSQL.{port}" if host.startswith("/") else None
        self._target = (host, port)
        self.port = free_port()
        self.url = with_address(database_url, "127.0.0.1", self.port)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[None]] = set()
        self._flowing = asyncio.Event()
        self._flowing.set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)

    def stall(self) -> None:
        """Forward nothing more, in either direction, on any connection, old or new."""
        self._flowing.clear()

    def resume(self) -> None:
        self._flowing.set()

    async def stop(self) -> None:
        """Stop listening and cut every connection that is open (stalled ones too)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for writer in list(self._writers):
            writer.close()
        for handler in list(self._handlers):
            handler.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        if server is not None:
            await server.wait_closed()

    async def _open_upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._unix_path is not None:
            return await asyncio.open_unix_connection(self._unix_path)
        return await asyncio.open_connection(*self._target)

    async def _handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        self._writers.add(client_writer)
        upstream_writer: asyncio.StreamWriter | None = None
        try:
            upstream_reader, upstream_writer = await self._open_upstream()
            self._writers.add(upstream_writer)
            await asyncio.gather(
                self._pipe(client_reader, upstream_writer),
                self._pipe(upstream_reader, client_writer),
                return_exceptions=True,
            )
        except OSError:
            pass
        finally:
            for writer in (client_writer, upstream_writer):
                if writer is not None:
                    self._writers.discard(writer)
                    writer.close()
                    with contextlib.suppress(OSError):
                        await writer.wait_closed()
            self._handlers.discard(task)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copy until either side closes, holding each chunk while the proxy is stalled; then close the
        other side too."""
        try:
            while data := await reader.read(CHUNK):
                await self._flowing.wait()
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()
