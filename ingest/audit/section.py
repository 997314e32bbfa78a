"""One measure of the audit: a titled table of rows computed from a built database."""

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

import asyncpg

Rows = Sequence[Mapping[str, object]]
Measure = Callable[[asyncpg.Connection], Awaitable[Rows]]
Bar = Callable[[Rows], list[str]]  # what the rows break of a bar the full import must hold, a line each


@dataclass(frozen=True)
class Section:
    """A table of the audit: its title, how its rows are computed, how to read them, and the bar its rows must
    hold on the full import (`isnad-graphql audit --check`), where it has one."""

    title: str
    measure: Measure
    explanation: str = ""
    bar: Bar | None = None


def query(sql: str) -> Measure:
    """A measure that is one SQL statement (the search_path names the audited schema)."""

    async def run(conn: asyncpg.Connection) -> Rows:
        return [dict(record) for record in await conn.fetch(sql)]

    return run
