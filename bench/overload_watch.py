"""bench/overload.py's watchers, threads beside the load: a prober that times /healthz and /readyz every
100 ms and scrapes /metrics every second, and a plain client whose 503s and 429s are checked for the error
envelope with its code and a whole-seconds Retry-After."""

import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx

from bench.servers import JSON_HEADERS

PROBE_INTERVAL_S = 0.1
SCRAPE_INTERVAL_S = 1.0
PROBE_TIMEOUT_S = 30.0
CODES = {503: "UPSTREAM_UNAVAILABLE", 429: "RATE_LIMITED"}


# -- the probes -------------------------------------------------------------------------------------


@dataclass
class Probes:
    times_ms: dict[str, list[float]] = field(default_factory=lambda: {"/healthz": [], "/readyz": []})
    failures: Counter[str] = field(default_factory=Counter)  # "path status" or "path error"
    scrapes: int = 0
    last_metrics: str = ""


class Background(threading.Thread):
    """A thread that works until `finish` is called, then is joined."""

    def __init__(self, name: str, base: str) -> None:
        super().__init__(name=name, daemon=True)
        self.base = base
        self._stopped = threading.Event()

    def finish(self) -> None:
        self._stopped.set()
        self.join()


class Prober(Background):
    """Every 100 ms: GET /healthz, then /readyz, each timed; every second a scrape of /metrics."""

    def __init__(self, base: str) -> None:
        super().__init__("probe", base)
        self.probes = Probes()

    def run(self) -> None:
        next_scrape = time.monotonic()
        with httpx.Client(timeout=PROBE_TIMEOUT_S) as client:
            while not self._stopped.is_set():
                began = time.monotonic()
                for path in self.probes.times_ms:
                    self.probe(client, path)
                if time.monotonic() >= next_scrape:
                    self.scrape(client)
                    next_scrape += SCRAPE_INTERVAL_S
                self._stopped.wait(max(0.0, began + PROBE_INTERVAL_S - time.monotonic()))

    def probe(self, client: httpx.Client, path: str) -> None:
        began = time.perf_counter()
        try:
            response = client.get(self.base + path)
        except httpx.HTTPError as error:
            self.probes.failures[f"{path} {type(error).__name__}"] += 1
            return
        self.probes.times_ms[path].append((time.perf_counter() - began) * 1000)
        if response.status_code != 200:
            self.probes.failures[f"{path} {response.status_code}"] += 1

    def scrape(self, client: httpx.Client) -> None:
        try:
            response = client.get(self.base + "/metrics")
        except httpx.HTTPError as error:
            self.probes.failures[f"/metrics {type(error).__name__}"] += 1
            return
        if response.status_code == 200:
            self.probes.scrapes += 1
            self.probes.last_metrics = response.text
        else:
            self.probes.failures[f"/metrics {response.status_code}"] += 1


# -- the refusals, checked with a plain client ------------------------------------------------------


@dataclass
class Refusals:
    statuses: Counter[str] = field(default_factory=Counter)  # "surface status", every answer the checker got
    checked: int = 0  # 503s and 429s looked at
    faulty: int = 0  # 503s and 429s lacking something
    faults: list[str] = field(default_factory=list)  # what the first of them lacked


def refusal_fault(response: httpx.Response, tools: bool) -> str | None:
    """What a 503 or 429 lacks of the error envelope with its code and a Retry-After; None when nothing."""
    retry = response.headers.get("retry-after", "")
    if not retry.isdigit():
        return f"Retry-After {retry!r}"
    try:
        body = response.json()
        code = body["error"]["code"] if tools else body["errors"][0]["extensions"]["code"]
    except (ValueError, KeyError, IndexError, TypeError):
        return f"no envelope: {response.text[:200]!r}"
    if code != CODES[response.status_code]:
        return f"code {code!r}"
    return None


class Checker(Background):
    """During the overload, rounds of requests from a plain client: two to /graphql and two to
    /tools/get_hadith without a key (admission may refuse them), then a burst of six with the prober's
    key (over its rate: 429); every 503 and 429 checked by `refusal_fault`."""

    def __init__(self, base: str, graphql_body: bytes, tools_body: bytes, key: str) -> None:
        super().__init__("refusal-checker", base)
        self.requests = [("/graphql", graphql_body), ("/tools/get_hadith", tools_body)]
        self.key = key
        self.refusals = Refusals()

    def run(self) -> None:
        with httpx.Client(timeout=PROBE_TIMEOUT_S) as client:
            while not self._stopped.wait(0.5):
                for path, body in self.requests * 2:
                    self.send(client, path, body, {})
                for path, body in self.requests * 3:
                    self.send(client, path, body, {"x-api-key": self.key})

    def send(self, client: httpx.Client, path: str, body: bytes, extra: dict[str, str]) -> None:
        surface = path.split("/")[1]
        try:
            response = client.post(self.base + path, content=body, headers={**JSON_HEADERS, **extra})
        except httpx.HTTPError as error:
            self.refusals.statuses[f"{surface} {type(error).__name__}"] += 1
            return
        self.refusals.statuses[f"{surface} {response.status_code}"] += 1
        if response.status_code in CODES:
            self.refusals.checked += 1
            fault = refusal_fault(response, tools=surface == "tools")
            if fault is not None:
                self.refusals.faulty += 1
            if fault is not None and len(self.refusals.faults) < 10:
                self.refusals.faults.append(f"{path} {response.status_code}: {fault}")
