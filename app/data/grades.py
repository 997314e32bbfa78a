"""The lookup of hadith grades: each hadith's first grades and the crosswalk's record that numbers it, one statement
per batch of hadith."""

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from sqlalchemy import Label, Select, select

from app.data import tables as t
from app.data.batch import KEYS, MOST, any_key, deduplicated, json_first, json_rows, most_of, page_of
from app.data.database import Bound, RequestDatabase, Row
from app.data.hadith import BoundedKey
from app.data.records import GradeRecord, HadithGradesRecord, SourceKey

GRADE_COLUMNS = [field.name for field in fields(GradeRecord)]
NUMBERING = "numbering"  # the role of the fawaz record that gives a hadith its hadith-api number


def _numbering_of_hadith() -> Label[Any]:
    r = t.hadith_source_record
    return json_rows(
        r,
        ["role", "source_id", "edition_id", "source_key"],
        where=(r.c.hadith_id == t.hadith.c.hadith_id) & (r.c.role == NUMBERING),
        order=[r.c.source_id, r.c.source_key],
        label="numbering",
    )


def _grades_by_hadith_id() -> Select[Any]:
    """Each hadith asked that exists, with its numbering method and record, and its first `:most` grades, by
    source, then grader."""
    h, g = t.hadith, t.hadith_grade
    statement = select(g).where(g.c.hadith_id == h.c.hadith_id).correlate(h)
    grades = json_first(statement, GRADE_COLUMNS, order=[g.c.source_id, g.c.grader], label="grades")
    return select(h.c.hadith_id, h.c.numbering_method, _numbering_of_hadith(), grades).where(any_key(h.c.hadith_id))


GRADES_BY_HADITH_ID = _grades_by_hadith_id()


def _hadith_grades(row: Row, limit: int) -> HadithGradesRecord:
    return HadithGradesRecord(
        numbering_method=row["numbering_method"],
        numbering=tuple(SourceKey(*entry) for entry in row["numbering"]),
        grades=page_of([GradeRecord(*entry) for entry in row["grades"]], limit),
    )


async def grades_by_hadith_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[HadithGradesRecord | None]:
    """For each (hadith, limit): the hadith's first `limit` grades and its numbering; None: no such hadith."""
    params = {KEYS: deduplicated(h for h, _ in keys), MOST: most_of(limit for _, limit in keys)}
    rows = {row["hadith_id"]: row for row in await db.fetch(Bound(GRADES_BY_HADITH_ID, params))}
    return [None if (row := rows.get(h)) is None else _hadith_grades(row, limit) for h, limit in keys]
