"""A real PostgreSQL, seeded once per session by the real importer from a real subset of the data."""

import io
import os
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import httpx
import pytest
from rich.console import Console
from sqlalchemy import event
from starlette.applications import Starlette

from app.asgi import create_app
from app.embedded import embedded_server
from app.settings import Settings, load_settings
from ingest.run import ImportReport, run_import
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
    with embedded_server(tmp_path_factory.mktemp("postgres") / "pgdata") as url:
        yield url


@pytest.fixture(scope="session")
def subset_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_subset(shared_data_dir(), tmp_path_factory.mktemp("data"))


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
    """An app of a test's own, a client on it, and every SQL statement its engine sends."""

    app: Starlette
    client: httpx.AsyncClient
    statements: list[str]


def _recording(app: Starlette, seen: list[str]) -> Callable[..., None]:
    def record(conn: object, cursor: object, statement: str, *args: object) -> None:
        seen.append(statement)

    event.listen(app.state.engine.sync_engine, "before_cursor_execute", record)
    return record


@asynccontextmanager
async def serving(settings: Settings, url: str) -> AsyncIterator[Served]:
    """A second app with these settings over `url`; its engine is disposed at the end."""
    application = create_app(settings, url)
    seen: list[str] = []
    _recording(application, seen)
    try:
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://isnad.test") as http:
            yield Served(application, http, seen)
    finally:
        await application.state.engine.dispose()


@pytest.fixture(scope="session")
async def app(imported: ImportReport, database_url: str) -> AsyncIterator[Starlette]:
    """The real ASGI app over the imported subset."""
    application = create_app(api_settings(database_url), database_url)
    yield application
    await application.state.engine.dispose()


@pytest.fixture(scope="session")
async def client(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://isnad.test") as http:
        yield http


@pytest.fixture
def statements(app: Starlette) -> Iterator[list[str]]:
    """Every SQL statement the app sends while the test runs."""
    seen: list[str] = []
    record = _recording(app, seen)
    yield seen
    event.remove(app.state.engine.sync_engine, "before_cursor_execute", record)
