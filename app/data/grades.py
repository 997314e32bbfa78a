"""The lookup of hadith grades: each hadith's first grades, one statement per batch of hadith."""

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from sqlalchemy import Select, select

from app.data import tables as t
from app.data.batch import KEYS, MOST, any_key, deduplicated, json_first, most_of, page_of
from app.data.hadith import BoundedKey
from app.data.records import GradeRecord, Page
from app.database import Bound, RequestDatabase

GRADE_COLUMNS = [field.name for field in fields(GradeRecord)]


def _grades_by_hadith_id() -> Select[Any]:
    """Each hadith asked that exists, with its first `:most` grades, by source, then grader."""
    h, g = t.hadith, t.hadith_grade
    statement = select(g).where(g.c.hadith_id == h.c.hadith_id).correlate(h)
    grades = json_first(statement, GRADE_COLUMNS, order=[g.c.source_id, g.c.grader], label="grades")
    return select(h.c.hadith_id, grades).where(any_key(h.c.hadith_id))


GRADES_BY_HADITH_ID = _grades_by_hadith_id()


async def grades_by_hadith_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[GradeRecord] | None]:
    """For each (hadith, limit): the hadith's first `limit` grades; None: no such hadith."""
    params = {KEYS: deduplicated(h for h, _ in keys), MOST: most_of(limit for _, limit in keys)}
    rows = {row["hadith_id"]: row for row in await db.fetch(Bound(GRADES_BY_HADITH_ID, params))}
    return [
        None if (row := rows.get(h)) is None else page_of([GradeRecord(*entry) for entry in row["grades"]], limit)
        for h, limit in keys
    ]
