"""Drives the eight tools through HTTP and through bare SQL on the full database; prints req/s, p50, p99.

    python -m bench.api_bench [--concurrency 16] [--seconds 8] [--warmup 1] [--tools get_hadith,...] [--send-text]

Uses ISNAD_DATABASE_URL, else the embedded PostgreSQL. For each tool:
- API: `isnad-graphql serve --workers 1` in a subprocess, the tool's persisted document POSTed by httpx
  by its id (`documentId: "sha256:..."`; its text with --send-text), keep-alive, `concurrency`
  requests in flight, arguments picked from the database (bench/api_args.py);
- SQL floor: for the same arguments, the statements the API issues (captured in-process from its
  statement log, in order, with their arguments), replayed through asyncpg: one pooled connection per
  request, one statement after the other, each its own READ ONLY transaction, as the API does. It
  excludes HTTP, GraphQL, resolvers and JSON.
A script that prints figures, never a test.
"""

import argparse
import asyncio
import hashlib
import itertools
import logging
import os
import platform
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import orjson
from rich import box
from rich.console import Console
from rich.table import Table

from app.asgi import create_app
from app.data.database import SQL_LOG
from app.data.embedded import database_url
from app.settings import Settings, load_settings
from bench.api_args import Variables, pick_arguments
from bench.servers import running_api
from schema.contract import TOOLS

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261130
ARGUMENT_SETS = 200
REQUEST_TIMEOUT_S = 30.0
JSON = {"content-type": "application/json"}
ERRORS_KEY = b'"errors":'  # outside a JSON string only: a quote inside one is escaped

Statement = tuple[str, tuple[Any, ...]]
Call = Callable[[int], Awaitable[bool]]  # request number -> whether it succeeded


@dataclass(frozen=True)
class Timing:
    seconds: float
    latencies: list[float]
    failures: int

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def percentile_ms(self, percent: int) -> float:
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[percent - 1] * 1000


@dataclass(frozen=True)
class Result:
    tool: str
    statements: float  # per request, on average over the argument sets
    api: Timing
    sql: Timing


# -- driving ----------------------------------------------------------------------------------------


async def _loop(call: Call, counter: Iterator[int], until: float, latencies: list[float]) -> int:
    """Calls until `until`, appending each latency; the number of failed calls."""
    failures = 0
    while (started := time.perf_counter()) < until:
        failures += not await call(next(counter))
        latencies.append(time.perf_counter() - started)
    return failures


async def drive(call: Call, concurrency: int, warmup: float, seconds: float) -> Timing:
    """`concurrency` loops call `call` with the next request number: `warmup` s untimed, then `seconds` s timed."""
    counter = itertools.count()
    until = time.perf_counter() + warmup
    await asyncio.gather(*(_loop(call, counter, until, []) for _ in range(concurrency)))
    latencies: list[float] = []
    started = time.perf_counter()
    loops = (_loop(call, counter, started + seconds, latencies) for _ in range(concurrency))
    failures = sum(await asyncio.gather(*loops))
    return Timing(time.perf_counter() - started, latencies, failures)


async def call_each(call: Call, count: int, concurrency: int) -> list[int]:
    """Requests 0 .. count-1, once each, `concurrency` at a time; the numbers of those that failed."""
    gate = asyncio.Semaphore(concurrency)

    async def one(number: int) -> bool:
        async with gate:
            return await call(number)

    outcomes = await asyncio.gather(*(one(number) for number in range(count)))
    return [number for number, ok in enumerate(outcomes) if not ok]


# -- the API ----------------------------------------------------------------------------------------


def document(tool: str, by_id: bool) -> dict[str, str]:
    """The tool's persisted document: by its id (`documentId`, the sha256 of its text), or its text."""
    text = (ROOT / "persisted" / f"{tool}.graphql").read_text(encoding="utf-8")
    return {"documentId": f"sha256:{hashlib.sha256(text.encode()).hexdigest()}"} if by_id else {"query": text}


def bodies(tool: str, argument_sets: Sequence[Variables], by_id: bool) -> list[bytes]:
    """The POST bodies, encoded once so that the client spends its CPU on HTTP only."""
    sent = document(tool, by_id)
    return [orjson.dumps({**sent, "variables": variables}) for variables in argument_sets]


def api_call(client: httpx.AsyncClient, payloads: Sequence[bytes]) -> Call:
    async def call(number: int) -> bool:
        response = await client.post("/graphql", content=payloads[number % len(payloads)], headers=JSON)
        return response.status_code == 200 and ERRORS_KEY not in response.content

    return call


async def check_responses(client: httpx.AsyncClient, tool: str, payloads: Sequence[bytes], concurrency: int) -> None:
    """Every argument set once: a response with `errors` (or not 200) stops the bench.

    At most the pool size in flight, so that no request waits for a connection (the API refuses one
    that waits too long: UPSTREAM_UNAVAILABLE); under load, failures are counted and reported instead.
    """
    failed = await call_each(api_call(client, payloads), len(payloads), concurrency)
    if failed:
        response = await client.post("/graphql", content=payloads[failed[0]], headers=JSON)
        raise SystemExit(f"{tool}: {len(failed)} of {len(payloads)} responses failed, e.g. {response.text[:500]}")


# -- the SQL the API issues -------------------------------------------------------------------------


async def capture_statements(
    settings: Settings, url: str, arguments: dict[str, list[Variables]], by_id: bool
) -> dict[str, list[list[Statement]]]:
    """Per tool and argument set: the (statement, parameters) the API's engine sends, in order.

    Runs the app in-process; one request per tool first, uncaptured, loads what the API reads
    once per process (the source catalog), as a warm server has.
    """
    app = create_app(settings, url)
    recorder = _Recorder()
    SQL_LOG.addHandler(recorder)
    SQL_LOG.setLevel(logging.DEBUG)
    captured: dict[str, list[list[Statement]]] = {}
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for tool, argument_sets in arguments.items():
                await check_responses(client, tool, bodies(tool, argument_sets[:1], by_id), 1)
            for tool, argument_sets in arguments.items():
                captured[tool] = []
                for payload in bodies(tool, argument_sets, by_id):
                    recorder.recorded.clear()
                    await check_responses(client, tool, [payload], 1)
                    captured[tool].append(list(recorder.recorded))
    finally:
        SQL_LOG.removeHandler(recorder)
        await app.state.engine.dispose()
    return captured


class _Recorder(logging.Handler):
    """The API's statement log (app.data.database.SQL_LOG): each statement with its arguments."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.recorded: list[Statement] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.recorded.append((record.getMessage(), tuple(getattr(record, "arguments", ()))))


def server_settings(settings: Settings) -> dict[str, str]:
    """The session settings of the API's connections (app/data/database.py)."""
    return {
        "default_transaction_read_only": "on",
        "statement_timeout": str(settings.statement_timeout_ms),
        "search_path": f"{settings.db_schema}, public",
        "application_name": "isnad-graphql-bench",
    }


async def _no_reset(connection: object) -> None:
    """Release as the API does: nothing to reset (asyncpg's default reset adds a query)."""


async def sql_pool(settings: Settings, url: str) -> asyncpg.Pool:
    return await asyncpg.create_pool(
        url,
        min_size=settings.pool_size,
        max_size=settings.pool_size,
        server_settings=server_settings(settings),
        reset=_no_reset,
    )


def sql_call(pool: asyncpg.Pool, requests: Sequence[Sequence[Statement]]) -> Call:
    async def call(number: int) -> bool:
        async with pool.acquire() as connection:  # each statement READ ONLY: default_transaction_read_only
            for statement, parameters in requests[number % len(requests)]:
                await connection.fetch(statement, *parameters)
        return True

    return call


# -- the run ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    tools: list[str]
    concurrency: int
    seconds: float
    warmup: float
    send_text: bool


def parse_options(argv: Sequence[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight (default 16)")
    parser.add_argument("--seconds", type=float, default=8.0, help="timed seconds per tool and side (default 8)")
    parser.add_argument("--warmup", type=float, default=1.0, help="untimed seconds before each (default 1)")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated (default: all eight)")
    parser.add_argument("--send-text", action="store_true", help="POST the documents' text, not their ids")
    args = parser.parse_args(argv)
    tools = [tool.strip() for tool in args.tools.split(",") if tool.strip()]
    unknown = sorted(set(tools) - set(TOOLS))
    if unknown or not tools or args.concurrency < 1 or args.seconds <= 0 or args.warmup < 0:
        parser.error(f"unknown tools {unknown}; tools are {', '.join(TOOLS)}" if unknown else "invalid option")
    return Options(tools, args.concurrency, args.seconds, args.warmup, args.send_text)


async def pick(settings: Settings, url: str, options: Options) -> tuple[dict[str, list[Variables]], str]:
    """The argument sets of the chosen tools, and the server's version."""
    connection = await asyncpg.connect(url, server_settings=server_settings(settings))
    try:
        arguments = await pick_arguments(connection, SEED, ARGUMENT_SETS)
        version = str(await connection.fetchval("SHOW server_version"))
    finally:
        await connection.close()
    return {tool: arguments[tool] for tool in options.tools}, version


async def measure_tool(
    tool: str,
    client: httpx.AsyncClient,
    pool: asyncpg.Pool,
    payloads: Sequence[bytes],
    requests: Sequence[Sequence[Statement]],
    options: Options,
    console: Console,
) -> Result:
    """Check every response, then time the API, then time the same requests' SQL."""
    n = options.concurrency
    console.print(f"{tool}: API ...", end=" ")
    await check_responses(client, tool, payloads, min(n, pool.get_max_size()))
    api = await drive(api_call(client, payloads), n, options.warmup, options.seconds)
    console.print("SQL ...")
    sql = await drive(sql_call(pool, requests), n, options.warmup, options.seconds)
    return Result(tool, statistics.mean(len(request) for request in requests), api, sql)


async def measure(settings: Settings, url: str, options: Options, console: Console) -> list[Result]:
    arguments, version = await pick(settings, url, options)
    console.print(f"PostgreSQL {version}; capturing the SQL of {sum(map(len, arguments.values()))} requests ...")
    by_id = not options.send_text
    captured = await capture_statements(settings, url, arguments, by_id)
    n = options.concurrency
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    results = []
    with running_api(url) as api:
        base_url = f"http://127.0.0.1:{api.port}"
        async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=REQUEST_TIMEOUT_S) as client:
            pool = await sql_pool(settings, url)
            try:
                for tool in options.tools:
                    payloads = bodies(tool, arguments[tool], by_id)
                    results.append(await measure_tool(tool, client, pool, payloads, captured[tool], options, console))
            finally:
                await pool.close()
    return results


# -- the report -------------------------------------------------------------------------------------


def cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text().splitlines() if cpuinfo.exists() else []
    models = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return models[0] if models else platform.processor() or "unknown CPU"


def cpus() -> int:
    return len(os.sched_getaffinity(0))


def machine() -> str:
    system = f"{platform.system()} {platform.release()}"
    return f"{cpus()} CPUs ({cpu_model()}), {system}, Python {platform.python_version()}"


def load_average() -> str:
    """The 1-minute load average before the run: above ~1, something else competes for the CPUs."""
    return f"{os.getloadavg()[0]:.1f}"


def table(results: Sequence[Result]) -> Table:
    grid = Table(box=box.MARKDOWN)
    grid.add_column("tool")
    for header in ("stmts/req", "API req/s", "API p50 ms", "API p99 ms", "SQL req/s", "SQL p50 ms", "SQL p99 ms"):
        grid.add_column(header, justify="right")
    grid.add_column("API/SQL req/s", justify="right")
    for r in results:
        grid.add_row(
            r.tool,
            f"{r.statements:.1f}",
            f"{r.api.rate:,.0f}",
            f"{r.api.percentile_ms(50):.1f}",
            f"{r.api.percentile_ms(99):.1f}",
            f"{r.sql.rate:,.0f}",
            f"{r.sql.percentile_ms(50):.1f}",
            f"{r.sql.percentile_ms(99):.1f}",
            f"{r.api.rate / r.sql.rate:.2f}",
        )
    return grid


def report(results: Sequence[Result], options: Options, settings: Settings, first_load: str, console: Console) -> None:
    console.print()
    console.print(f"machine: {machine()}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    console.print(f"1-minute load average before the run: {first_load} (other processes make the figures noisy)")
    console.print(
        f"load: {options.concurrency} requests in flight, {options.warmup:g} s warm-up then {options.seconds:g} s "
        f"timed per tool and side; {ARGUMENT_SETS} argument sets per tool (seed {SEED}); "
        f"documents sent by {'text' if options.send_text else 'id (documentId)'}; "
        f"API: 1 uvicorn worker, pool {settings.pool_size}; SQL: asyncpg pool {settings.pool_size}"
    )
    console.print(table(results))
    console.print(
        "SQL floor: the statements the API issues for the same arguments, replayed through asyncpg on one "
        "pooled connection per request, each statement its own READ ONLY transaction; it excludes HTTP, GraphQL, "
        "the resolvers and JSON."
    )
    console.print(
        f"Caveat: the HTTP client (httpx, this process), the API and PostgreSQL share the same {cpus()} CPUs; "
        "the client's own CPU is taken from the API's req/s (the SQL side has no HTTP client)."
    )
    for r in results:
        if r.api.failures:
            console.print(f"[red]{r.tool}: {r.api.failures} API responses failed under load[/red]")


def main(argv: Sequence[str] | None = None) -> None:
    options = parse_options(argv)
    settings = load_settings()
    console = Console(width=None if sys.stdout.isatty() else 160)  # a pipe: no wrapping at 80 columns
    first_load = load_average()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        results = asyncio.run(measure(settings, url, options, console))
    report(results, options, settings, first_load, console)


if __name__ == "__main__":
    main()
