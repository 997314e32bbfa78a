"""wrk with bench/wrk_post.lua: one run against one URL, and what its report says.

report = parse_wrk(run_wrk(url, bodies, load, seconds, seed))
"""

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

WRK_SCRIPT = Path(__file__).resolve().with_name("wrk_post.lua")
TIMEOUT = "10s"  # wrk's per-request timeout: a slower response counts as a socket timeout
TIME_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
SIZE_UNITS = {"B": 1.0, "KB": 1024.0, "MB": 1024.0**2, "GB": 1024.0**3, "TB": 1024.0**4}


@dataclass(frozen=True)
class Load:
    threads: int
    connections: int
    seconds: int
    warmup: int


@dataclass
class Run:
    rate: float
    p50_ms: float
    p99_ms: float
    requests: int
    bytes_read: float
    bad: int  # not 200, or GraphQL errors, or socket errors
    statements: int  # SQL statements reported by the server (server-timing), over `timed` responses
    timed: int  # responses that carried a server-timing header
    rss: int = 0  # the server's, read after the run
    server_cpu_s: float = 0.0  # CPU seconds the server's processes used during the run
    postgres_cpu_s: float = 0.0  # CPU seconds PostgreSQL's processes used during the run


def installed() -> bool:
    return shutil.which("wrk") is not None


def _ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text)
    if match is None:
        raise SystemExit(f"unexpected wrk duration {text!r}")
    return float(match.group(1)) * TIME_UNITS[match.group(2)]


def parse_wrk(output: str) -> Run:
    """Req/s, p50, p99 (--latency), requests, bytes read, bad responses and SQL statements from wrk's report."""

    def find(pattern: str) -> re.Match[str]:
        match = re.search(pattern, output, re.MULTILINE)
        if match is None:
            raise SystemExit(f"unexpected wrk output (no /{pattern}/):\n{output}")
        return match

    totals = find(r"^\s*(\d+) requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB|TB) read")
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    bad = int(find(r"^bad responses: (\d+)").group(1))
    bad += sum(map(int, socket_errors.groups())) if socket_errors else 0
    sql = find(r"^sql statements: (\d+) in (\d+) responses")
    return Run(
        rate=float(find(r"^Requests/sec:\s+([\d.]+)").group(1)),
        p50_ms=_ms(find(r"^\s+50%\s+(\S+)").group(1)),
        p99_ms=_ms(find(r"^\s+99%\s+(\S+)").group(1)),
        requests=int(totals.group(1)),
        bytes_read=float(totals.group(2)) * SIZE_UNITS[totals.group(3)],
        bad=bad,
        statements=int(sql.group(1)),
        timed=int(sql.group(2)),
    )


def run_wrk(url: str, bodies: Path, load: Load, seconds: int, seed: int) -> str:
    """wrk's report of `seconds` of load on `url`, each request a random line of `bodies`."""
    command = ["wrk", f"-t{load.threads}", f"-c{load.connections}", f"-d{seconds}s", "--timeout", TIMEOUT,
               "--latency", "-s", str(WRK_SCRIPT), url, "--", str(bodies), str(seed)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603 - fixed command
    if done.returncode != 0:
        raise SystemExit(f"wrk failed ({done.returncode}): {done.stderr or done.stdout}")
    return done.stdout
