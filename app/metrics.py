"""The API's Prometheus metrics and `GET /metrics`, which serves them in the text format (OpenMetrics to a
scraper that asks for it). Reading them runs no SQL and takes no connection.

    isnad_requests_total{surface, operation, error, status}      requests answered
    isnad_request_duration_seconds{surface, operation}           from the request's arrival to its last byte
    isnad_request_sql_statements{surface, operation}             SQL statements a request ran
    isnad_request_sql_seconds{surface, operation}                and their time, as the API saw it
    isnad_pool_connections_in_use / _waiting / isnad_pool_size   the request pool, now
    isnad_connections_refused_total{reason}                      slow or oversized requests closed at the edge
    isnad_admissions_refused_total{reason}                       requests shed by admission (503)

`surface` is graphql, tools, mcp or other (/metrics, GraphiQL's files, any other path; the probes /healthz
and /readyz are answered before observation, uncounted); `operation` is a manifest document's name (a
tool's), `free` for any other document, `none` when no document ran; `error` a code of the closed set or
`none`. Every label takes a bounded set of values: never a path, a document or an argument.

One process (`serve --workers 1`): the metrics live in it. Several workers: each keeps its values in
files of a folder they share (prometheus-client's multiprocess mode, chosen by PROMETHEUS_MULTIPROC_DIR
before this module is imported; `serve` makes one), and any worker's /metrics adds up all of them.
"""

import atexit
import os
from pathlib import Path

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    multiprocess,
)
from prometheus_client.exposition import choose_encoder
from starlette.requests import Request
from starlette.responses import Response

from app.observation import Observation

disable_created_metrics()  # type: ignore[no-untyped-call]  # no `_created` series: they would double a scrape
PER_REQUEST = ("surface", "operation")
REQUESTS = Counter("isnad_requests", "Requests answered.", [*PER_REQUEST, "error", "status"])
DURATION = Histogram(
    "isnad_request_duration_seconds",
    "Time from a request's arrival to its answer's last byte.",
    PER_REQUEST,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
SQL_STATEMENTS = Histogram(
    "isnad_request_sql_statements",
    "SQL statements one request ran.",
    PER_REQUEST,
    buckets=(0, 1, 2, 3, 5, 10, 20, 50, 100),
)
SQL_SECONDS = Histogram(
    "isnad_request_sql_seconds",
    "Time one request's SQL statements took, as the API saw it.",
    PER_REQUEST,
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
# Gauges of several workers add up the live ones (a worker that exits takes its values with it).
POOL_IN_USE = Gauge(
    "isnad_pool_connections_in_use", "Pooled connections taken by requests.", multiprocess_mode="livesum"
)
POOL_WAITING = Gauge(
    "isnad_pool_connections_waiting", "Requests waiting for a pooled connection.", multiprocess_mode="livesum"
)
CONNECTIONS_REFUSED = Counter(
    "isnad_connections_refused",
    "Connections closed before their request reached the app (app/http/slow_clients.py).",
    ["reason"],
)
ADMISSIONS_REFUSED = Counter(
    "isnad_admissions_refused",
    "Requests shed with 503 before any of their work (app/http/admission.py): queue_full or wait_over.",
    ["reason"],
)
POOL_SIZE = Gauge("isnad_pool_size", "Connections the request pool may hold.", multiprocess_mode="livesum")


def record(observation: Observation, status: int, seconds: float) -> None:
    """Count one answered request."""
    key = (observation.surface, observation.operation)
    histograms = _histograms.get(key) or _histograms.setdefault(key, _labelled(*key))
    histograms[0].observe(seconds)
    histograms[1].observe(observation.statements)
    histograms[2].observe(observation.sql_seconds)
    outcome = (*key, observation.error or "none", str(status))
    (_counters.get(outcome) or _counters.setdefault(outcome, REQUESTS.labels(*outcome))).inc()


# The labelled series, looked up once: `labels()` takes a lock and checks its arguments on every call.
# Their keys are the labels' bounded values.
_histograms: dict[tuple[str, str], tuple[Histogram, Histogram, Histogram]] = {}
_counters: dict[tuple[str, str, str, str], Counter] = {}


def _labelled(surface: str, operation: str) -> tuple[Histogram, Histogram, Histogram]:
    return (
        DURATION.labels(surface, operation),
        SQL_STATEMENTS.labels(surface, operation),
        SQL_SECONDS.labels(surface, operation),
    )


class MetricsEndpoint:
    """`GET /metrics`: this process's metrics, or with `multiprocess_dir`, every worker's added up."""

    def __init__(self, multiprocess_dir: Path | None, pool_size: int) -> None:
        if multiprocess_dir is None:
            self.registry = REGISTRY  # with the process's own: memory, CPU, open files, the collector
        else:
            self.registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(self.registry, path=str(multiprocess_dir))  # type: ignore[no-untyped-call]  # untyped in prometheus-client
            atexit.register(multiprocess.mark_process_dead, os.getpid(), str(multiprocess_dir))
        POOL_SIZE.set(pool_size)

    async def scrape(self, request: Request) -> Response:
        encode, media_type = choose_encoder(request.headers.get("accept", ""))
        return Response(encode(self.registry), media_type=media_type)
