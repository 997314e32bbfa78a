"""Runs every section of the audit against a built database and prints them."""

import asyncpg
from rich.console import Console

from ingest.audit import chains, grades, parallels, references, rijal
from ingest.audit.section import Section
from ingest.summary import render_table

SECTIONS: tuple[Section, ...] = (
    *chains.SECTIONS,
    *rijal.SECTIONS,
    *references.SECTIONS,
    *grades.SECTIONS,
    *parallels.SECTIONS,
)


async def print_audit(url: str, schema: str, console: Console) -> None:
    """Print each section's table, computed on `schema` of the database at `url`."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"SET search_path TO {schema}, public")
        for section in SECTIONS:
            render_table(console, section.title, list(await section.measure(conn)))
            if section.explanation:
                console.print(section.explanation, markup=False, highlight=False)
    finally:
        await conn.close()
