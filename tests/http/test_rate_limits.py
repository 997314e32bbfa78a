"""Rate limits per client: a token bucket per API-key profile, and per address for requests without a
key; over it, 429 RATE_LIMITED with Retry-After and the RateLimit / RateLimit-Policy headers.

The buckets are read through a clock the tests move by hand; the served app is given rates so slow
(one request per 1,000 s) that no refill can happen while a test runs, so nothing is timed.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from app.asgi import create_app
from app.http.rate_limits import Buckets, Rate, parse_rates, rate_limit_headers
from ingest.run import ImportReport
from tests.conftest import api_settings, serving

HADITH = {"query": "{ get_hadith(hadith_id: 100001) { hadith_id } }"}
KEY = "gateway-secret-key"
NAMES = frozenset({"default", "web"})
SLOW = "default=0.001/2,gateway=0.001/1"  # two at once per address, one for the gateway profile


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


# --- the buckets ----------------------------------------------------------------------------------------


def test_a_burst_is_allowed_then_refused_until_a_request_is_refilled() -> None:
    clock, rate = Clock(), Rate(per_second=2, burst=3)
    buckets = Buckets(clock)
    taken = [buckets.take("a", rate) for _ in range(4)]
    assert [(d.allowed, d.remaining) for d in taken] == [(True, 2), (True, 1), (True, 0), (False, 0)]
    assert taken[3].retry_in_s == pytest.approx(0.5)
    assert taken[3].full_in_s == pytest.approx(1.5)
    clock.now += 0.5
    assert (buckets.take("a", rate).allowed, buckets.take("a", rate).allowed) == (True, False)


def test_each_client_has_its_own_bucket() -> None:
    buckets, rate = Buckets(Clock()), Rate(per_second=1, burst=1)
    assert [buckets.take(client, rate).allowed for client in ("a", "b", "a")] == [True, True, False]


def test_an_idle_client_is_back_to_a_full_burst() -> None:
    clock, rate = Clock(), Rate(per_second=10, burst=5)
    buckets = Buckets(clock)
    for _ in range(5):
        buckets.take("a", rate)
    clock.now += 3600
    assert buckets.take("a", rate).remaining == 4


def test_the_table_of_clients_stays_bounded_and_forgets_idle_ones_first() -> None:
    clock, rate = Clock(), Rate(per_second=1, burst=2)
    buckets = Buckets(clock, max_clients=4)
    for client in ("idle-1", "idle-2"):
        buckets.take(client, rate)
    clock.now += 10
    for client in ("busy-1", "busy-2", "busy-3"):
        buckets.take(client, rate)
        buckets.take(client, rate)
    assert set(buckets.arrivals) == {"busy-1", "busy-2", "busy-3"}
    assert not buckets.take("busy-1", rate).allowed  # a client kept keeps its count


def test_the_headers_follow_the_ietf_draft() -> None:
    rate = Rate(per_second=2, burst=10)
    buckets = Buckets(Clock())
    for _ in range(10):
        allowed = buckets.take("a", rate)
    refused = buckets.take("a", rate)
    assert rate_limit_headers("web", rate, allowed) == {
        "ratelimit-policy": '"web";q=10;w=5',
        "ratelimit": '"web";r=0;t=5',
    }
    assert rate_limit_headers("web", rate, refused)["retry-after"] == "1"


@pytest.mark.parametrize(
    ("text", "rates"),
    [
        ("", {}),
        ("default=20/40", {"default": Rate(20, 40)}),
        (" default = 0.5/1 , web=100/200 ", {"default": Rate(0.5, 1), "web": Rate(100, 200)}),
    ],
)
def test_rate_limits_are_read_from_the_setting(text: str, rates: dict[str, Rate]) -> None:
    assert parse_rates(text, NAMES) == rates


@pytest.mark.parametrize("text", ["default", "default=20", "=20/40", "default=0/40", "default=x/1", "web=1/0"])
def test_a_malformed_setting_stops_the_server_with_its_name(text: str) -> None:
    with pytest.raises(SystemExit, match="ISNAD_RATE_LIMITS"):
        parse_rates(text, NAMES)


def test_a_rate_for_a_profile_no_key_has_stops_the_server(database_url: str) -> None:
    settings = api_settings(database_url, rate_limits="default=1/1,gatewya=1/1", api_keys=f"gateway:free:{KEY}")
    with pytest.raises(SystemExit, match="gatewya"):
        create_app(settings, database_url)  # at start-up, before any request


# --- the served API -------------------------------------------------------------------------------------


@asynccontextmanager
async def limited(database_url: str, rates: str = SLOW) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    """Clients of one app with these rates, from two addresses."""
    settings = api_settings(database_url, rate_limits=rates, api_keys=f"gateway:free:{KEY}")
    async with serving(settings, database_url) as served:
        clients = {}
        for address in ("192.0.2.1", "192.0.2.2"):
            transport = httpx.ASGITransport(app=served.app, client=(address, 40_000))
            clients[address] = httpx.AsyncClient(transport=transport, base_url="http://isnad.test")
        try:
            yield clients
        finally:
            for client in clients.values():
                await client.aclose()


async def _calls(client: httpx.AsyncClient, count: int, **kwargs: Any) -> list[httpx.Response]:
    return [await client.post("/graphql", json=HADITH, **kwargs) for _ in range(count)]


async def test_a_client_over_its_rate_is_answered_429_with_retry_after(
    imported: ImportReport, database_url: str
) -> None:
    async with limited(database_url) as clients:
        first, second, third = await _calls(clients["192.0.2.1"], 3)
    assert [r.status_code for r in (first, second, third)] == [200, 200, 429]
    assert first.json()["data"] == {"get_hadith": {"hadith_id": 100001}}
    (error,) = third.json()["errors"]
    assert error["extensions"] == {"code": "RATE_LIMITED"}
    assert "data" not in third.json()
    assert int(third.headers["retry-after"]) >= 1
    assert [r.headers["ratelimit"].split(";t=")[0] for r in (first, second, third)] == [
        '"default";r=1',
        '"default";r=0',
        '"default";r=0',
    ]
    assert third.headers["ratelimit-policy"] == '"default";q=2;w=2000'


async def test_anonymous_clients_are_limited_by_address(imported: ImportReport, database_url: str) -> None:
    async with limited(database_url) as clients:
        one = await _calls(clients["192.0.2.1"], 3)
        other = await _calls(clients["192.0.2.2"], 1)
    assert [r.status_code for r in one + other] == [200, 200, 429, 200]


async def test_a_keyed_profile_is_limited_as_one_client_from_any_address(
    imported: ImportReport, database_url: str
) -> None:
    key = {"headers": {"x-api-key": KEY}}
    async with limited(database_url) as clients:
        first = await _calls(clients["192.0.2.1"], 1, **key)
        again = await _calls(clients["192.0.2.2"], 1, **key)
        anonymous = await _calls(clients["192.0.2.2"], 1)
    assert [r.status_code for r in first + again + anonymous] == [200, 429, 200]
    assert again[0].headers["ratelimit-policy"] == '"gateway";q=1;w=1000'


async def test_an_unknown_key_counts_against_its_address(imported: ImportReport, database_url: str) -> None:
    async with limited(database_url) as clients:
        client = clients["192.0.2.1"]
        refused = [await client.post("/graphql", json=HADITH, headers={"x-api-key": "guess"}) for _ in range(2)]
        limited_now = await _calls(client, 1)
    assert [r.json()["errors"][0]["extensions"]["code"] for r in refused] == ["QUERY_REJECTED"] * 2
    assert limited_now[0].status_code == 429


async def test_tools_answer_429_in_their_envelope_and_health_is_never_limited(
    imported: ImportReport, database_url: str
) -> None:
    async with limited(database_url, rates="default=0.001/1") as clients:
        client = clients["192.0.2.1"]
        calls = [await client.post("/tools/get_hadith", json={"hadith_id": 100001}) for _ in range(2)]
        health = [(await client.get(path)).status_code for path in ("/healthz", "/readyz", "/healthz")]
    assert [r.status_code for r in calls] == [200, 429]
    assert calls[1].json()["error"]["code"] == "RATE_LIMITED"
    assert health == [200, 200, 200]


async def test_no_client_is_limited_by_default(client: httpx.AsyncClient) -> None:
    answers = await _calls(client, 5)
    assert [r.status_code for r in answers] == [200] * 5
    assert all("ratelimit" not in r.headers for r in answers)
