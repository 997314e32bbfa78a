"""Slow, oversized and vanishing clients against `isnad-graphql serve`, over raw sockets (`app/http/slow_clients.py`).

A connection that sends nothing, a head that trickles in, a body that stops half way, a head too large or
with too many headers: each is closed within its bound, with a 408 or 431 in the error envelope where a
request had begun, instead of holding a worker's connection for as long as the client likes. A client
that leaves in the middle of its upload costs at most one quiet line in the log, never a traceback.
"""

import socket
import tempfile
import time
from collections.abc import Iterator
from typing import IO

import httpx
import orjson
import pytest

from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA
from tests.live_server import api_logging_to

TIMEOUT_MS = 600  # the head's and the body's bound in these tests
BOUND_S = 5.0  # what a test waits for the server to act, far over TIMEOUT_MS on a loaded machine
MAX_HEADERS = 100  # the defaults
MAX_HEADER_BYTES = 16_384
LEAVING_CLIENTS = 20
BODY = orjson.dumps({"hadith_id": 100001})


@pytest.fixture(scope="module")
def log() -> Iterator[IO[bytes]]:
    with tempfile.TemporaryFile() as file:
        yield file


@pytest.fixture(scope="module")
def server(imported: ImportReport, database_url: str, log: IO[bytes]) -> Iterator[tuple[str, int]]:
    bounds = {"ISNAD_HEADER_TIMEOUT_MS": str(TIMEOUT_MS), "ISNAD_BODY_TIMEOUT_MS": str(TIMEOUT_MS)}
    with api_logging_to(log, database_url, LIVE_SCHEMA, bounds) as base:
        host, port = base.removeprefix("http://").split(":")
        yield host, int(port)


def _connect(server: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(server, timeout=BOUND_S)
    sock.settimeout(BOUND_S)
    return sock


def _until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a timeout fails the test)."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def _status_and_body(answer: bytes) -> tuple[int, dict[str, object]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"connection: close" in head.lower()
    return int(head.split(b" ", 2)[1]), orjson.loads(body)


def _head(path: str, *headers: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "host: isnad.test", "content-type: application/json", *headers]
    return ("\r\n".join(lines) + "\r\n").encode()


def test_a_connection_that_sends_nothing_is_closed(server: tuple[str, int]) -> None:
    with _connect(server) as sock:
        started = time.monotonic()
        assert _until_closed(sock) == b""
        assert time.monotonic() - started < BOUND_S


def test_a_head_that_trickles_in_is_answered_408(server: tuple[str, int]) -> None:
    with _connect(server) as sock:
        sock.sendall(_head("/tools/get_hadith"))
        for _ in range(4 * TIMEOUT_MS // 100):  # a header byte every 100 ms, past the bound
            try:
                sock.sendall(b"x")
            except OSError:
                break
            time.sleep(0.1)
        status, body = _status_and_body(_until_closed(sock))
    assert status == 408
    assert body == {"error": {"code": "QUERY_REJECTED", "message": "The request's headers did not arrive in time."}}


def test_a_body_that_stops_half_way_is_answered_408(server: tuple[str, int]) -> None:
    with _connect(server) as sock:
        sock.sendall(_head("/graphql", "accept: application/json", f"content-length: {len(BODY)}") + b"\r\n")
        sock.sendall(BODY[:5])
        status, body = _status_and_body(_until_closed(sock))
    assert status == 408
    assert body == {
        "errors": [
            {
                "message": "The request's body did not arrive in time.",
                "extensions": {"code": "QUERY_REJECTED"},
            }
        ]
    }


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ([f"x-filler-{n}: {n}" for n in range(MAX_HEADERS + 1)], "The request has too many headers."),
        ([f"x-filler: {'a' * MAX_HEADER_BYTES}"], "The request's headers are too large."),
    ],
    ids=["too-many", "too-large"],
)
def test_a_head_over_its_limits_is_answered_431(server: tuple[str, int], headers: list[str], message: str) -> None:
    with _connect(server) as sock:
        sock.sendall(_head("/tools/get_hadith", *headers, f"content-length: {len(BODY)}") + b"\r\n" + BODY)
        status, body = _status_and_body(_until_closed(sock))
    assert status == 431
    assert body == {"error": {"code": "LIMIT_EXCEEDED", "message": message, "alias": "limit_exceeded"}}


def test_a_megabyte_header_is_refused_before_it_is_read_whole(server: tuple[str, int]) -> None:
    """The server closes while the client still sends: the client sees the 431 or a reset, never an answer
    that ran."""
    answer = b""
    with _connect(server) as sock:
        try:
            sock.sendall(_head("/tools/get_hadith", f"x-filler: {'a' * 1_000_000}") + b"\r\n")
            answer = _until_closed(sock)
        except ConnectionResetError:  # the server closed with the client's bytes unread: the kernel resets
            pass
    assert answer == b"" or answer.startswith(b"HTTP/1.1 431 ")


def test_a_head_within_its_limits_is_served(server: tuple[str, int]) -> None:
    headers = [f"x-filler-{n}: {n}" for n in range(MAX_HEADERS - 10)]
    with _connect(server) as sock:
        head = _head("/tools/get_hadith", *headers, f"content-length: {len(BODY)}", "connection: close")
        sock.sendall(head + b"\r\n" + BODY)
        answer = _until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 200 ")


def test_clients_that_leave_mid_upload_leave_no_traceback(server: tuple[str, int], log: IO[bytes]) -> None:
    before = log.seek(0, 2)
    for _ in range(LEAVING_CLIENTS):
        with _connect(server) as sock:
            sock.sendall(_head("/tools/get_hadith", f"content-length: {len(BODY)}") + b"\r\n" + BODY[:5])
    time.sleep(0.5)
    with _connect(server) as sock:  # the server still serves
        sock.sendall(_head("/tools/get_hadith", f"content-length: {len(BODY)}", "connection: close") + b"\r\n" + BODY)
        assert _until_closed(sock).startswith(b"HTTP/1.1 200 ")
    log.seek(before)
    written = log.read().decode()
    assert "Traceback" not in written
    assert len(written.splitlines()) <= LEAVING_CLIENTS


def test_each_refusal_is_counted_by_its_reason(server: tuple[str, int]) -> None:
    with _connect(server) as sock:
        sock.sendall(_head("/tools/get_hadith", *[f"x-{n}: {n}" for n in range(MAX_HEADERS + 1)]) + b"\r\n")
        _until_closed(sock)
    scraped = httpx.get(f"http://{server[0]}:{server[1]}/metrics", timeout=BOUND_S).text
    counted = [line for line in scraped.splitlines() if line.startswith("isnad_connections_refused_total{")]
    assert any('reason="too_many_headers"' in line and float(line.split()[-1]) >= 1 for line in counted)
