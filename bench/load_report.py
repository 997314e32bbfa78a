"""bench/load.py's report: the machine, and one table of the medians of the rounds with their ratios to the
floor and to PostGraphile of the same run."""

import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from rich import box
from rich.table import Table

from bench.load_answers import Configuration, Role
from bench.wrk import Run


def cpu_model() -> str:
    lines = Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []
    models = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return models[0] if models else "unknown CPU"


def machine() -> str:
    """The time (UTC), the CPUs and their model: the first words of every benchmark's header."""
    return (
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), "
        f"{cpu_model()}"
    )


def ratio(value: float, base: float | None) -> str:
    return f"{value / base:.2f}" if base else "n/a"


def median_rate(configs: Sequence[Configuration], role: Role) -> float | None:
    found = [config for config in configs if config.role == role]
    return found[0].median(lambda run: run.rate) if found else None


def statements_per_request(config: Configuration) -> str:
    """The mean of what the server reported (server-timing); blank for a server that reports nothing."""
    timed = sum(run.timed for run in config.runs)
    return f"{sum(run.statements for run in config.runs) / timed:.1f}" if timed else ""


def cpu_per_request(config: Configuration, read: Callable[[Run], float]) -> str:
    """CPU milliseconds per answered request, over every round (`read`: a run's CPU seconds of one party)."""
    return f"{1000 * sum(read(run) for run in config.runs) / sum(run.requests for run in config.runs):.2f}"


def row(config: Configuration, floor_rate: float | None, peer_rate: float | None) -> list[str]:
    rate = config.median(lambda run: run.rate)
    return [
        config.name,
        f"{rate:,.0f}",
        " / ".join(f"{run.rate:,.0f}" for run in config.runs),
        f"{config.median(lambda run: run.p50_ms):.1f}",
        f"{config.median(lambda run: run.p99_ms):.1f}",
        statements_per_request(config),
        cpu_per_request(config, lambda run: run.server_cpu_s),
        cpu_per_request(config, lambda run: run.postgres_cpu_s),
        f"{max(run.rss for run in config.runs) / 2**20:.0f}",
        f"{sum(run.bytes_read for run in config.runs) / sum(run.requests for run in config.runs) / 1024:.1f}",
        ratio(rate, floor_rate),
        ratio(rate, peer_rate),
        str(sum(run.bad for run in config.runs)),
    ]


def table(configs: Sequence[Configuration]) -> Table:
    floor_rate, peer_rate = median_rate(configs, "floor"), median_rate(configs, "PostGraphile")
    grid = Table(box=box.MARKDOWN)
    grid.add_column("configuration")
    headers = (
        *("req/s", "rounds", "p50 ms", "p99 ms", "SQL/req", "server CPU ms/req", "PG CPU ms/req"),
        *("RSS MiB", "KiB/resp", "/ floor", "/ PostGraphile"),
    )
    for header_text in (*headers, "bad"):
        grid.add_column(header_text, justify="right")
    for config in configs:
        grid.add_row(*row(config, floor_rate, peer_rate))
    return grid
