"""One import: read every source into rows, write them into a build schema, derive the tables computed from them,
summarize them and report the skipped rows, then swap the build schema in: the swap is the last thing that can
fail."""

import asyncio
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

import asyncpg
from rich.console import Console

from app.text.arabic import NORMALIZER_VERSION
from ingest import writer
from ingest.context import ImportContext
from ingest.derived import fill_derived_tables
from ingest.errors import ImportInterrupted
from ingest.reporter import Reporter
from ingest.sources import SOURCES
from ingest.steps import STEPS
from ingest.summary import print_summary

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class ImportReport:
    counts: dict[str, int]
    bad_rows: list[str]
    read_seconds: float
    write_seconds: float


def read_sources(data_dir: Path, reporter: Reporter) -> ImportContext:
    """Run every reading step; raises ImportFailed before anything is written."""
    ctx = ImportContext(data_dir)
    with reporter.progress() as progress:
        task = progress.add_task("reading sources", total=len(STEPS))
        for name, build in STEPS:
            progress.update(task, description=f"reading: {name}")
            build(ctx)
            progress.advance(task)
        progress.update(task, description="reading sources")
    _add_provenance(ctx, data_dir)
    return ctx


def _add_provenance(ctx: ImportContext, data_dir: Path) -> None:
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
        },
    )


async def write_database(
    ctx: ImportContext, url: str, live_schema: str, reporter: Reporter, reader_role: str | None = None
) -> dict[str, int]:
    """Write into a build schema, summarize it, report the skipped rows and swap it in: rows per table. On any
    failure, the swap included, the live schema is untouched."""
    conn = await writer.connect_creating_database(url)
    try:
        await writer.acquire_import_lock(conn)
        try:
            return await _build_and_swap(conn, ctx, live_schema, reporter, reader_role)
        except BaseException:
            await writer.drop_build_schema(conn)
            raise
    finally:
        await conn.close()


async def _build_and_swap(
    conn: asyncpg.Connection, ctx: ImportContext, live_schema: str, reporter: Reporter, reader_role: str | None
) -> dict[str, int]:
    await writer.create_build_schema(conn)
    with reporter.progress() as progress:
        total = sum(len(rows) for rows in ctx.tables.values())
        task = progress.add_task("writing rows (COPY)", total=total)

        def advance(table: str, rows: int) -> None:
            progress.update(task, advance=rows, description=f"writing: {table}")

        await writer.copy_tables(conn, ctx.tables, advance)
        progress.update(task, description="writing: derived tables")
        await fill_derived_tables(conn)
    await writer.vacuum_analyze(conn)
    if reader_role:
        await writer.grant_reader(conn, reader_role)
    counts = await print_summary(conn, reporter)
    reporter.bad_rows(ctx.bad_rows())
    await writer.swap_in(conn, live_schema)
    return counts


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


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
    except KeyboardInterrupt:
        raise ImportInterrupted from None
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_import(
    data_dir: Path, url: str, live_schema: str, console: Console, reader_role: str | None = None
) -> ImportReport:
    """Import `data_dir` into `live_schema`, printing through a `Reporter` on `console`."""
    with _stopped_by_signals():
        return _run_import(data_dir, url, live_schema, Reporter(console), reader_role)


def _run_import(
    data_dir: Path, url: str, live_schema: str, reporter: Reporter, reader_role: str | None
) -> ImportReport:
    started = time.perf_counter()
    asyncio.run(writer.refuse_if_locked(url))
    ctx = read_sources(data_dir, reporter)
    read_done = time.perf_counter()
    counts = asyncio.run(write_database(ctx, url, live_schema, reporter, reader_role))
    return ImportReport(counts, ctx.bad_rows(), read_done - started, time.perf_counter() - read_done)
