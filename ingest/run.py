"""One import: read every source into rows, write them into a build schema, derive the tables computed from them,
summarize them and report the skipped rows, then swap the build schema in: the swap is the last thing that can
fail."""

import asyncio
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

import asyncpg
from rich.console import Console

from app.schema_version import SCHEMA_VERSION
from app.text.arabic import NORMALIZER_VERSION
from ingest import writer
from ingest.checksums import TableChecksum, content_checksum, record_checksums, table_checksums
from ingest.context import ImportContext
from ingest.derived import fill_derived_tables
from ingest.errors import BuildRefused, ImportInterrupted, UnreadableRecord
from ingest.reporter import Reporter
from ingest.sources import SOURCES
from ingest.steps import STEPS
from ingest.summary import print_summary
from ingest.verification import Verification, verified


@dataclass(frozen=True)
class ImportReport:
    counts: dict[str, int]
    checksums: dict[str, TableChecksum]
    content_checksum: str
    bad_rows: list[str]
    read_seconds: float
    write_seconds: float


def read_sources(data_dir: Path, reporter: Reporter, verification: Verification) -> ImportContext:
    """Run every reading step; raises ImportFailed before anything is written."""
    ctx = ImportContext(data_dir)
    with reporter.progress() as progress:
        task = progress.add_task("reading sources", total=len(STEPS))
        for name, build in STEPS:
            progress.update(task, description=f"reading: {name}")
            _read_step(ctx, name, build)
            progress.advance(task)
        progress.update(task, description="reading sources")
    _add_provenance(ctx, data_dir, verification)
    return ctx


def _read_step(ctx: ImportContext, name: str, build: Callable[[ImportContext], None]) -> None:
    """One step; a record whose shape its reading did not expect stops the import naming the last file opened."""
    try:
        build(ctx)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise UnreadableRecord(name, next(reversed(ctx.files), None), exc) from exc


def _add_provenance(ctx: ImportContext, data_dir: Path, verification: Verification) -> None:
    for source in SOURCES:
        ctx.add("source", vars(source))
    for ledger in ctx.files.values():
        ctx.add(
            "dataset_file",
            {
                "path": ledger.path,
                "source_id": ledger.source_id,
                "purpose": ledger.purpose,
                "derived": ledger.derived,
                "sha256": ledger.sha256,
                "rows_read": ledger.rows_read,
                "rows_skipped": len(ledger.bad),
            },
        )
    ctx.add(
        "import_run",
        {
            "schema_version": SCHEMA_VERSION,
            "normalizer_version": NORMALIZER_VERSION,
            "started_at": datetime.now(UTC),
            "finished_at": datetime.now(UTC),
            "data_dir": str(data_dir),
            "manifest_sha256": verification.manifest.sha256,
            "manifest_derived_from": (verification.manifest.derived_from or {}).get("manifest_sha256"),
            "altered_files": [altered.entry.path for altered in verification.altered],
        },
    )


async def write_database(
    ctx: ImportContext, url: str, live_schema: str, reporter: Reporter, reader_role: str | None = None
) -> dict[str, TableChecksum]:
    """Write into a build schema, summarize it, report the skipped rows and swap it in: rows per table. On any
    failure, the swap included, the live schema is untouched."""
    conn = await writer.connect_creating_database(url)
    try:
        await writer.acquire_import_lock(conn)
        try:
            return await _build_and_swap(conn, ctx, live_schema, reporter, reader_role)
        except asyncpg.PostgresError as exc:
            await writer.drop_build_schema_after_failure(conn, url)
            raise BuildRefused(exc) from exc
        except BaseException:
            await writer.drop_build_schema_after_failure(conn, url)
            raise
    finally:
        await conn.close()


async def _build_and_swap(
    conn: asyncpg.Connection, ctx: ImportContext, live_schema: str, reporter: Reporter, reader_role: str | None
) -> dict[str, TableChecksum]:
    await writer.create_build_schema(conn)
    with reporter.progress() as progress:
        total = sum(len(rows) for rows in ctx.tables.values())
        task = progress.add_task("writing rows (COPY)", total=total)

        def advance(table: str, rows: int) -> None:
            progress.update(task, advance=rows, description=f"writing: {table}")

        await writer.copy_tables(conn, ctx.tables, advance)
        progress.update(task, description="writing: derived tables")
        await fill_derived_tables(conn)
        progress.update(task, description="checksums of the tables")
        checksums = await table_checksums(conn)
        await record_checksums(conn, checksums)
    await writer.store_in_key_order(conn)
    await writer.vacuum_analyze(conn)
    if reader_role:
        await writer.grant_reader(conn, reader_role)
    await print_summary(conn, reporter, checksums)
    reporter.bad_rows(ctx.bad_rows())
    await writer.swap_in(conn, live_schema)
    return checksums


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """While the sources are read, KeyboardInterrupt, as SIGINT raises it. While the database is written, the
    writing's tasks cancelled at their next await, as asyncio.run does on SIGINT: an exception raised in the
    middle of the event loop's or the driver's callbacks could leave the driver's protocol half-updated."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        raise KeyboardInterrupt from None
    for task in asyncio.all_tasks(loop):
        loop.call_soon_threadsafe(task.cancel)


@contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """SIGTERM read as SIGINT: either unwinds the import (whose build schema is then dropped, the live one
    untouched) and ends it as ImportInterrupted, never a traceback. Signals reach the main thread only: an
    import run in another thread is left as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    except (KeyboardInterrupt, asyncio.CancelledError):
        raise ImportInterrupted from None
    finally:
        signal.signal(signal.SIGTERM, previous)


@dataclass(frozen=True)
class Target:
    """Where an import writes."""

    url: str
    live_schema: str
    reader_role: str | None = None


def run_import(
    data_dir: Path,
    url: str,
    live_schema: str,
    console: Console,
    reader_role: str | None = None,
    *,
    allow_altered: bool = False,
) -> ImportReport:
    """Import `data_dir` into `live_schema`, printing through a `Reporter` on `console`. The folder is checked
    against its manifest first: a missing file stops the import, an altered one too unless `allow_altered` (it
    is then named and recorded in `import_run`)."""
    with _stopped_by_signals():
        return _run_import(data_dir, Target(url, live_schema, reader_role), Reporter(console), allow_altered)


def _run_import(data_dir: Path, target: Target, reporter: Reporter, allow_altered: bool) -> ImportReport:
    started = time.perf_counter()
    asyncio.run(writer.refuse_if_locked(target.url))
    verification = verified(data_dir, allow_altered)
    report_verification(reporter, verification)
    ctx = read_sources(data_dir, reporter, verification)
    read_done = time.perf_counter()
    checksums = asyncio.run(write_database(ctx, target.url, target.live_schema, reporter, target.reader_role))
    counts = {table: checksum.rows for table, checksum in checksums.items()}
    return ImportReport(
        counts,
        checksums,
        content_checksum(checksums),
        ctx.bad_rows(),
        read_done - started,
        time.perf_counter() - read_done,
    )


def report_verification(reporter: Reporter, verification: Verification) -> None:
    reporter.line(f"data: {verification.folder} checked against {verification.describe()}")
    for altered in verification.altered:
        reporter.line(f"  imported although altered: {altered}")
    for absence in verification.absences():
        reporter.line(f"  {absence}")
