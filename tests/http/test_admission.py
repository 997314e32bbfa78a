"""Admission: a bound on the requests a worker serves at once, a short queue, and 503 beyond them.

A request is held inside the executor (its run waits for the test to release it), so that the bound is
reached without timing anything: the next request to /graphql, /tools or /mcp is answered 503
`UPSTREAM_UNAVAILABLE` with `Retry-After`, in its surface's envelope, while /healthz and /readyz
still answer. When neither a place nor the queue can take it, the front door answers it before any other
middleware (observation, the first of them, is watched).
"""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY
from starlette.types import Receive, Scope, Send

from app.execution.documents import Prepared
from app.execution.executor import Admitted, Outcome
from app.http.admission import DOUBLES_EVERY_S, OVERLOAD_ENDS_S, OVERLOADED_S, Places, guarded
from app.http.observability import Observed
from ingest.run import ImportReport
from tests.conftest import Served, api_settings, serving
from tests.http.conftest import Clock, eventually, overload

GRAPHQL_RESPONSE = "application/graphql-response+json"
HADITH = {"query": "{ get_hadith(hadith_id: 100001) { hadith_id } }"}


class Gate:
    """Holds every executor run until `open()`; `entered` counts the runs that reached it."""

    def __init__(self, run: Callable[[Prepared, Admitted], Awaitable[Outcome]]) -> None:
        self.run = run
        self.entered = 0
        self.opened = asyncio.Event()

    async def held_run(self, prepared: Prepared, admitted: Admitted) -> Outcome:
        self.entered += 1
        await self.opened.wait()
        return await self.run(prepared, admitted)

    async def until_entered(self, count: int) -> None:
        await eventually(lambda: self.entered >= count)


async def answered(request: Awaitable[httpx.Response]) -> httpx.Response:
    """The answer to a request that admission must answer at once: a failure, not a hang, when it waits."""
    return await asyncio.wait_for(request, 60)


def refusals(reason: str) -> float:
    """isnad_admissions_refused_total for `reason`, as this process counts it."""
    return REGISTRY.get_sample_value("isnad_admissions_refused_total", {"reason": reason}) or 0.0


@asynccontextmanager
async def gated(
    database_url: str, monkeypatch: pytest.MonkeyPatch, **settings: Any
) -> AsyncIterator[tuple[Served, Gate]]:
    async with serving(api_settings(database_url, **settings), database_url) as served:
        executor = served.app.state.executor
        gate = Gate(executor.run)
        monkeypatch.setattr(executor, "run", gate.held_run)
        try:
            yield served, gate
        finally:
            gate.opened.set()


async def _hold_one(served: Served, gate: Gate) -> "asyncio.Task[httpx.Response]":
    held = asyncio.create_task(served.client.post("/graphql", json=HADITH))
    await gate.until_entered(1)
    return held


@pytest.mark.parametrize(
    ("path", "body", "envelope"),
    [
        ("/graphql", HADITH, "errors"),
        ("/tools/get_hadith", {"hadith_id": 100001}, "error"),
        ("/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "error"),
    ],
)
async def test_a_request_beyond_the_bound_is_shed_with_retry_after(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch, path: str, body: Any, envelope: str
) -> None:
    async with gated(database_url, monkeypatch, max_in_flight=1, max_queued=0) as (served, gate):
        held = await _hold_one(served, gate)
        accept = {"accept": f"{GRAPHQL_RESPONSE}, application/json"}
        shed = await answered(served.client.post(path, json=body, headers=accept))
        gate.opened.set()
        assert (await held).json()["data"] == {"get_hadith": {"hadith_id": 100001}}
    assert shed.status_code == 503
    assert shed.headers["retry-after"] == "1"
    error = shed.json()[envelope][0] if envelope == "errors" else shed.json()[envelope]
    code = error["extensions"]["code"] if envelope == "errors" else error["code"]
    assert code == "UPSTREAM_UNAVAILABLE"
    assert "capacity" in error["message"]
    if path == "/graphql":
        assert shed.headers["content-type"] == f"{GRAPHQL_RESPONSE}; charset=utf-8"


KEY = "k3y-of-a-known-client"


@pytest.fixture
def observed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths of the requests that reach the middleware behind the front door (observation, the first)."""
    seen: list[str] = []
    observe = Observed.__call__

    async def noting(self: Observed, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            seen.append(scope["path"])
        await observe(self, scope, receive, send)

    monkeypatch.setattr(Observed, "__call__", noting)
    return seen


@pytest.mark.parametrize(
    ("path", "accept", "media_type"),
    [
        ("/graphql", GRAPHQL_RESPONSE, GRAPHQL_RESPONSE),
        ("/graphql", "*/*", "application/json"),
        ("/tools/get_hadith", None, "application/json"),
    ],
)
async def test_a_request_admission_cannot_take_is_shed_before_any_middleware(
    imported: ImportReport,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    observed: list[str],
    path: str,
    accept: str | None,
    media_type: str,
) -> None:
    headers = {"x-request-id": "shed-1"} | ({"accept": accept} if accept else {})
    async with gated(database_url, monkeypatch, max_in_flight=1, max_queued=0) as (served, gate):
        held = await _hold_one(served, gate)
        shed = await answered(served.client.post(path, json={"hadith_id": 100001}, headers=headers))
        gate.opened.set()
        await held
    assert observed == ["/graphql"]  # the held request's only
    assert (shed.status_code, shed.headers["retry-after"], shed.headers["x-request-id"]) == (503, "1", "shed-1")
    assert shed.headers["content-type"].startswith(media_type)
    body = shed.json()
    code = body["errors"][0]["extensions"]["code"] if path == "/graphql" else body["error"]["code"]
    assert code == "UPSTREAM_UNAVAILABLE"


@pytest.mark.parametrize("headers", [{"origin": "https://reader.example"}, {"x-api-key": KEY}])
async def test_a_cross_origin_or_keyed_request_is_refused_the_usual_way(
    imported: ImportReport,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    observed: list[str],
    headers: dict[str, str],
) -> None:
    settings = {"cors_origins": ("https://reader.example",), "api_keys": f"web:persisted:{KEY}"}
    async with gated(database_url, monkeypatch, max_in_flight=1, max_queued=0, **settings) as (served, gate):
        held = await _hold_one(served, gate)
        shed = await answered(served.client.post("/tools/get_hadith", json={"hadith_id": 100001}, headers=headers))
        gate.opened.set()
        await held
    assert observed == ["/graphql", "/tools/get_hadith"]
    assert (shed.status_code, shed.json()["error"]["code"]) == (503, "UPSTREAM_UNAVAILABLE")
    if "origin" in headers:
        assert shed.headers["access-control-allow-origin"] == "https://reader.example"


async def test_probes_answer_before_any_middleware_while_admission_is_full(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch, observed: list[str]
) -> None:
    async with gated(database_url, monkeypatch, max_in_flight=1, max_queued=0) as (served, gate):
        held = await _hold_one(served, gate)
        probes = [await served.client.get(path, headers={"x-request-id": path[1:]}) for path in ("/healthz", "/readyz")]
        gate.opened.set()
        await held
    assert observed == ["/graphql"]
    assert [(probe.status_code, probe.headers["x-request-id"]) for probe in probes] == [
        (200, "healthz"),
        (200, "readyz"),
    ]
    assert probes[0].json() == {"status": "alive"}
    assert probes[1].json()["status"] == "ready"


GUARDED = ["/graphql", "/tools", "/tools/get_hadith", "/mcp", "/mcp/"]
NEVER_GUARDED = ["/healthz", "/readyz", "/metrics", "/graphiql/static/x.js", "/graphqlx"]


@pytest.mark.parametrize(("path", "is_guarded"), [(p, True) for p in GUARDED] + [(p, False) for p in NEVER_GUARDED])
def test_only_the_apis_endpoints_are_guarded(path: str, is_guarded: bool) -> None:
    assert guarded({"type": "http", "path": path}) is is_guarded


def test_the_lifespan_passes_through() -> None:
    """A lifespan scope has no path: reading one would stop the app's start-up (and /mcp with it)."""
    assert guarded({"type": "lifespan"}) is False


async def test_a_queued_request_runs_once_a_place_is_free_and_a_full_queue_sheds(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = {"max_in_flight": 1, "max_queued": 1, "queue_wait_ms": 600_000}
    refused = refusals("queue_full")
    async with gated(database_url, monkeypatch, **settings) as (served, gate):
        held = await _hold_one(served, gate)
        queued = asyncio.create_task(served.client.post("/graphql", json=HADITH))
        await eventually(lambda: served.app.state.admission.queued == 1)
        shed = await answered(served.client.post("/graphql", json=HADITH))
        gate.opened.set()
        answers = [await held, await queued]
    assert shed.status_code == 503
    assert [answer.json()["data"] for answer in answers] == [{"get_hadith": {"hadith_id": 100001}}] * 2
    assert served.app.state.admission.queued == 0
    assert refusals("queue_full") == refused + 1


async def test_a_request_that_waits_past_the_queue_wait_is_shed(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = {"max_in_flight": 1, "max_queued": 8, "queue_wait_ms": 1}
    refused = refusals("wait_over")
    async with gated(database_url, monkeypatch, **settings) as (served, gate):
        held = await _hold_one(served, gate)
        shed = await answered(served.client.post("/tools/get_hadith", json={"hadith_id": 100001}))
        gate.opened.set()
        await held
        after = await served.client.post("/tools/get_hadith", json={"hadith_id": 100001})
    assert shed.status_code == 503
    assert shed.json()["error"]["code"] == "UPSTREAM_UNAVAILABLE"
    assert after.json()["hadith_id"] == 100001
    assert refusals("wait_over") == refused + 1


async def test_a_worker_that_has_just_refused_a_request_queues_none() -> None:
    """A burst waits in the queue; a refusal for capacity says the worker is overloaded, and for OVERLOADED_S
    whatever comes while every place is taken is refused at once, not queued."""
    places = Places(max_in_flight=1, max_queued=1, max_wait_ms=60_000)
    assert await places.enter() == 0
    waiting = asyncio.create_task(places.enter())
    await eventually(lambda: places.queued == 1)
    refused = refusals("queue_full")
    assert await places.enter() == 1  # shed, with Retry-After: 1
    assert refusals("queue_full") == refused + 1
    places.leave()
    assert await waiting == 0
    assert (places.queued, places.full()) == (0, True)
    await asyncio.sleep(OVERLOADED_S * 1.5)
    assert not places.full()


def test_each_second_of_an_overload_doubles_the_wait_it_asks_for(clock: Clock) -> None:
    """Refusals 90 ms apart ask for 1 s in the overload's first second, 2 in the next, then 4 however long it
    lasts; a break of OVERLOAD_ENDS_S ends it, and the next refusal asks for 1 again."""
    places = Places(max_in_flight=1, max_queued=0, max_wait_ms=100)
    waits = overload(places, clock, 4 * DOUBLES_EVERY_S, every=0.09)
    assert waits == sorted(waits)
    assert [waits.count(seconds) for seconds in (1, 2, 4)] == [12, 11, 23]
    clock.now += OVERLOAD_ENDS_S
    assert places.refuse("queue_full") == 1


def test_a_new_workers_first_refusal_asks_for_the_short_wait_whatever_its_clock(clock: Clock) -> None:
    """The monotonic clock may read little (a machine up for a second): a worker that never refused is not in
    an overload, so its first refusal asks for 1 s."""
    clock.now = 1.0
    assert Places(max_in_flight=1, max_queued=0, max_wait_ms=100).refuse("queue_full") == 1


def test_refused_clients_coming_back_after_their_retry_after_are_the_same_overload(clock: Clock) -> None:
    """Under overload the refused connections rest, so refusals come in waves a Retry-After apart: the breaks
    between the waves do not end the overload."""
    places = Places(max_in_flight=1, max_queued=0, max_wait_ms=100)
    assert overload(places, clock, 2 * DOUBLES_EVERY_S, every=1.0) == [1, 2, 4]
    assert overload(places, clock, 12.0, every=4.0) == [4] * 4


def test_refusals_far_apart_keep_the_short_wait(clock: Clock) -> None:
    """A worker that refuses now and then, with breaks of OVERLOAD_ENDS_S between, is not overloaded: every
    refusal asks for 1 s."""
    places = Places(max_in_flight=1, max_queued=0, max_wait_ms=100)
    assert set(overload(places, clock, 12.0, every=OVERLOAD_ENDS_S)) == {1}


async def test_no_bound_admits_every_request(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with gated(database_url, monkeypatch, max_in_flight=0, max_queued=0) as (served, gate):
        requests = [asyncio.create_task(served.client.post("/graphql", json=HADITH)) for _ in range(5)]
        await gate.until_entered(5)
        gate.opened.set()
        answers = await asyncio.gather(*requests)
    assert [answer.status_code for answer in answers] == [200] * 5
