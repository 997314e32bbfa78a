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


async def print_audit(url: str, schema: str, console: Console, sections: tuple[Section, ...] = SECTIONS) -> list[str]:
    """Print each section's table, computed on `schema` of the database at `url`; return what its rows break of
    the sections' bars, a line each."""
    reporter = Reporter(console)
    broken: list[str] = []
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"SET search_path TO {schema}, public")
        for section in sections:
            rows = list(await section.measure(conn))
            reporter.table(section.title, rows)
            if section.explanation:
                reporter.line(section.explanation)
            broken += [f"{section.title}: {line}" for line in (section.bar(rows) if section.bar else [])]
    finally:
        await conn.close()
    return broken
