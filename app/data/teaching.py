"""A narrator's teachers and his students: the relations that sources record with him as the student, or as the
teacher, one statement for every narrator asked.

A narrator's list is ranked strongest status first (attested, probable, ambiguous, unresolved), then by the
other narrator's id and the source, and read through the indexes on (teacher, student) and (student, teacher);
a relation of a narrator with himself is none. The count is of every relation on that side, not only the page.
"""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Column, Integer, Select, and_, case, func, select

from app.data import tables as t
from app.data.batch import MOST, asked_keys, deduplicated, json_first, most_of, page_of
from app.data.database import Bound, RequestDatabase, Row
from app.data.records import RelationRecord, TeachingRecord

TeachingKey = tuple[int, int]  # (narrator id, limit)

STRENGTH = {"attested": 1, "probable": 2, "ambiguous": 3, "unresolved": 4}  # strongest status first


def _teaching_by_narrator_id(own: Column[int], other: Column[int]) -> Select[Any]:
    """For each narrator asked: the count of the relations where `own` is he, and the first `:most` of them."""
    asked, r = asked_keys(narrator_id=Integer()), t.transmission_relation
    his = and_(own == asked.c.narrator_id, r.c.teacher_id != r.c.student_id)
    relations = select(*(r.c[name] for name in RelationRecord.__slots__)).where(his).correlate(asked)
    order = [case(STRENGTH, value=r.c.status), other, r.c.source_id]
    count = select(func.count()).select_from(r).where(his).correlate(asked).scalar_subquery()
    return select(
        asked.c.narrator_id,
        count.label("count"),
        json_first(relations, RelationRecord.__slots__, order=order, label="relations"),
    )


RELATIONS = t.transmission_relation.c
TEACHERS_BY_NARRATOR_ID = _teaching_by_narrator_id(RELATIONS.student_id, RELATIONS.teacher_id)
STUDENTS_BY_NARRATOR_ID = _teaching_by_narrator_id(RELATIONS.teacher_id, RELATIONS.student_id)


async def _teaching(db: RequestDatabase, statement: Select[Any], keys: Sequence[TeachingKey]) -> list[TeachingRecord]:
    params = {"narrator_id": deduplicated(narrator for narrator, _ in keys), MOST: most_of(n for _, n in keys)}
    rows: dict[int, Row] = {row["narrator_id"]: row for row in await db.fetch(Bound(statement, params))}
    return [_record(rows.get(narrator), limit) for narrator, limit in keys]


def _record(row: Row | None, limit: int) -> TeachingRecord:
    if row is None:
        return TeachingRecord(0, page_of([], limit))
    return TeachingRecord(row["count"], page_of([RelationRecord(*entry) for entry in row["relations"]], limit))


async def teachers_by_narrator_id(db: RequestDatabase, keys: Sequence[TeachingKey]) -> list[TeachingRecord]:
    """The first `limit` teachers of each narrator (the relations with him as the student), with their count."""
    return await _teaching(db, TEACHERS_BY_NARRATOR_ID, keys)


async def students_by_narrator_id(db: RequestDatabase, keys: Sequence[TeachingKey]) -> list[TeachingRecord]:
    """The first `limit` students of each narrator (the relations with him as the teacher), with their count."""
    return await _teaching(db, STUDENTS_BY_NARRATOR_ID, keys)
