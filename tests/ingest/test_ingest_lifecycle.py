"""An import that meets another import or a signal stops cleanly: a message that says what happened, the
build schema dropped, the previous database untouched, no traceback."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from ingest.errors import ImportLocked
from ingest.run import ImportReport, run_import
from ingest.writer import BUILD_SCHEMA, IMPORT_LOCK
from tests.conftest import LIVE_SCHEMA, quiet_console

REPO = Path(__file__).resolve().parents[2]
SCRATCH = "isnad_signals"
WAIT_SECONDS = 300  # for the scratch import to reach its writing: the subset reads in about 20 s


async def _holding_the_lock(url: str, data_dir: Path) -> None:
    holder = await asyncpg.connect(url)
    try:
        assert await holder.fetchval("SELECT pg_try_advisory_lock($1)", IMPORT_LOCK)
        with pytest.raises(ImportLocked, match="another import is running"):
            await asyncio.to_thread(run_import, data_dir, url, LIVE_SCHEMA, quiet_console())
    finally:
        await holder.close()


def test_a_held_lock_is_refused_before_any_file_is_read(imported: ImportReport, database_url: str) -> None:
    """The data folder does not exist: a refusal for the lock, not for a missing file, shows that the lock is
    asked first, not after a minute of reading."""
    asyncio.run(_holding_the_lock(database_url, REPO / "no-such-data-folder"))


async def _drop_scratch(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH} WITH (FORCE)")
    finally:
        await conn.close()


@pytest.fixture
def scratch_url(database_url: str) -> Iterator[str]:
    """A database of the test's own, which the import creates: dropped before (whatever an earlier run left) and
    after."""
    asyncio.run(_drop_scratch(database_url))
    yield urlunsplit(urlsplit(database_url)._replace(path=f"/{SCRATCH}"))
    asyncio.run(_drop_scratch(database_url))


async def _schemas(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        return {r["nspname"] for r in await conn.fetch("SELECT nspname FROM pg_namespace")}
    finally:
        await conn.close()


def _wait_for_build_schema(url: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if BUILD_SCHEMA in asyncio.run(_schemas(url)):
                return
        except asyncpg.InvalidCatalogNameError:
            pass  # the import has not created the database yet
        time.sleep(0.2)
    pytest.fail("the import never reached its writing")


def test_sigterm_while_writing_drops_the_build_schema_and_says_so(
    imported: ImportReport, scratch_url: str, subset_dir: Path
) -> None:
    url = scratch_url
    command = [sys.executable, "-m", "cli", "ingest", "--data-dir", str(subset_dir), "--database-url", url]
    environment = {**os.environ, "ISNAD_DB_SCHEMA": LIVE_SCHEMA}
    process = subprocess.Popen(  # noqa: S603 - our own command line
        command, cwd=REPO, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        _wait_for_build_schema(url, process)
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=WAIT_SECONDS)
    finally:
        process.kill()

    assert process.returncode == 1, output
    assert "the import was interrupted" in output
    assert "Traceback" not in output
    assert asyncio.run(_schemas(url)).isdisjoint({BUILD_SCHEMA, LIVE_SCHEMA})
