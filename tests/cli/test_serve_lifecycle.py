"""`isnad-graphql serve` on the embedded PostgreSQL stops it when it stops: SIGTERM drains and unwinds; a
server that a killed `serve` left running is stopped by the next one, and one that crashed is recovered
(`app/data/embedded_leftover.py`). On a database of another import version it says so at start-up, is not
ready, and refuses requests; its answers name no server software."""

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.data.embedded_leftover import reclaim
from app.schema_version import SCHEMA_VERSION
from app.text.arabic import NORMALIZER_VERSION
from bench.servers import free_port
from ingest.run import ImportReport
from tests.conftest import REPO
from tests.live_views import imported_as

COMMAND = str(Path(os.environ.get("VIRTUAL_ENV", REPO / ".venv")) / "bin" / "isnad-graphql")
STARTUP_SECONDS = 120  # initdb and the first start of an embedded server on a loaded machine
POSTMASTER_PID = "postmaster.pid"
STOP_SECONDS = 10  # PostgreSQL's own file: present while a server runs on the folder


def _wait_healthy(base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    said = process.communicate()[1].decode() if process.poll() is not None else ""
    raise AssertionError(f"serve did not start {said}")


STARTED: list[subprocess.Popen[bytes]] = []  # every `serve` a test started, killed after it if still running


def _serving(home: Path) -> subprocess.Popen[bytes]:
    """`serve` on the embedded PostgreSQL of `home`, once it answers; its stderr kept."""
    return _serving_with({"ISNAD_HOME": str(home)})[0]


def _serving_with(settings: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """`serve` with these ISNAD_* settings (no ISNAD_DATABASE_URL unless they name one), once it answers, and its
    address; its stderr kept."""
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if k != "ISNAD_DATABASE_URL"} | settings
    process = subprocess.Popen(  # noqa: S603 - our own command
        [COMMAND, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    STARTED.append(process)
    base = f"http://127.0.0.1:{port}"
    _wait_healthy(base, process)
    return process, base


def _terminated(process: subprocess.Popen[bytes]) -> str:
    process.send_signal(signal.SIGTERM)
    try:
        _, stderr = process.communicate(timeout=STARTUP_SECONDS)
    finally:
        process.kill()
    assert process.returncode == 0, stderr
    return stderr.decode()


def _postmaster(home: Path) -> int:
    return int((home / "pgdata" / POSTMASTER_PID).read_text().split()[0])


def _alive(pid: int) -> bool:
    """Running: neither gone nor a zombie that init has not reaped yet."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _ends(pid: int) -> bool:
    deadline = time.monotonic() + STOP_SECONDS
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not _alive(pid)


def test_sigterm_stops_the_embedded_postgresql_that_serve_started(home: Path) -> None:
    process = _serving(home)
    assert (home / "pgdata" / POSTMASTER_PID).exists()
    stderr = _terminated(process)

    assert "Traceback" not in stderr
    assert not (home / "pgdata" / POSTMASTER_PID).exists()


def _kill_started() -> None:
    while STARTED:
        process = STARTED.pop()
        process.kill()
        process.wait()


@pytest.fixture(autouse=True)
def no_serve_left() -> Iterator[None]:
    """Every `serve` the test started is killed after it, even when the test fails."""
    yield
    _kill_started()


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    """An ISNAD_HOME of its own, whose server is stopped after the test even when the test fails: its `serve`
    first (a fixture torn down before `no_serve_left`), then the PostgreSQL that serve may have left."""
    yield tmp_path
    _kill_started()
    if (tmp_path / "pgdata").exists():
        reclaim(tmp_path / "pgdata")


def test_a_postgresql_left_running_by_a_killed_serve_is_stopped_by_the_next(home: Path) -> None:
    """SIGKILL leaves the embedded server running with the dead process listed as its holder: the next
    `serve` stops it, says so, starts its own, and stops that one when it ends."""
    killed = _serving(home)
    killed.kill()
    killed.communicate()
    leftover = _postmaster(home)
    assert _alive(leftover)

    process = _serving(home)
    assert _ends(leftover)
    stderr = _terminated(process)

    assert f"stopping the PostgreSQL a process that ended left running on {home.resolve()}" in stderr
    assert "Traceback" not in stderr
    assert not (home / "pgdata" / POSTMASTER_PID).exists()


def test_a_postgresql_that_crashed_is_recovered_by_the_next_serve(home: Path) -> None:
    """The server killed as well (a crash): its postmaster.pid stays behind, and the next `serve` says so,
    clears it and starts the server, which recovers."""
    killed = _serving(home)
    killed.kill()
    killed.communicate()
    os.kill(_postmaster(home), signal.SIGKILL)

    process = _serving(home)
    stderr = _terminated(process)

    assert "its PostgreSQL ended without shutting down; it recovers on start" in stderr
    assert "Traceback" not in stderr
    assert not (home / "pgdata" / POSTMASTER_PID).exists()


async def test_serve_on_data_of_another_version_says_so_at_start_up_is_not_ready_and_names_no_server(
    imported: ImportReport, database_url: str
) -> None:
    schema = "isnad_older_import"
    async with imported_as(database_url, schema, (SCHEMA_VERSION - 1, NORMALIZER_VERSION)):
        process, base = _serving_with({"ISNAD_DATABASE_URL": database_url, "ISNAD_DB_SCHEMA": schema})
        ready = httpx.get(f"{base}/readyz", timeout=5)
        refused = httpx.post(f"{base}/graphql", json={"query": "{ __typename }"}, timeout=5)
        stderr = _terminated(process)

    assert (ready.status_code, ready.json()["status"]) == (503, "unreadable data")
    assert f"this server reads schema version {SCHEMA_VERSION} and normalizer version {NORMALIZER_VERSION}" in stderr
    assert "Until then every request is UPSTREAM_UNAVAILABLE." in stderr
    assert "Traceback" not in stderr
    assert refused.json()["errors"][0]["extensions"]["code"] == "UPSTREAM_UNAVAILABLE"
    assert "server" not in refused.headers  # serve names no server software
