"""`serve`'s protocol under overload (`app/http/shedding_protocol.py`), driven as uvicorn drives it over a
transport that records what the protocol does to it: a request admission can take neither in a place nor in
its queue is answered 503 at the connection, the app never called; a connection whose request was refused for
capacity is not read until its `Retry-After` has passed, and is read again afterwards; any other answer
leaves it read. The probes are answered at the connection too, while no check of the database is needed."""

import asyncio
from typing import Any

import orjson
import pytest
from starlette.types import Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.server import ServerState

from app.data.data_version import ServedVersion
from app.data.database import Readiness
from app.http.admission import DOUBLES_EVERY_S, Places, shed
from app.http.probes import PROBES_KEY, Probes
from app.http.shedding import STATE_KEY, Shedding
from app.http.slow_clients import GuardedProtocol
from tests.conftest import api_settings
from tests.http.conftest import Clock, Transport, eventually, overload

SEEN: list[str] = []  # the paths the app was called for


async def busy_or_not(scope: Scope, receive: Receive, send: Send) -> None:
    """503 for /busy, refused for capacity as admission does; 200 for any other path."""
    SEEN.append(scope["path"])
    status = 503 if scope["path"] == "/busy" else 200
    if status == 503:
        shed(scope, 1)
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


async def full() -> Shedding:
    """Shedding over an admission whose one place is taken and whose queue holds nothing."""
    places = Places(max_in_flight=1, max_queued=0, max_wait_ms=250)
    assert await places.enter() == 0
    return Shedding(places)


async def answered(
    path: str, *headers: str, shedding: Shedding | None = None, probes: Probes | None = None, method: str = "POST"
) -> Transport:
    """The transport of a connection after one request to `path` was answered on it (a POST with a body of 2
    bytes; a GET or a HEAD with none)."""
    config = Config(app=busy_or_not, http=GuardedProtocol, lifespan="off", proxy_headers=False)
    state = {key: value for key, value in ((STATE_KEY, shedding), (PROBES_KEY, probes)) if value is not None}
    protocol = GuardedProtocol(config=config, server_state=ServerState(), app_state=state)
    transport = Transport()
    protocol.connection_made(transport)
    body = "{}" if method == "POST" else ""
    head = "".join(f"{header}\r\n" for header in ("host: isnad.test", f"content-length: {len(body)}", *headers))
    protocol.data_received(f"{method} {path} HTTP/1.1\r\n{head}\r\n{body}".encode())
    await eventually(lambda: b"\r\n\r\n" in transport.written)
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


async def test_a_request_admission_cannot_take_is_answered_at_the_connection() -> None:
    SEEN.clear()
    transport = await answered("/tools/get_hadith", "x-request-id: shed-2", shedding=await full())
    head, _, body = transport.written.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 ")
    assert b"\r\nretry-after: 1\r\n" in head
    assert b"\r\nx-request-id: shed-2" in head
    assert orjson.loads(body)["error"]["code"] == "UPSTREAM_UNAVAILABLE"
    assert SEEN == []
    assert not transport.reading


async def test_in_an_overload_of_a_second_a_refusal_asks_for_two_seconds_and_its_connection_rests_them(
    clock: Clock,
) -> None:
    shedding = await full()
    overload(shedding.places, clock, DOUBLES_EVERY_S, every=0.1)
    transport = await answered("/tools/get_hadith", shedding=shedding)
    head = transport.written.partition(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1.1 503 ")
    assert b"\r\nretry-after: 2\r\n" in head
    await asyncio.sleep(1.5)
    assert not transport.reading
    await eventually(lambda: transport.reading)


@pytest.mark.parametrize("header", ["connection: close", "origin: https://reader.example", "x-api-key: k"])
async def test_a_request_to_close_or_cross_origin_or_keyed_goes_to_the_app(header: str) -> None:
    SEEN.clear()
    await answered("/tools/get_hadith", header, shedding=await full())
    assert SEEN == ["/tools/get_hadith"]


async def test_with_room_in_admission_the_app_answers() -> None:
    SEEN.clear()
    transport = await answered("/tools/get_hadith", shedding=Shedding(Places(1, 0, 250)))
    assert transport.written.startswith(b"HTTP/1.1 200 ")
    assert SEEN == ["/tools/get_hadith"]


@pytest.fixture
async def watched(database_url: str) -> Any:
    """Probes whose background checks run (as in `serve`'s lifespan), after their first check."""
    settings = api_settings(database_url)
    readiness = Readiness(settings, database_url)
    probes = Probes(readiness, ServedVersion(settings, database_url, 1.0), 60_000, 1_000)
    async with probes.watching():
        await eventually(lambda: probes.last is not None)
        yield probes


@pytest.mark.parametrize("method", ["GET", "HEAD"])
async def test_a_probe_is_answered_at_the_connection(watched: Probes, method: str) -> None:
    SEEN.clear()
    for path, status in (("/healthz", "alive"), ("/readyz", "ready")):
        transport = await answered(path, "x-request-id: probe-1", probes=watched, method=method)
        head, _, body = transport.written.partition(b"\r\n\r\n")
        length = int(head.partition(b"\r\ncontent-length: ")[2].partition(b"\r\n")[0])
        assert head.startswith(b"HTTP/1.1 200 ")
        assert b"\r\nx-request-id: probe-1" in head
        if method == "GET":
            assert (orjson.loads(body)["status"], length) == (status, len(body))
        else:
            assert (body, length > 0) == (b"", True)
        assert transport.reading
    assert SEEN == []


@pytest.mark.parametrize(("method", "path"), [("GET", "/metrics"), ("GET", "/healthz/x"), ("POST", "/readyz")])
async def test_any_other_request_goes_to_the_app(watched: Probes, method: str, path: str) -> None:
    SEEN.clear()
    transport = await answered(path, probes=watched, method=method)
    assert (transport.written.startswith(b"HTTP/1.1 200 "), SEEN) == (True, [path])


async def test_a_readiness_probe_that_needs_a_check_goes_to_the_app(database_url: str) -> None:
    """No background check has run (an app without its lifespan): the front door checks, not the protocol."""
    SEEN.clear()
    settings = api_settings(database_url)
    unwatched = Probes(Readiness(settings, database_url), ServedVersion(settings, database_url, 1.0), 1_000, 1_000)
    await answered("/readyz", probes=unwatched, method="GET")
    await answered("/healthz", probes=unwatched, method="GET")
    assert SEEN == ["/readyz"]
