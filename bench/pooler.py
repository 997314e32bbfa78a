"""What serving through PgBouncer in transaction mode costs: the eight tools, each driven in turn on three apps
in one run, so that the ratios share the machine's load.

    python -m bench.pooler --role-url URL --pgbouncer URL [--concurrency 8] [--seconds 8] [--warmup 0.5]
        [--arguments 200]

- direct: `ISNAD_DATABASE_POOLER=none` on ISNAD_DATABASE_URL (asyncpg's statement cache on: a statement
  seen before on a connection is bound and run in one round trip);
- no cache: `=transaction` on --role-url, the same database without PgBouncer, as a role that carries the
  session settings (docs/production.md): each statement prepared unnamed, then parsed again as it runs (two
  round trips, two parses), the pooled mode's own cost;
- pgbouncer: `=transaction` on --pgbouncer, a PgBouncer in transaction mode in front of the same database, as
  that role: the pooled mode as deployed.

Each app runs in-process (httpx's ASGI transport: no HTTP server), with a pool of `concurrency` connections and
the tool's persisted document sent by id with arguments picked from the database (bench/api_args.py).
Prints requests a second and p50 per tool and app, and each one's ratio to direct. A script that prints
figures, never a test.
"""

import argparse
import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace

import asyncpg
import httpx
from rich.console import Console
from rich.table import Table

from app.asgi import create_app
from app.data.embedded import database_url
from app.settings import Settings, load_settings
from bench.api_args import Variables, pick_arguments
from bench.api_bench import (
    REQUEST_TIMEOUT_S,
    SEED,
    Options,
    Timing,
    api_call,
    bodies,
    check_responses,
    drive,
    server_settings,
)
from schema.contract import TOOLS

APPS = ("direct", "no cache", "pgbouncer")
ROUNDS = 4


@asynccontextmanager
async def in_process(settings: Settings, url: str) -> AsyncIterator[httpx.AsyncClient]:
    application = create_app(settings, url)
    transport = httpx.ASGITransport(app=application)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://bench", timeout=REQUEST_TIMEOUT_S) as client:
            yield client
    finally:
        await application.state.engine.dispose()


async def _arguments(settings: Settings, url: str, count: int) -> dict[str, list[Variables]]:
    connection = await asyncpg.connect(url, server_settings=server_settings(settings))
    try:
        return await pick_arguments(connection, SEED, count)
    finally:
        await connection.close()


async def measure(settings: Settings, urls: Sequence[str], options: Options, count: int, console: Console) -> Table:
    """`urls`: the database directly, as the role, through PgBouncer."""
    arguments = await _arguments(settings, urls[0], count)
    pooled = replace(settings, pooler="transaction")
    table = Table("tool", *(f"{app} req/s" for app in APPS), *(f"{app} p50 ms" for app in APPS), "ratio to direct")
    async with AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(in_process(app_settings, url))
            for app_settings, url in zip((settings, pooled, pooled), urls, strict=True)
        ]
        console.print(f"{options.concurrency} in flight, {options.seconds} s per tool and app, {count} argument sets")
        for tool in options.tools:
            payloads = bodies(tool, arguments[tool], by_id=True)
            for client in clients:
                await check_responses(client, tool, payloads, options.concurrency)
            console.print(f"{tool} ...")
            table.add_row(tool, *_row(await _interleaved(clients, payloads, options)))
    return table


async def _interleaved(
    clients: Sequence[httpx.AsyncClient], payloads: Sequence[bytes], options: Options
) -> list[Timing]:
    """Each app driven ROUNDS times in turn, `seconds / ROUNDS` at a time, so that a change of the machine's load
    falls on all three; their timings added up."""
    rounds: list[list[Timing]] = [[] for _ in clients]
    for _ in range(ROUNDS):
        for timings, client in zip(rounds, clients, strict=True):
            call = api_call(client, payloads)
            timings.append(await drive(call, options.concurrency, options.warmup, options.seconds / ROUNDS))
    return [_added(timings) for timings in rounds]


def _added(timings: Sequence[Timing]) -> Timing:
    latencies = [latency for timing in timings for latency in timing.latencies]
    return Timing(sum(t.seconds for t in timings), latencies, sum(t.failures for t in timings))


def _row(timings: Sequence[Timing]) -> list[str]:
    direct = timings[0].rate
    rates = [f"{timing.rate:,.0f}" + (f" ({timing.failures} failed)" if timing.failures else "") for timing in timings]
    medians = [f"{timing.percentile_ms(50):.2f}" for timing in timings]
    return [*rates, *medians, " / ".join(f"{timing.rate / direct:.2f}" for timing in timings[1:])]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--role-url", required=True, help="the database, as the role that carries the settings")
    parser.add_argument("--pgbouncer", required=True, help="a PgBouncer in transaction mode before it, as that role")
    parser.add_argument("--concurrency", type=int, default=8, help="requests in flight, and each pool's size")
    parser.add_argument("--seconds", type=float, default=8.0, help="timed seconds per tool and app (default 8)")
    parser.add_argument("--warmup", type=float, default=0.5, help="untimed seconds before each round (default 0.5)")
    parser.add_argument("--arguments", type=int, default=200, help="argument sets per tool (default 200)")
    args = parser.parse_args(argv)
    options = Options(list(TOOLS), args.concurrency, args.seconds, args.warmup, send_text=False)
    settings = replace(load_settings(), pool_size=args.concurrency)
    console = Console(width=160)
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        urls = (url, args.role_url, args.pgbouncer)
        console.print(asyncio.run(measure(settings, urls, options, args.arguments, console)))


if __name__ == "__main__":
    main()
