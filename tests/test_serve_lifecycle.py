"""`isnad-graphql serve` on the embedded PostgreSQL stops it when it stops: SIGTERM drains and unwinds, and
the next `serve` starts a server of its own rather than joining one left running."""

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from bench.servers import free_port
from tests.conftest import REPO

COMMAND = str(Path(os.environ.get("VIRTUAL_ENV", REPO / ".venv")) / "bin" / "isnad-graphql")
STARTUP_SECONDS = 120  # initdb and the first start of an embedded server on a loaded machine
POSTMASTER_PID = "postmaster.pid"  # PostgreSQL's own file: present while a server runs on the folder


def _wait_healthy(base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError("serve did not start")


def test_sigterm_stops_the_embedded_postgresql_that_serve_started(tmp_path: Path) -> None:
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if k != "ISNAD_DATABASE_URL"} | {"ISNAD_HOME": str(tmp_path)}
    process = subprocess.Popen(  # noqa: S603 - our own command
        [COMMAND, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_healthy(f"http://127.0.0.1:{port}", process)
        assert (tmp_path / "pgdata" / POSTMASTER_PID).exists()
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=STARTUP_SECONDS)
    finally:
        process.kill()

    assert process.returncode == 0, stderr
    assert b"Traceback" not in stderr
    assert not (tmp_path / "pgdata" / POSTMASTER_PID).exists()
