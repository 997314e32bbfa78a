"""Memory under load: the API under one long wrk run that mixes all its requests, its RSS read throughout
(issue 6: "per worker under 300 MiB RSS under load; no growth over a 10-minute run").

    python -m bench.soak [--minutes 10] [--interval 15] [--connections 32] [--threads 2] [--warmup 30]

One command:
1. starts (or joins) the embedded PostgreSQL, unless ISNAD_DATABASE_URL names a server, and draws the
   arguments of bench/load.py with its defaults (seed 20261130): 2,000 hadith that have chains and 200
   argument sets per other tool;
2. starts the API (`isnad-graphql serve --workers 1`) and checks that it answers the first body of each
   of its nine configurations of bench/load.py: the free web document and the eight persisted tools;
3. writes one file of POST bodies, those of bench/load.py for the nine, each list repeated up to the
   length of the longest so that each configuration gets an equal share of wrk's random picks;
4. runs wrk (bench/wrk_post.lua) for `--warmup` seconds, then for `--minutes`, and meanwhile reads the RSS
   of the API's process group every `--interval` seconds (at times aligned on the end of the warm-up),
   printing one line per reading, and once more when wrk is done;
5. prints the timed run's requests, req/s, p50/p99, bad responses and SQL statements per request
   (server-timing), and the RSS: at the start of the load (the first reading after the warm-up), the
   largest, at the end, the growth from the start of the load to the median of the last readings, and
   the least-squares slope of the readings after the warm-up.
A script that prints figures, never a test: it judges none of them. It exits non-zero only when
something is broken: wrk is missing, the API does not start, answers an error or exits during the run.
The API is stopped at the end, whatever happens.
"""

import argparse
import asyncio
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import cycle, islice
from pathlib import Path

import httpx
from rich.console import Console

from app.data.embedded import database_url
from app.settings import Settings, load_settings
from bench.load import SEED, Draw, configurations, draw
from bench.load import parse_options as load_defaults
from bench.load_answers import Configuration, answer
from bench.load_report import machine
from bench.servers import Server, running_api, stop_servers_on_sigterm
from bench.wrk import Load, Run, installed, parse_wrk, run_wrk

LAST_SAMPLES = 5  # the growth compares the first reading after the warm-up with the median of these
MIB = 2**20


@dataclass(frozen=True)
class Options:
    load: Load  # seconds: the timed run; warmup: the untimed run before it
    interval_s: float


@dataclass(frozen=True)
class Sample:
    elapsed_s: float  # since the load began (warm-up included)
    rss: int
    warm_up: bool  # read during the warm-up


# -- the requests -----------------------------------------------------------------------------------


def draw_as_load(url: str, settings: Settings) -> Draw:
    """The hadith ids and argument sets that `python -m bench.load` draws with its default options."""
    return asyncio.run(draw(url, settings, load_defaults([])))


def api_configurations(api: Server, drawn: Draw) -> list[Configuration]:
    """bench/load.py's configurations of the API: the free web document and the eight persisted tools
    (its floor configuration, built here on the API's server, is left out)."""
    return [config for config in configurations(api, api, None, drawn) if config.role == "API"]


def check_answers(configs: Sequence[Configuration]) -> None:
    """Each configuration's first body is answered 200 with data and without errors; else exit."""
    with httpx.Client(timeout=30.0) as client:
        for config in configs:
            answer(client, config, 0)


def write_mixed_bodies(configs: Sequence[Configuration], folder: Path) -> Path:
    """One file, one POST body per line: each configuration's bodies, repeated up to the length of the
    longest list, so that each configuration gets an equal share of wrk's random picks."""
    longest = max(len(config.bodies) for config in configs)
    lines = [body for config in configs for body in islice(cycle(config.bodies), longest)]
    path = folder / "soak-bodies.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


# -- the load and the readings ----------------------------------------------------------------------


def reading_times(load: Load, interval_s: float) -> Iterator[float]:
    """Seconds since the load began, every `interval_s`, one of them at the end of the warm-up, up to
    (not including) the end of the timed run."""
    at = load.warmup % interval_s
    while at < load.warmup + load.seconds:
        yield at
        at += interval_s


def exited(api: Server) -> str | None:
    """Why the API is gone, or None while it runs."""
    if api.process.poll() is None:
        return None
    return f"the API exited with {api.process.returncode} during the run:\n{api.log_tail()}"


def sample_line(sample: Sample) -> str:
    return f"{sample.elapsed_s:7.0f} s {sample.rss / MIB:8.1f} MiB" + ("  (warm-up)" if sample.warm_up else "")


class Sampler(threading.Thread):
    """Reads the API's RSS at `reading_times` and prints each reading. When the API exits, it records why
    and sends SIGTERM to the main thread, which waits on wrk (its handler stops wrk, then the API)."""

    def __init__(self, api: Server, options: Options, console: Console) -> None:
        super().__init__(name="rss-sampler", daemon=True)
        self.api = api
        self.options = options
        self.console = console
        self.samples: list[Sample] = []
        self.failure: str | None = None
        self.began = time.monotonic()
        self._main_thread = threading.get_ident()
        self._stopped = threading.Event()

    def run(self) -> None:
        warmup = self.options.load.warmup
        for at in reading_times(self.options.load, self.options.interval_s):
            if self._stopped.wait(max(0.0, self.began + at - time.monotonic())):
                return
            self.failure = exited(self.api)
            if self.failure is not None:
                signal.pthread_kill(self._main_thread, signal.SIGTERM)
                return
            self.take(warm_up=at < warmup)

    def take(self, *, warm_up: bool) -> None:
        sample = Sample(time.monotonic() - self.began, self.api.rss_bytes(), warm_up)
        self.samples.append(sample)
        self.console.print(sample_line(sample))

    def stop(self) -> None:
        self._stopped.set()
        self.join()


def run_load(url: str, bodies: Path, load: Load) -> str:
    """wrk's report of the timed run, after an untimed warm-up run (none for a warm-up of 0 s)."""
    if load.warmup:
        run_wrk(url, bodies, load, load.warmup, SEED + 1000)
    return run_wrk(url, bodies, load, load.seconds, SEED)


def load_and_sample(
    api: Server, url: str, bodies: Path, options: Options, console: Console
) -> tuple[Run, list[Sample]]:
    """The timed run's figures, and the API's RSS read during the whole load and once after it."""
    sampler = Sampler(api, options, console)
    sampler.start()
    try:
        output = run_load(url, bodies, options.load)
    except SystemExit:
        if sampler.failure is not None:
            raise SystemExit(sampler.failure) from None
        raise
    finally:
        sampler.stop()
    if (failure := exited(api)) is not None:
        raise SystemExit(failure)
    sampler.take(warm_up=False)
    return parse_wrk(output), sampler.samples


# -- the report -------------------------------------------------------------------------------------


def header(options: Options, configs: Sequence[Configuration], lines: int) -> list[str]:
    load = options.load
    averages = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [
        f"{machine()}; load average (1, 5, 15 min) {averages}",
        f"wrk: {load.threads} threads, {load.connections} connections, {load.warmup} s of warm-up then "
        f"{load.seconds} s; {lines:,} bodies, an equal share for each of the {len(configs)} configurations "
        "(the web document and the eight persisted tools); the API is 1 process",
        f"RSS of the API's process group every {options.interval_s:g} s (elapsed s, MiB):",
    ]


def slope_mib_per_minute(samples: Sequence[Sample]) -> float | None:
    """The least-squares slope of RSS over time, or None with fewer than two distinct times."""
    if len({sample.elapsed_s for sample in samples}) < 2:
        return None
    minutes = [sample.elapsed_s / 60 for sample in samples]
    return statistics.linear_regression(minutes, [sample.rss / MIB for sample in samples]).slope


def memory_lines(samples: Sequence[Sample]) -> list[str]:
    """RSS at the start of the load, largest, at the end, growth and slope after the warm-up."""
    loaded = [sample for sample in samples if not sample.warm_up]
    start, end, largest = loaded[0], samples[-1], max(samples, key=lambda sample: sample.rss)
    last = loaded[-LAST_SAMPLES:]
    growth = statistics.median(sample.rss for sample in last) - start.rss
    slope = slope_mib_per_minute(loaded)
    return [
        f"RSS at the start of load:  {start.rss / MIB:.1f} MiB (at {start.elapsed_s:.0f} s)",
        f"RSS, largest:              {largest.rss / MIB:.1f} MiB (at {largest.elapsed_s:.0f} s)",
        f"RSS at the end:            {end.rss / MIB:.1f} MiB (at {end.elapsed_s:.0f} s)",
        f"RSS growth:                {growth / MIB:+.1f} MiB ({growth / start.rss:+.1%}), from the start of load "
        f"to the median of the last {len(last)} readings",
        "RSS slope:                 "
        + (f"{slope:+.2f} MiB/min" if slope is not None else "n/a")
        + f" (least squares over the {len(loaded)} readings after the warm-up)",
    ]


def load_lines(run: Run, seconds: int) -> list[str]:
    """The timed run's figures, as wrk and bench/wrk_post.lua report them."""
    statements = f"{run.statements / run.timed:.2f}" if run.timed else "n/a"
    return [
        f"requests:                  {run.requests:,} in the timed {seconds} s",
        f"req/s:                     {run.rate:,.1f}",
        f"p50 / p99:                 {run.p50_ms:.1f} / {run.p99_ms:.1f} ms",
        f"bad responses:             {run.bad:,} (not 200, GraphQL errors, socket errors)",
        f"SQL statements / request:  {statements} (server-timing, {run.timed:,} responses)",
    ]


# -- the run ----------------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0, help="timed minutes of load (default 10)")
    parser.add_argument("--interval", type=float, default=15.0, help="seconds between RSS readings (default 15)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (default 32)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--warmup", type=int, default=30, help="seconds of load before the timed run (default 30)")
    return parser


def parse_options(argv: Sequence[str] | None = None) -> Options:
    parser = _parser()
    args = parser.parse_args(argv)
    seconds = round(args.minutes * 60)
    if seconds < 1 or args.interval <= 0 or args.warmup < 0 or not 1 <= args.threads <= args.connections:
        parser.error("invalid option")
    return Options(Load(args.threads, args.connections, seconds, args.warmup), args.interval)


def soak(options: Options, settings: Settings, url: str, console: Console) -> None:
    drawn = draw_as_load(url, settings)
    console.print("starting the API ...")
    with running_api(url) as api, tempfile.TemporaryDirectory(prefix="isnad-soak-") as folder:
        configs = api_configurations(api, drawn)
        check_answers(configs)
        bodies = write_mixed_bodies(configs, Path(folder))
        lines = bodies.read_bytes().count(b"\n")
        console.print("\n".join(header(options, configs, lines)))
        run, samples = load_and_sample(api, configs[0].url, bodies, options, console)
    console.print()
    console.print("\n".join(load_lines(run, options.load.seconds) + memory_lines(samples)))


def with_wrk_and_database(work: Callable[[Settings, str, Console], None]) -> None:
    """`work(settings, url, console)` on the database of the settings (the embedded one, started or
    joined, unless ISNAD_DATABASE_URL names a server), its servers stopped on SIGTERM; exits without wrk."""
    stop_servers_on_sigterm()
    if not installed():
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    settings = load_settings()
    console = Console(width=None if sys.stdout.isatty() else 220)  # a pipe: no wrapping at 80 columns
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        work(settings, url, console)


def main(argv: Sequence[str] | None = None) -> None:
    options = parse_options(argv)
    with_wrk_and_database(lambda settings, url, console: soak(options, settings, url, console))


if __name__ == "__main__":
    main()
