"""PgBouncer in transaction mode in front of the test PostgreSQL, started from its binary, and the login roles
the API reaches it with.

`pgbouncer(database_url, roles)` writes an ini and an auth file in a folder of its own (`auth_type = trust`,
the roles listed), starts `pgbouncer` on a free loopback port with `pool_mode = transaction` and
`default_pool_size = 2` (every client of a role shares two server sessions), waits until it listens, and
stops it and removes the folder after. PgBouncer refuses to run as root: under root it runs as the owner of
the server's unix socket folder (so that it can reach the socket), or as nobody. Its log is kept in the folder
and shown when it does not start.

`login_role(database_url, wanted)` creates a role of a unique name that may read the live schema, with the
session settings `wanted` set on it in the test database (as app/data/pooled_sessions.py writes them), and
drops it after.
"""

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from app.data.pooled_sessions import assignments
from tests.conftest import LIVE_SCHEMA
from tests.tcp_proxy import free_port, server_address

START_SECONDS = 10
SEARCHED = f"{os.environ.get('PATH', '')}:/usr/sbin"  # Debian installs it there, off a user's PATH
INI = """[databases]
{database} = host={host} port={server_port} dbname={database}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/users.txt
pool_mode = transaction
default_pool_size = 2
max_client_conn = 200
"""


def pgbouncer_or_skip() -> str:
    """The system's pgbouncer; skipped where it is missing, but a failure under CI, which installs it."""
    found = shutil.which("pgbouncer", path=SEARCHED)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("pgbouncer is missing under CI: .ci/run installs it with apt-get")
        pytest.skip("pgbouncer is not installed (apt-get install pgbouncer)")
    return found


def database_name(database_url: str) -> str:
    return urlsplit(database_url).path.lstrip("/")


def role_url(database_url: str, role: str, port: int) -> str:
    """The URL of `database_url`'s database through the PgBouncer on `port`, as `role`."""
    return f"postgresql://{role}@127.0.0.1:{port}/{database_name(database_url)}"


@contextmanager
def pgbouncer(database_url: str, roles: Sequence[str]) -> Iterator[int]:
    """A running PgBouncer in front of `database_url`'s server, for `roles`; yields its port."""
    executable = pgbouncer_or_skip()
    host, server_port = server_address(database_url)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="isnad-pgbouncer-") as name:
        folder = Path(name)
        folder.chmod(0o755)  # readable by the user it runs as
        ini = INI.format(
            database=database_name(database_url), host=host, server_port=server_port, port=port, folder=folder
        )
        (folder / "pgbouncer.ini").write_text(ini)
        (folder / "users.txt").write_text("".join(f'"{role}" ""\n' for role in roles))
        with (folder / "pgbouncer.log").open("wb") as log:
            command = [executable, *_as_user(host), str(folder / "pgbouncer.ini")]
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603 (a fixed command)
            try:
                _wait_listening(port, process, folder / "pgbouncer.log")
                yield port
            finally:
                process.terminate()
                process.wait(timeout=START_SECONDS)


def _as_user(host: str) -> list[str]:
    if os.geteuid() != 0:
        return []
    owner = Path(host).stat().st_uid if host.startswith("/") else 0
    return ["-u", pwd.getpwuid(owner).pw_name if owner else "nobody"]


def _wait_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"pgbouncer did not start: {log.read_text()}")


@asynccontextmanager
async def login_role(database_url: str, wanted: Mapping[str, str]) -> AsyncIterator[str]:
    """A role that may read the live schema, with the session settings `wanted`; dropped after."""
    role = f"isnad_pooled_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(database_url)
    try:
        await admin.execute(f"CREATE ROLE {role} LOGIN")
        await admin.execute(f"GRANT USAGE ON SCHEMA {LIVE_SCHEMA} TO {role}")
        await admin.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {LIVE_SCHEMA} TO {role}")
        for assignment in assignments(wanted):
            await admin.execute(f"ALTER ROLE {role} IN DATABASE {database_name(database_url)} SET {assignment}")
        yield role
    finally:
        await admin.execute(f"DROP OWNED BY {role}")
        await admin.execute(f"DROP ROLE {role}")
        await admin.close()
