"""The `isnad-graphql` command: `ingest` builds the reference database (the only writer); `serve` runs the
read-only API, `mcp --stdio` its tools over MCP. It is the one module that reaches both sides.
"""

import argparse
import os
import signal
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from app.data.embedded import database_url
from app.settings import describe, load_settings

if TYPE_CHECKING:
    import uvicorn


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="isnad-graphql", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    ingest = commands.add_parser("ingest", help="build the reference database from the data folder")
    ingest.add_argument("--data-dir", type=Path, help="default: $ISNAD_DATA_DIR, else ../shared/data")
    ingest.add_argument("--database-url", help="default: $ISNAD_DATABASE_URL, else the embedded PostgreSQL")
    ingest.add_argument("--reader-role", help="a SELECT-only role to grant the new schema to ($ISNAD_READER_ROLE)")
    ingest.add_argument("--allow-altered", action="store_true", help="import files that differ from the manifest")
    verify = commands.add_parser("verify-data", help="check a data folder against the sources manifest")
    verify.add_argument("data_dir", nargs="?", type=Path, help="default: $ISNAD_DATA_DIR, else ../shared/data")
    fetch = commands.add_parser("fetch-data", help="copy the data folder from a mirror, verifying every checksum")
    fetch.add_argument("--from", dest="source", required=True, help="the mirror: an http(s) URL or a folder")
    fetch.add_argument("--dest", type=Path, help="default: $ISNAD_DATA_DIR, else ../shared/data")
    audit = commands.add_parser("audit", help="measure what a built database claims against its evidence")
    audit.add_argument("--database-url", help="default: $ISNAD_DATABASE_URL, else the embedded PostgreSQL")
    audit.add_argument("--check", action="store_true", help="exit 1 when the full import breaks a section's bar")
    readonly = commands.add_parser("check-readonly", help="prove that the API and what it ships never write")
    readonly.add_argument("--code-only", action="store_true", help="skip the live checks against the database")
    manifest = commands.add_parser("persisted-manifest", help="write persisted/manifest.json from persisted/*.graphql")
    manifest.add_argument("--check", action="store_true", help="exit 1 when the manifest is out of date")
    commands.add_parser("settings", help="list the environment variables: default and meaning of each")
    serve = commands.add_parser(
        "serve",
        help="run the GraphQL API (read only)",
        epilog=f"environment variables (default: meaning):\n{describe()}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    mcp = commands.add_parser("mcp", help="serve the eight tools over MCP (the API serves them over HTTP at /mcp)")
    mcp.add_argument("--stdio", action="store_true", required=True, help="over stdin and stdout, for desktop agents")
    return parser


def _ingest(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ingest.errors import ImportFailed
    from ingest.reporter import Reporter
    from ingest.run import run_import

    settings = load_settings()
    console = Console()
    reporter = Reporter(console)
    data_dir = args.data_dir or settings.data_dir
    if not data_dir.is_dir():
        print(NO_DATA.format(data_dir=data_dir), file=sys.stderr)  # noqa: T201 - what to do
        return 1
    role = args.reader_role or settings.reader_role
    try:
        with database_url(args.database_url or settings.database_url, settings.embedded_pgdata) as url:
            report = run_import(data_dir, url, settings.db_schema, console, role, allow_altered=args.allow_altered)
    except ImportFailed as exc:
        reporter.failed(exc)
        return 1
    with suppress(OSError):  # a terminal gone after the swap: the import itself is complete
        reporter.line(
            f"imported in {report.read_seconds + report.write_seconds:.1f} s "
            f"(reading {report.read_seconds:.1f} s, writing {report.write_seconds:.1f} s); "
            f"content checksum {report.content_checksum}"
        )
    return 0


NO_DATA = """No data folder at {data_dir}.
Get one, then run the same command again:
  isnad-graphql fetch-data --from URL_OR_FOLDER --dest {data_dir}
    (URL_OR_FOLDER: an HTTP mirror or a folder holding the files of ingest/sources_manifest.json; each file's
    upstream repository, pinned commit and path are listed there and in docs/data.md)
or point ISNAD_DATA_DIR (or --data-dir) at a copy you already have; `isnad-graphql verify-data DIR` checks it."""


def _verify_data(args: argparse.Namespace) -> int:
    from ingest.errors import ImportFailed
    from ingest.verification import verify_folder

    folder = args.data_dir or load_settings().data_dir
    try:
        verification = verify_folder(folder)
    except ImportFailed as exc:
        print(exc)  # noqa: T201 - a report
        return 1
    print(f"{folder}: checked against {verification.describe()}")  # noqa: T201 - a report
    for line in verification.problems():
        print(f"  {line}")  # noqa: T201 - a report
    for line in verification.absences():
        print(f"  {line}")  # noqa: T201 - a report
    for path in verification.unexpected:
        print(f"  {path}: not in the manifest (never read)")  # noqa: T201 - a report
    good = len(verification.manifest.files) - len(verification.problems()) - len(verification.absent_unread)
    print(f"{good} of {len(verification.manifest.files)} files match")  # noqa: T201 - a report
    return 0 if verification.ok else 1


def _fetch_data(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ingest.errors import ImportFailed
    from ingest.fetch import fetch_data

    console = Console()
    dest = args.dest or load_settings().data_dir
    try:
        results = fetch_data(args.source, dest, console)
    except (ImportFailed, OSError) as exc:
        console.print(f"fetch-data: {exc}", markup=False)
        return 1
    for result in results:
        if not result.good:
            console.print(f"{result.path}: {result.outcome}: {result.detail}", markup=False)
        elif result.absent:
            console.print(f"{result.path}: not on the mirror (not read by the importer)", markup=False)
    good = sum(result.good and not result.absent for result in results)
    console.print(f"{good} of {len(results)} files in {dest} match the manifest", markup=False)
    return 0 if all(result.good for result in results) else 1


AUDIT_WIDTH = 160  # the audit's tables are read whole, in a terminal or a file


def _audit(args: argparse.Namespace) -> int:
    import asyncio

    from rich.console import Console

    from ingest.audit.report import print_audit

    settings = load_settings()
    with database_url(args.database_url or settings.database_url, settings.embedded_pgdata) as url:
        broken = asyncio.run(print_audit(url, settings.db_schema, console := Console(width=AUDIT_WIDTH)))
    for line in broken:
        console.print(f"bar broken: {line}", markup=False)
    return 1 if args.check and broken else 0


def _serve(args: argparse.Namespace) -> int:
    import asyncio

    import uvicorn

    from app.data.data_version import read_data_version
    from app.data.pooled_sessions import check_pooled_sessions
    from app.http.accepting_loop import LOOP
    from app.http.slow_clients import PROTOCOL

    settings = load_settings()
    with database_url(settings.database_url, settings.embedded_pgdata) as url, _metrics_dir(args.workers):
        os.environ["ISNAD_DATABASE_URL"] = url  # read by each worker's app factory
        asyncio.run(check_pooled_sessions(settings, url))  # behind a transaction pooler: its sessions' settings
        version = asyncio.run(read_data_version(settings, url))
        workers = f"{args.workers} worker{'s' if args.workers > 1 else ''}"
        why = version.unreadable if version else None
        print(  # noqa: T201 - the start-up line
            f"isnad-graphql serving http://{args.host}:{args.port}/graphql with {workers}; "
            f"data: {version or 'unknown (no import found, or the database did not answer)'}"
            + (f"\n{why} Until then every request is UPSTREAM_UNAVAILABLE." if why else ""),
            file=sys.stderr,
            flush=True,
        )
        _stop_on_signals()
        config = uvicorn.Config(
            "app.asgi:app_from_environment",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            http=PROTOCOL,
            loop=LOOP,
            log_level="warning",
            server_header=False,  # no `server: uvicorn`: what serves the API is none of a client's business
        )
        return _run(config)


def _run(config: "uvicorn.Config") -> int:
    """uvicorn's `run`, with the listening socket bound here for one worker as for several: the loop's listener
    (app/http/accepting_loop.py) reads the socket it is given."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    sock = config.bind_socket()
    if config.workers > 1:
        Multiprocess(config, sockets=[sock]).run()
        return 0
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return 0 if server.started else STARTUP_FAILURE


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def _stop_on_signals() -> None:
    """uvicorn drains the requests in flight on SIGTERM or SIGINT, then raises the signal again: with these
    handlers that ends `serve` by unwinding, so the embedded PostgreSQL it started is stopped too (the
    default handler killed the process and left the server running for the next `serve` to join)."""
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _stop)


@contextmanager
def _metrics_dir(workers: int) -> Iterator[None]:
    """With several workers, a fresh folder for their metrics (prometheus-client's multiprocess mode),
    removed at the end; unless PROMETHEUS_MULTIPROC_DIR already names one."""
    if workers == 1 or os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="isnad-metrics-") as folder:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder  # read by each worker before it imports prometheus-client
        yield


def _mcp(args: argparse.Namespace) -> int:
    import asyncio

    from app.asgi import create_app
    from app.data.pooled_sessions import check_pooled_sessions
    from app.http.mcp import serve_stdio

    settings = load_settings()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        app = create_app(settings, url)

        async def serve() -> None:
            await check_pooled_sessions(settings, url)
            await app.state.probes.check()  # no lifespan runs: the database and its import are checked once, here
            following = app.state.names.following(
                app.state.engine, app.state.data_version, settings.ready_interval_ms / 1000
            )
            try:
                async with following:
                    await serve_stdio(app.state.tools)
            finally:
                await app.state.engine.dispose()

        asyncio.run(serve())
    return 0


def _check_readonly(args: argparse.Namespace) -> int:
    import asyncio

    from migrations_readonly_check.report import code_checks, database_checks

    settings = load_settings()
    checks = code_checks(Path(__file__).resolve().parent)
    if not args.code_only:
        with database_url(settings.database_url, settings.embedded_pgdata) as url:
            checks += asyncio.run(database_checks(settings, url))
    for check in checks:
        print(f"{'PASS' if check.passed else 'FAIL'}  {check.name}: {check.detail}")  # noqa: T201 - a report
    return 0 if all(check.passed for check in checks) else 1


def _persisted_manifest(args: argparse.Namespace) -> int:
    from app.execution.persisted import DEFAULT_DIR, MANIFEST_NAME, manifest_json, read_documents

    path = DEFAULT_DIR / MANIFEST_NAME
    fresh = manifest_json(read_documents(DEFAULT_DIR))
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != fresh:
            print(f"{path} is out of date: run `isnad-graphql persisted-manifest`")  # noqa: T201 - a report
            return 1
        return 0
    path.write_text(fresh, encoding="utf-8")
    return 0


def _settings(args: argparse.Namespace) -> int:
    print(describe())  # noqa: T201 - the command's output
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handlers = {
        "ingest": _ingest,
        "serve": _serve,
        "mcp": _mcp,
        "audit": _audit,
        "check-readonly": _check_readonly,
        "persisted-manifest": _persisted_manifest,
        "settings": _settings,
        "verify-data": _verify_data,
        "fetch-data": _fetch_data,
    }
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
