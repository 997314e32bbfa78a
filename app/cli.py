"""The `isnad-graphql` command: `ingest` builds the reference database; `serve` runs the API."""

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from app.embedded import database_url
from app.settings import load_settings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="isnad-graphql", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    ingest = commands.add_parser("ingest", help="build the reference database from the data folder")
    ingest.add_argument("--data-dir", type=Path, help="default: $ISNAD_DATA_DIR, else ../shared/data")
    ingest.add_argument("--database-url", help="default: $ISNAD_DATABASE_URL, else the embedded PostgreSQL")
    serve = commands.add_parser("serve", help="run the GraphQL API (read only)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    return parser


def _ingest(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ingest.errors import ImportFailed
    from ingest.run import run_import

    settings = load_settings()
    console = Console()
    data_dir = args.data_dir or settings.data_dir
    try:
        with database_url(args.database_url or settings.database_url, settings.embedded_pgdata) as url:
            report = run_import(data_dir, url, settings.db_schema, console)
    except ImportFailed as exc:
        console.print(f"[red]import failed, the database is unchanged:[/red] {exc}")
        return 1
    console.print(
        f"imported in {report.read_seconds + report.write_seconds:.1f} s "
        f"(reading {report.read_seconds:.1f} s, writing {report.write_seconds:.1f} s)"
    )
    return 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    settings = load_settings()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        os.environ["ISNAD_DATABASE_URL"] = url  # read by each worker's app factory
        uvicorn.run(
            "app.asgi:app_from_environment",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            log_level="warning",
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handlers = {"ingest": _ingest, "serve": _serve}
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
