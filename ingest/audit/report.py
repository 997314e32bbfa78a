"""Runs every section of the audit against a built database and prints them."""

import asyncpg
from rich.console import Console

from ingest.audit import chains, grades, parallels, references, rijal
from ingest.audit.section import Section
from ingest.reporter import Reporter

SECTIONS: tuple[Section, ...] = (
    *chains.SECTIONS,
    *rijal.SECTIONS,
    *references.SECTIONS,
    *grades.SECTIONS,
    *parallels.SECTIONS,
)


async def print_audit(url: str, schema: str, console: Console) -> None:
    """Print each section's table, computed on `schema` of the database at `url`."""
    reporter = Reporter(console)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"SET search_path TO {schema}, public")
        for section in SECTIONS:
            reporter.table(section.title, list(await section.measure(conn)))
            if section.explanation:
                reporter.line(section.explanation)
    finally:
        await conn.close()
