"""Bounds on what a client may hold of a worker before its request reaches the app: uvicorn has none.

uvicorn (0.54, on httptools) closes an idle kept-alive connection after `timeout_keep_alive`, but waits
without end for a request's head (a fresh connection that sends nothing, or one byte every few seconds)
and for its body, and takes headers of any size and number (httptools buffers a header whole, 1 MB as
well). `GuardedProtocol` is its httptools protocol with these bounds, each checked as the bytes arrive:

    a connection's first request, or a request's head, not complete ISNAD_HEADER_TIMEOUT_MS after the
        connection opened or its first byte came     -> 408, closed (a connection that sent nothing: closed)
    a body not complete ISNAD_BODY_TIMEOUT_MS after its head, while the app waits for it
                                                     -> 408 when nothing was answered yet, closed
    a head of more than ISNAD_MAX_HEADER_BYTES, or more than ISNAD_MAX_HEADERS headers
                                                     -> 431, closed, and the app never sees the request

Each refusal carries the error envelope of the path asked (`app/refusals.py`), is counted in
`isnad_connections_refused_total{reason}` and logged in one line at INFO, never with a traceback.
`serve` and the test server run uvicorn with `--http app.http.slow_clients:GuardedProtocol`, which builds on
`app/http/shedding_protocol.py`'s protocol (overload: shedding at the connection, resting refused ones).
"""

import asyncio
import logging
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE

from app.errors import ApiError, LimitExceeded, QueryRejected
from app.http.refusals import refusal
from app.http.shedding_protocol import SheddingProtocol
from app.metrics import CONNECTIONS_REFUSED
from app.settings import Settings, load_settings

PROTOCOL = "app.http.slow_clients:GuardedProtocol"  # uvicorn's `--http` / `http=` for it
logger = logging.getLogger("isnad_graphql")


@cache
def _settings() -> Settings:
    """Read once per worker, from the environment its app factory reads too."""
    return load_settings()


class GuardedProtocol(SheddingProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = _settings()
        self.head_timeout_s = settings.header_timeout_ms / 1000
        self.body_timeout_s = settings.body_timeout_ms / 1000
        self.max_head_bytes = settings.max_header_bytes
        self.max_headers = settings.max_headers
        self.timer: asyncio.TimerHandle | None = None
        self.head_begun = False  # a request's first byte came and its head is not complete yet
        self.reading_body = False  # its head is complete and its body is not
        self.head_bytes = 0  # of the head parsed so far: its URL and its complete headers
        self.head_buffered = 0  # bytes that came while a head was incomplete, which httptools buffers
        self.header_count = 0
        self.refused = False  # a refusal was written: nothing more is read

    # --- the connection ---------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.head_timeout_s, self._head_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        within_head = self.head_begun
        super().data_received(data)
        if within_head and self.head_begun and not self.refused:  # a header that never ends is refused
            self.head_buffered += len(data)  # before httptools has buffered it whole
            self._check_head(self.head_buffered)

    # --- httptools' callbacks ---------------------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_begun = True
        self.head_bytes = self.head_buffered = self.header_count = 0
        self._arm(self.head_timeout_s, self._head_too_slow)

    def on_url(self, url: bytes) -> None:
        self.head_bytes += len(url)
        self._check_head(self.head_bytes)
        if not self.refused:
            super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        if self.refused:
            return
        self.header_count += 1
        self.head_bytes += len(name) + len(value) + 4  # ": " and CRLF
        if self.header_count > self.max_headers:
            self._refuse(431, LimitExceeded("The request has too many headers."), "too_many_headers")
            return
        self._check_head(self.head_bytes)
        if not self.refused:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm()
        if self.refused:
            return
        self.head_begun, self.reading_body = False, True
        super().on_headers_complete()
        self._arm(self.body_timeout_s, self._body_too_slow)

    def on_body(self, body: bytes) -> None:
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self.refused:
            return
        self.reading_body = False
        self._disarm()
        super().on_message_complete()

    # --- the bounds -------------------------------------------------------------------------------------

    def _check_head(self, size: int) -> None:
        if size > self.max_head_bytes and not self.refused:
            self._refuse(431, LimitExceeded("The request's headers are too large."), "head_too_large")

    def _head_too_slow(self) -> None:
        if not self.head_begun:  # a connection that sent nothing (or nothing more) is closed without a word
            self._count_and_log("idle", "a connection that sent no request")
            self.transport.close()
            return
        self._refuse(408, QueryRejected("The request's headers did not arrive in time."), "header_timeout")

    def _body_too_slow(self) -> None:
        cycle = self.cycle
        if cycle is None or cycle.response_started:  # the app answered before its body came: only close
            self._count_and_log("body_timeout", "a request body that did not arrive in time")
            self.transport.close()
            return
        cycle.disconnected = True  # the app's work is cancelled as for a client that left, and writes nothing
        cycle.message_event.set()
        self._refuse(408, QueryRejected("The request's body did not arrive in time."), "body_timeout")

    def _refuse(self, status: int, error: ApiError, reason: str) -> None:
        self.refused = True
        self._disarm()
        self._count_and_log(reason, f"{status} {error.message}")
        self.transport.write(self._answer(status, error))
        self.transport.close()

    def _answer(self, status: int, error: ApiError) -> bytes:
        """The refusal as bytes on the wire, in the envelope of the path asked, closing the connection."""
        path = getattr(self, "url", b"").partition(b"?")[0].decode("latin-1")
        response = refusal({"type": "http", "path": path, "headers": self.headers or []}, status, error)
        head = [STATUS_LINE[status], *(name + b": " + value + b"\r\n" for name, value in response.raw_headers)]
        return b"".join([*head, b"connection: close\r\n\r\n", response.body])

    def _count_and_log(self, reason: str, what: str) -> None:
        CONNECTIONS_REFUSED.labels(reason).inc()
        client = "%s:%d" % self.client if self.client else "a client"  # noqa: UP031 - uvicorn's own form
        logger.info("closed the connection of %s: %s", client, what)

    def _arm(self, seconds: float, handler: Any) -> None:
        self._disarm()
        self.timer = self.loop.call_later(seconds, handler)

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
