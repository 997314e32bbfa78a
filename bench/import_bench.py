"""Times a full import of the data folder and prints wall time and the importer's peak memory.

    python -m bench.import_bench [--data-dir DIR]

Uses ISNAD_DATABASE_URL, else the embedded PostgreSQL; writes the live schema, as `ingest` does.
"""

import argparse
import io
import resource
import time
from pathlib import Path

from rich.console import Console

from app.data.embedded import database_url
from app.settings import load_settings
from ingest.run import run_import


def main() -> None:
    settings = load_settings()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=settings.data_dir)
    args = parser.parse_args()
    console = Console()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        started = time.perf_counter()
        report = run_import(args.data_dir, url, settings.db_schema, Console(file=io.StringIO()))
        wall = time.perf_counter() - started
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    console.print(
        f"full import: {wall:.1f} s wall (reading {report.read_seconds:.1f} s, "
        f"writing {report.write_seconds:.1f} s), importer peak RSS {peak_mib:.0f} MiB"
    )
    console.print(f"rows: {sum(report.counts.values()):,} in {len(report.counts)} tables")


if __name__ == "__main__":
    main()
