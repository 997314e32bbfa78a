"""Rate limits per client: a token bucket for each API-key profile, and one for each client address
among the requests that send no key.

`ISNAD_RATE_LIMITS="default=20/40,web=50/100"`: a profile (`default` is the one of requests without a
key) may send `rate` requests a second (a decimal), refilled continuously, and up to `burst` at once. A
profile not listed is not limited; none is by default. A request with an unknown key counts against its
address, as one without a key (the endpoint then refuses it). Only `/graphql`, `/tools` and `/mcp` are
limited (`app/http/admission.py`'s `guarded`).

Over its rate, a request is answered 429 `RATE_LIMITED` with `Retry-After` (whole seconds until one
more request is allowed), in the error envelope of its surface, before any work. Every answer to a
limited client carries the headers of draft-ietf-httpapi-ratelimit-headers:
`RateLimit-Policy: "<profile>";q=<burst>;w=<seconds to refill a burst>` and
`RateLimit: "<profile>";r=<requests left now>;t=<seconds until the bucket is full>`.

The buckets live in each worker's memory (GCRA: one time per client, no timer, no thread). With N
workers a client may get up to N times its rate, as the kernel spreads its connections; a limit meant
for the whole server is set N times lower, or kept in a shared store in front of the API. The table
keeps at most `MAX_CLIENTS` clients: past it, the full buckets (idle clients) go first, then the least
recently seen.
"""

import math
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import ApiError, RateLimited
from app.http.admission import guarded
from app.http.profiles import API_KEY_HEADER, Profile, Profiles
from app.http.refusals import refusal

MAX_CLIENTS = 100_000
TOLERANCE_S = 1e-9  # float rounding in the arrival times, never a request's worth


@dataclass(frozen=True)
class Rate:
    per_second: float
    burst: int

    @property
    def interval(self) -> float:
        """Seconds between two requests at the sustained rate."""
        return 1 / self.per_second

    @property
    def window(self) -> int:
        """Whole seconds an empty bucket takes to refill a burst."""
        return math.ceil(self.burst / self.per_second)


def parse_rates(text: str, profiles: frozenset[str]) -> dict[str, Rate]:
    """`profile=rate/burst,...` as rates by profile name; SystemExit for a malformed entry or a name
    that is none of `profiles` (a misspelt name would leave its profile unlimited without a word)."""
    rates = {}
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        name, _, spec = (part.strip() for part in entry.partition("="))
        per_second, _, burst = spec.partition("/")
        try:
            rate = Rate(float(per_second), int(burst))
        except ValueError:
            rate = Rate(0, 0)
        if not name or not (0 < rate.per_second < math.inf) or rate.burst < 1:
            raise SystemExit("ISNAD_RATE_LIMITS entries must read profile=requests_per_second/burst")
        rates[name] = rate
    unknown = sorted(set(rates) - profiles)
    if unknown:
        raise SystemExit(f"ISNAD_RATE_LIMITS names profiles that ISNAD_API_KEYS does not: {', '.join(unknown)}")
    return rates


@dataclass(frozen=True)
class Decision:
    allowed: bool
    remaining: int  # requests the client may still send at once
    full_in_s: float  # until its bucket is full again
    retry_in_s: float  # until one more request is allowed (0 when this one is)


class Buckets:
    """A token bucket per client, kept as GCRA's theoretical arrival time of its next request."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_clients: int = MAX_CLIENTS) -> None:
        self.clock = clock
        self.max_clients = max_clients
        self.arrivals: dict[Hashable, float] = {}

    def take(self, client: Hashable, rate: Rate) -> Decision:
        """Count one request of `client`, when its bucket holds one."""
        now = self.clock()
        arrival = max(self.arrivals.get(client, now), now)
        capacity = rate.burst * rate.interval
        after = arrival + rate.interval - now  # how full the bucket would be, in seconds of refill
        if after > capacity + TOLERANCE_S:
            return Decision(False, 0, arrival - now, after - capacity)
        self.remember(client, now + after, now)
        return Decision(True, int((capacity - after) / rate.interval + TOLERANCE_S), after, 0.0)

    def remember(self, client: Hashable, arrival: float, now: float) -> None:
        self.arrivals.pop(client, None)
        self.arrivals[client] = arrival  # the most recently seen last
        if len(self.arrivals) > self.max_clients:
            for idle in [known for known, at in self.arrivals.items() if at <= now]:
                del self.arrivals[idle]
            while len(self.arrivals) > self.max_clients * 3 // 4:
                del self.arrivals[next(iter(self.arrivals))]


def rate_limit_headers(profile: str, rate: Rate, decision: Decision) -> dict[str, str]:
    headers = {
        "ratelimit-policy": f'"{profile}";q={rate.burst};w={rate.window}',
        "ratelimit": f'"{profile}";r={decision.remaining};t={math.ceil(decision.full_in_s)}',
    }
    if not decision.allowed:
        headers["retry-after"] = str(max(1, math.ceil(decision.retry_in_s)))
    return headers


class RateLimits:
    """ASGI middleware: the limits of `rates` (by profile name) for the clients `profiles` tells apart."""

    def __init__(self, app: ASGIApp, rates: Mapping[str, Rate], profiles: Profiles) -> None:
        self.app = app
        self.rates = rates
        self.profiles = profiles
        self.buckets = Buckets()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        profile, client = self.client(scope) if self.rates and guarded(scope) else (None, None)
        rate = self.rates.get(profile.name) if profile else None
        if profile is None or rate is None:
            await self.app(scope, receive, send)
            return
        decision = self.buckets.take(client, rate)
        headers = rate_limit_headers(profile.name, rate, decision)
        if not decision.allowed:
            limited = RateLimited(f"Too many requests; retry in {headers['retry-after']} s.")
            await refusal(scope, 429, limited, headers)(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer = MutableHeaders(scope=message)
                for name, value in headers.items():
                    answer[name] = value
            await send(message)

        await self.app(scope, receive, with_headers)

    def client(self, scope: Scope) -> tuple[Profile, Hashable]:
        """The request's profile, and the client its bucket belongs to: the profile for a known key, else
        the address."""
        try:
            profile = self.profiles.for_key(Headers(scope=scope).get(API_KEY_HEADER))
        except ApiError:  # an unknown key: the endpoint refuses it; it counts against its address
            profile = self.profiles.default
        if profile is self.profiles.default:
            address = scope["client"][0] if scope.get("client") else ""
            return profile, ("address", address)
        return profile, ("profile", profile.name)
