"""A real PostgreSQL, seeded once per session by the real importer from a real subset of the data."""

import io
import logging
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console
from starlette.applications import Starlette

from app.asgi import create_app
from app.data.database import SQL_LOG
from app.data.embedded import embedded_server
from app.settings import Settings, load_settings
from ingest.run import ImportReport, run_import
from tests.chromium import Chromium, chromium_or_skip
from tests.subset import build_subset

REPO = Path(__file__).resolve().parent.parent
LIVE_SCHEMA = "isnad"


def shared_data_dir() -> Path:
    return Path(os.environ.get("ISNAD_DATA_DIR") or REPO.parent / "shared" / "data").resolve()


def quiet_console() -> Console:
    return Console(file=io.StringIO(), width=160)


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """ISNAD_TEST_DATABASE_URL if set, else an embedded PostgreSQL in a temporary folder."""
    configured = os.environ.get("ISNAD_TEST_DATABASE_URL")
    if configured:
        yield configured
        return
    folder = tmp_path_factory.mktemp("postgres")
    with embedded_server(folder / "pgdata") as url:
        yield url
    shutil.rmtree(folder)  # the imported subset's server: hundreds of MB that no later session reads


@pytest.fixture(scope="session")
def subset_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("data")
    yield build_subset(shared_data_dir(), folder)
    shutil.rmtree(folder)


@pytest.fixture(scope="session")
def imported(database_url: str, subset_dir: Path) -> ImportReport:
    """The subset imported into the live schema, once for the whole session."""
    return run_import(subset_dir, database_url, LIVE_SCHEMA, quiet_console())


def api_settings(database_url: str, **overrides: object) -> Settings:
    """The environment's settings, pointed at `database_url` and the live schema, with `overrides`."""
    values: dict[str, object] = {"database_url": database_url, "db_schema": LIVE_SCHEMA, **overrides}
    return replace(load_settings(), **values)  # type: ignore[arg-type]


@dataclass
class Served:
    """An app of a test's own, a client on it, and every SQL statement sent while it serves."""

    app: Starlette
    client: httpx.AsyncClient
    statements: list[str]


class _Recorder(logging.Handler):
    def __init__(self, seen: list[str], arguments: list[Sequence[Any]] | None) -> None:
        super().__init__(logging.DEBUG)
        self.seen = seen
        self.arguments = arguments

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(record.getMessage())
        if self.arguments is not None:
            self.arguments.append(record.__dict__["arguments"])


@contextmanager
def recording(arguments: list[Sequence[Any]] | None = None) -> Iterator[list[str]]:
    """Every SQL statement the API sends meanwhile (its `isnad_graphql.sql` log, at DEBUG), and into
    `arguments`, when given, the arguments of each."""
    seen: list[str] = []
    handler, level = _Recorder(seen, arguments), SQL_LOG.level
    SQL_LOG.addHandler(handler)
    SQL_LOG.setLevel(logging.DEBUG)
    try:
        yield seen
    finally:
        SQL_LOG.removeHandler(handler)
        SQL_LOG.setLevel(level)


@asynccontextmanager
async def serving(settings: Settings, url: str) -> AsyncIterator[Served]:
    """A second app with these settings over `url`; its engine is disposed at the end."""
    application = create_app(settings, url)
    try:
        transport = httpx.ASGITransport(app=application)
        with recording() as seen:
            async with httpx.AsyncClient(transport=transport, base_url="http://isnad.test") as http:
                yield Served(application, http, seen)
    finally:
        await application.state.reads.dispose()
        await application.state.engine.dispose()


@pytest.fixture(scope="session")
async def app(imported: ImportReport, database_url: str) -> AsyncIterator[Starlette]:
    """The real ASGI app over the imported subset, its name keys read (as its lifespan reads them)."""
    application = create_app(api_settings(database_url), database_url)
    await application.state.names.load(application.state.engine)
    yield application
    await application.state.engine.dispose()


@pytest.fixture(scope="session")
async def client(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://isnad.test") as http:
        yield http


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """Every SQL statement the API sends while the test runs."""
    with recording() as seen:
        yield seen


@pytest.fixture
def browser() -> Iterator[Chromium]:
    """Chromium on a profile folder of its own, removed once the browser has quit (the browser tests')."""
    executable = chromium_or_skip()
    with (
        tempfile.TemporaryDirectory(prefix="isnad-chromium-") as profile,
        Chromium.launch(executable, Path(profile)) as launched,
    ):
        yield launched
