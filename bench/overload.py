"""Overload: what the API does at 1,000 connections against 32 (issue 15: "sheds what it cannot serve with
503/429 and the error envelope, keeps /healthz and /readyz under 100 ms, and its p99 for admitted requests
stays within 2x of its p99 at 32 connections").

    python -m bench.overload [--seconds 30] [--warmup 5] [--base-connections 32] [--connections 1000]
                             [--threads 2] [--workers 1] [--soak SECONDS] [--soak-connections N]

One command, on the database of ISNAD_DATABASE_URL (or the embedded one):
1. draws the arguments of bench/load.py with its defaults (seed 20261130) and writes one file of POST
   bodies mixing its nine configurations of the API (bench/soak.py's: the free web document and the
   eight persisted tools, an equal share each);
2. raises this process's open-file limit to its hard limit (wrk and the API inherit it), and starts the
   API the production way (`isnad-graphql serve`, `--workers`), with its request log on (one JSON line
   per request: the admitted requests' times are read from it) and with one keyed profile, `prober`,
   rate-limited to 2 requests a second (burst 4), that only the checks below use (wrk sends no key, so
   its requests meet admission alone);
3. runs wrk (bench/wrk_post.lua) for `--seconds` at `--base-connections`, then at `--connections`,
   each after an untimed `--warmup`; during each timed run a probe thread asks `/healthz` and `/readyz`
   every 100 ms and scrapes `/metrics` every second; during the overload a plain HTTP client (httpx)
   sends its own requests, without a key and with the prober's, and checks every 503 and 429 it gets:
   the error envelope of the surface with its code, and a `Retry-After` of whole seconds;
4. prints, for each run: the responses by status (200 / 503 / 429 / other, from wrk's script), socket
   errors, wrk's p50/p99 over all responses, the p50/p99 of the admitted (200) requests from the
   request log (arrival to last byte, admission's queue included; the kernel's accept queue is not), the
   probes' p50/p99/max and failures, the CPU shares of the API, wrk, PostgreSQL and the rest of the machine
   over the timed run (bench/cpu_shares.py), the counters of the last `/metrics` scrape (requests answered 503
   `UPSTREAM_UNAVAILABLE` with no operation run: refused by admission; 429 `RATE_LIMITED`); then the
   checks of the refusals, and the ratios of the admitted p99 at `--connections` to that at
   `--base-connections`.
5. `--soak SECONDS`: then bench/soak.py's memory reading on the same API, at `--soak-connections`
   (default: the admission limit, `--workers` x (ISNAD_MAX_IN_FLIGHT + ISNAD_MAX_QUEUED)): RSS of the
   API's processes every 15 s, at the start, largest, at the end, growth and slope.
A script that prints figures, never a test: it judges none of them (wrk, the API and PostgreSQL share the
machine's CPUs). It exits non-zero only when something is broken: wrk is missing, the API does not
start or answers an error before the load. The API is stopped at the end, whatever happens.
"""

import argparse
import json
import os
import re
import resource
import secrets
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import orjson
from prometheus_client.parser import text_string_to_metric_families
from rich.console import Console

from app.settings import Settings
from bench.cpu_shares import CpuClock
from bench.load import SEED
from bench.load_report import machine
from bench.overload_watch import Checker, Prober, Probes, Refusals
from bench.servers import (
    Server,
    api_command,
    database_env,
    free_port,
    server,
    wait_ready,
)
from bench.soak import Options as SoakOptions
from bench.soak import (
    api_configurations,
    check_answers,
    draw_as_load,
    load_and_sample,
    memory_lines,
    with_wrk_and_database,
    write_mixed_bodies,
)
from bench.wrk import Load, parse_wrk, run_wrk

PROBER = "prober"
PROBER_RATE = "0.1/2"  # per second / burst: from the third keyed request of a round on, 429
SOAK_INTERVAL_S = 15.0


@dataclass(frozen=True)
class Options:
    threads: int
    base_connections: int
    connections: int
    seconds: int
    warmup: int
    workers: int
    soak_s: int
    soak_connections: int | None


# -- one run ----------------------------------------------------------------------------------------


@dataclass
class Result:
    connections: int
    output: str  # wrk's report
    statuses: dict[str, int]
    admitted_ms: list[float]  # the request log's duration of every guarded request answered 200
    probes: Probes
    refusals: Refusals | None
    cpu: str  # the CPU shares of the API, wrk, PostgreSQL and the rest over the timed run


def statuses(output: str) -> dict[str, int]:
    pattern = r"^statuses: 200 (\d+), 503 (\d+), 429 (\d+), other (\d+); refusals without code or Retry-After (\d+)"
    match = re.search(pattern, output, re.MULTILINE)
    if match is None:
        raise SystemExit(f"unexpected wrk output (no statuses):\n{output}")
    return dict(zip(("200", "503", "429", "other", "unmarked"), map(int, match.groups()), strict=True))


def admitted_times(log: bytes) -> list[float]:
    """duration_ms of the request log's lines for /graphql, /tools or /mcp answered 200."""
    times = []
    for line in log.splitlines():
        if not line.startswith(b"{"):
            continue
        try:
            entry = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if entry.get("status") == 200 and entry.get("surface") in ("graphql", "tools", "mcp"):
            times.append(float(entry["duration_ms"]))
    return times


def log_bytes(api: Server) -> int:
    api.log.flush()
    return api.log.seek(0, os.SEEK_END)


def log_since(api: Server, offset: int) -> bytes:
    api.log.flush()
    api.log.seek(offset)
    return api.log.read()


def measure(api: Server, bodies: Path, load: Load, checker: Checker | None) -> Result:
    """An untimed warm-up, then the timed run with the probes (and the checker) beside it."""
    url = f"http://127.0.0.1:{api.port}"
    if load.warmup:
        run_wrk(url + "/graphql", bodies, load, load.warmup, SEED + 1000)
    offset = log_bytes(api)
    prober = Prober(url)
    prober.start()
    if checker is not None:
        checker.start()
    began, clock = time.monotonic(), CpuClock.now()
    try:
        output = run_wrk(url + "/graphql", bodies, load, load.seconds, SEED)
        cpu = CpuClock.now().shares_since(clock, api.process.pid, time.monotonic() - began)
    finally:
        for thread in (checker, prober):
            if thread is not None:
                thread.finish()
    refusals = checker.refusals if checker is not None else None
    admitted = admitted_times(log_since(api, offset))
    return Result(load.connections, output, statuses(output), admitted, prober.probes, refusals, cpu)


# -- the report -------------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def spread(values: Sequence[float]) -> str:
    if not values:
        return "no answer"
    return (
        f"p50 {percentile(values, 0.5):.1f} / p99 {percentile(values, 0.99):.1f} / max {max(values):.1f} ms "
        f"({len(values):,})"
    )


def metric_lines(text: str) -> list[str]:
    """From a /metrics scrape: requests answered 503 UPSTREAM_UNAVAILABLE before any document ran
    (admission's refusals), by surface; 429 RATE_LIMITED; 503 after a document ran; connections refused."""
    found: Counter[str] = Counter()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = sample.labels
            if sample.name == "isnad_requests_total" and labels.get("status") in ("503", "429"):
                run = "no document run" if labels.get("operation") == "none" else "a document run"
                found[f"isnad_requests_total {labels['status']} {labels['error']}, {run}, {labels['surface']}"] += int(
                    sample.value
                )
            elif sample.name == "isnad_connections_refused_total":
                found[f"isnad_connections_refused_total {labels.get('reason')}"] += int(sample.value)
            elif sample.name in ("isnad_pool_connections_in_use", "isnad_pool_connections_waiting"):
                found[sample.name + " (at the scrape)"] += int(sample.value)
    return [f"  {name}: {value:,}" for name, value in sorted(found.items())] or ["  (none of them yet)"]


def distribution(output: str) -> str:
    """wrk's latency distribution (--latency), on one line."""
    found = re.findall(r"^\s+(\d+)%\s+(\S+)\s*$", output, re.MULTILINE)
    return "distribution " + ", ".join(f"{share}% {value}" for share, value in found)


def run_lines(result: Result) -> list[str]:
    wrk = parse_wrk(result.output)
    counts = result.statuses
    socket = re.search(r"Socket errors: .*", result.output)
    lines = [
        f"{result.connections:,} connections: {wrk.requests:,} responses, {wrk.rate:,.1f} req/s",
        f"  statuses: 200 {counts['200']:,} / 503 {counts['503']:,} / 429 {counts['429']:,} / "
        f"other {counts['other']:,}; " + (socket.group(0) if socket else "no socket errors"),
        f"  503 and 429 without the envelope's code in the body or without Retry-After (wrk's script, every "
        f"one): {counts['unmarked']:,}",
        f"  wrk, all responses: p50 {wrk.p50_ms:.1f} / p99 {wrk.p99_ms:.1f} ms; " + distribution(result.output),
        f"  admitted (200, request log): {spread(result.admitted_ms)}",
        f"  {result.cpu}",
    ]
    for path, times in result.probes.times_ms.items():
        lines.append(f"  {path}: {spread(times)}")
    failures = ", ".join(f"{name} x{count}" for name, count in sorted(result.probes.failures.items()))
    lines.append(f"  probe failures: {failures or 'none'}; /metrics scraped {result.probes.scrapes} times")
    lines.append("  /metrics at the last scrape (counters since the API started):")
    return lines + metric_lines(result.probes.last_metrics)


def refusal_lines(refusals: Refusals) -> list[str]:
    got = ", ".join(f"{name} x{count}" for name, count in sorted(refusals.statuses.items()))
    lines = [
        f"plain-client checks during the overload: {got}",
        f"  503 and 429 checked: {refusals.checked:,}; lacking the envelope, its code or Retry-After: "
        f"{refusals.faulty:,}",
    ]
    return lines + [f"    {fault}" for fault in refusals.faults]


def ratio_lines(base: Result, over: Result) -> list[str]:
    if not base.admitted_ms or not over.admitted_ms:
        return ["admitted p99 ratio: n/a (no admitted request in one of the runs)"]
    p99_base, p99_over = percentile(base.admitted_ms, 0.99), percentile(over.admitted_ms, 0.99)
    wrk_base, wrk_over = parse_wrk(base.output).p99_ms, parse_wrk(over.output).p99_ms
    return [
        f"admitted p99 (request log) at {over.connections:,} / at {base.connections:,}: "
        f"{p99_over:.1f} / {p99_base:.1f} ms = {p99_over / p99_base:.2f}",
        f"wrk p99 of all responses at {over.connections:,} / at {base.connections:,}: "
        f"{wrk_over:.1f} / {wrk_base:.1f} ms = {wrk_over / wrk_base:.2f}",
    ]


# -- the run ----------------------------------------------------------------------------------------


def raise_open_files(wanted: int) -> str:
    """The soft limit of open files up to the hard one (wrk and the API inherit it); what it is now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        soft = hard if hard == resource.RLIM_INFINITY else max(soft, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return f"open files: {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}"


def first_bodies(bodies: Path) -> tuple[bytes, bytes]:
    """A /graphql body (the file's first, a persisted document) and a /tools/get_hadith body for the checks."""
    graphql = bodies.read_bytes().split(b"\n", 1)[0]
    for line in bodies.read_bytes().splitlines():
        variables = json.loads(line).get("variables", {})
        if set(variables) == {"hadith_id"}:
            return graphql, orjson.dumps(variables)
    raise SystemExit("no get_hadith body drawn")


def header(options: Options, settings: Settings, lines: int, limits: str) -> list[str]:
    averages = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [
        f"{machine()}; load average (1, 5, 15 min) {averages}; {limits}",
        f"API: `isnad-graphql serve --workers {options.workers}`, ISNAD_MAX_IN_FLIGHT {settings.max_in_flight}, "
        f"ISNAD_MAX_QUEUED {settings.max_queued}, ISNAD_QUEUE_WAIT_MS {settings.queue_wait_ms}, ISNAD_POOL_SIZE "
        f"{settings.pool_size} per worker; request log on; rate limit only for the checks' key "
        f"({PROBER}={PROBER_RATE})",
        f"wrk: {options.threads} threads, {options.seconds} s per run after {options.warmup} s of warm-up; {lines:,} "
        "bodies mixing the web document and the eight persisted tools (bench/soak.py's); wrk, the API and "
        "PostgreSQL share the CPUs",
    ]


def soak(api: Server, bodies: Path, options: Options, settings: Settings, console: Console) -> None:
    limit = options.workers * (settings.max_in_flight + settings.max_queued)
    connections = options.soak_connections or limit
    console.print(
        f"\nsoak: {options.soak_s} s at {connections} connections (the admission limit: {limit}), RSS of the "
        f"API's processes every {SOAK_INTERVAL_S:g} s (elapsed s, MiB):"
    )
    load = Load(options.threads, connections, options.soak_s, options.warmup)
    run, samples = load_and_sample(
        api, f"http://127.0.0.1:{api.port}/graphql", bodies, SoakOptions(load, SOAK_INTERVAL_S), console
    )
    console.print(
        f"soak: {run.requests:,} responses, {run.rate:,.1f} req/s, p50 {run.p50_ms:.1f} / p99 {run.p99_ms:.1f} ms "
        f"(all responses), not 200 or with errors: {run.bad:,}"
    )
    console.print("\n".join(memory_lines(samples)))


def overload(options: Options, settings: Settings, url: str, console: Console) -> None:
    limits = raise_open_files(options.connections + 1000)
    drawn = draw_as_load(url, settings)
    key = secrets.token_hex(16)
    env = {
        **database_env(url),
        "ISNAD_REQUEST_LOG": "on",
        "ISNAD_API_KEYS": f"{PROBER}:persisted:{key}",
        "ISNAD_RATE_LIMITS": f"{PROBER}={PROBER_RATE}",
    }
    console.print("starting the API ...")
    port = free_port()
    with ExitStack() as stack:
        api = stack.enter_context(server("API", api_command(port, options.workers), port, env, "/readyz"))
        if (failure := wait_ready(api)) is not None:
            raise SystemExit(failure)
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="isnad-overload-")))
        configs = api_configurations(api, drawn)
        check_answers(configs)
        bodies = write_mixed_bodies(configs, folder)
        console.print("\n".join(header(options, settings, bodies.read_bytes().count(b"\n"), limits)))
        base_url = f"http://127.0.0.1:{port}"
        results = []
        for connections, checked in ((options.base_connections, False), (options.connections, True)):
            console.print(f"wrk at {connections:,} connections ...")
            checker = Checker(base_url, *first_bodies(bodies), key) if checked else None
            load = Load(options.threads, connections, options.seconds, options.warmup)
            results.append(measure(api, bodies, load, checker))
            console.print("\n".join(run_lines(results[-1])))
        base, over = results
        if over.refusals is not None:
            console.print("\n".join(refusal_lines(over.refusals)))
        console.print("\n".join(ratio_lines(base, over)))
        if options.soak_s:
            soak(api, bodies, options, settings, console)


def parse_options(argv: Sequence[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=30, help="timed seconds per run (default 30)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed seconds of wrk before each run (default 5)")
    parser.add_argument("--base-connections", type=int, default=32, help="the reference run (default 32)")
    parser.add_argument("--connections", type=int, default=1000, help="the overload (default 1000)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--workers", type=int, default=1, help="API processes (default 1)")
    parser.add_argument("--soak", type=int, default=0, metavar="SECONDS", help="then a soak this long (default none)")
    parser.add_argument("--soak-connections", type=int, default=None, help="default: the admission limit")
    args = parser.parse_args(argv)
    numbers = (args.seconds, args.base_connections, args.connections, args.threads, args.workers)
    if min(numbers) < 1 or args.warmup < 0 or args.soak < 0 or args.threads > args.base_connections:
        parser.error("invalid option")
    return Options(args.threads, args.base_connections, args.connections, args.seconds, args.warmup, args.workers,
                   args.soak, args.soak_connections)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    options = parse_options(argv)
    with_wrk_and_database(lambda settings, url, console: overload(options, settings, url, console))


if __name__ == "__main__":
    main()
