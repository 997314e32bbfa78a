"""Server processes for the benchmarks: started in a process group of their own, awaited until they
answer, measured (RSS) and stopped with everything they started.

    with running_api(url) as api:   # `isnad-graphql serve --workers 1`, ready
        ... http://127.0.0.1:{api.port}/graphql ...
"""

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parents[1]
READY_TIMEOUT_S = 90.0  # PostGraphile introspects the whole schema first
JSON_HEADERS = {"content-type": "application/json"}
SETTLE_TIMEOUT_S = 10.0  # at most, for the statements a run left running to end
RUNNING = (
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active'"
    " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
)


@dataclass
class Server:
    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: IO[bytes]
    ready_path: str
    ready_body: bytes | None = None  # POST this to `ready_path`; None: GET it

    def log_tail(self, characters: int = 2000) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-characters:]

    def rss_bytes(self) -> int:
        """The resident memory of the server's process group (it was started in a session of its own)."""
        return group_rss(self.process.pid)


def _group_processes(group: int) -> Iterator[Path]:
    """The /proc folders of the live (not zombie) processes of a process group."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "pid (comm)": state ppid pgrp ...
        except (OSError, IndexError):
            continue  # gone meanwhile
        if len(fields) > 2 and fields[2] == str(group) and fields[0] != "Z":
            yield stat.parent


def group_rss(group: int) -> int:
    """The sum of VmRSS over the processes of a process group."""
    total = 0
    for folder in _group_processes(group):
        try:
            match = re.search(r"^VmRSS:\s+(\d+) kB", (folder / "status").read_text(), re.MULTILINE)
        except OSError:
            continue
        total += int(match.group(1)) * 1024 if match else 0
    return total


def stop_servers_on_sigterm() -> None:
    """SIGTERM raises SystemExit, which unwinds the servers' context managers: each server is stopped."""
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group (it was started in a session of its own), then SIGKILL."""
    for sent, grace_s in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            break  # nothing left in the group
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            process.poll()  # reaps the leader once it has exited
            if next(_group_processes(process.pid), None) is None:
                return
            time.sleep(0.05)
    process.poll()


@contextmanager
def server(
    name: str, command: Sequence[str], port: int, env: dict[str, str], ready_path: str, ready_body: bytes | None = None
) -> Iterator[Server]:
    """Starts `command` (listening on `port`) in a process group of its own; stops the group on exit."""
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(  # noqa: S603 - fixed commands
            list(command), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            yield Server(name, port, process, log, ready_path, ready_body)
        finally:
            stop(process)


def wait_ready(target: Server) -> str | None:
    """None once `target` answers 200; else why it never did."""
    url = f"http://127.0.0.1:{target.port}{target.ready_path}"
    deadline = time.monotonic() + READY_TIMEOUT_S
    with httpx.Client(timeout=5.0) as client:
        while time.monotonic() < deadline:
            if target.process.poll() is not None:
                return f"{target.name} exited with {target.process.returncode}:\n{target.log_tail()}"
            try:
                if target.ready_body is None:
                    response = client.get(url)
                else:
                    response = client.post(url, content=target.ready_body, headers=JSON_HEADERS)
                if response.status_code == 200:
                    return None
            except httpx.TransportError:
                pass
            time.sleep(0.2)
    return f"{target.name} was not ready in {READY_TIMEOUT_S:.0f} s:\n{target.log_tail()}"


def settle(url: str) -> None:
    """Wait, SETTLE_TIMEOUT_S at most, until no statement runs in the database but this check's. wrk stops with a
    request in flight on each of its connections; a server cancels them, and until their statements end they hold
    its places and connections, so that the next run's first requests would queue behind them (and, past the
    admission's wait, be refused for capacity: seen as 503s and a p99 of seconds on the slowest searches)."""
    asyncio.run(_settle(url))


async def _settle(url: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        while await connection.fetchval(RUNNING) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
    finally:
        await connection.close()


def database_env(url: str) -> dict[str, str]:
    """This process's environment, with the servers pointed at `url`."""
    return {**os.environ, "ISNAD_DATABASE_URL": url}


def api_command(port: int, workers: int = 1) -> list[str]:
    """`isnad-graphql serve` (the same uvicorn settings as in production), `workers` processes, on `port`."""
    binary = str(Path(sys.executable).with_name("isnad-graphql"))
    return [binary, "serve", "--workers", str(workers), "--port", str(port)]


@contextmanager
def running_api(url: str) -> Iterator[Server]:
    """The API on a free port, reading `url`, once it is ready (/readyz); stopped on exit."""
    port = free_port()
    with server("API", api_command(port), port, database_env(url), "/readyz") as api:
        if (failure := wait_ready(api)) is not None:
            raise SystemExit(failure)
        yield api
