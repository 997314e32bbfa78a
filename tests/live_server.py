"""The API served as production serves it (`isnad-graphql serve`: its loop, its protocol) on a free loopback port, in
a process of its own, for browsers and the real clients."""

import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx

from tests.tcp_proxy import free_port

START_SECONDS = 30


@contextmanager
def api_serving(database_url: str, schema: str, **environment: str) -> Iterator[str]:
    """`http://127.0.0.1:<port>` once /readyz answers; the server is ended after. `environment`
    adds ISNAD_* settings."""
    with api_logging_to(None, database_url, schema, environment) as base:
        yield base


@contextmanager
def api_logging_to(
    stderr: IO[bytes] | None, database_url: str, schema: str, environment: Mapping[str, str]
) -> Iterator[str]:
    """The same, with the server's log written to `stderr` (None: the test's own)."""
    port = free_port()
    env = {**os.environ, "ISNAD_DATABASE_URL": database_url, "ISNAD_DB_SCHEMA": schema, **environment}
    command = [
        str(Path(sys.executable).with_name("isnad-graphql")),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    process = subprocess.Popen(command, env=env, stderr=stderr)  # noqa: S603 (a fixed command line)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def _wait_ready(base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited with {process.returncode}")
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"serve did not get ready in {START_SECONDS} s")
