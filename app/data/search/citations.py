"""Hadith by citation: one statement, the hadith a citation can name."""

import functools
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Select,
    String,
    Text,
    and_,
    any_,
    literal,
    or_,
    select,
)

from app.data import tables as t
from app.data.database import Bound, RequestDatabase
from app.data.records import HadithHitRecord
from app.data.search.common import (
    HadithScope,
    ScopeShape,
    array,
    hadith_hits,
    hit_record,
    in_scope,
    limited,
    param,
    scope_params,
)


@functools.cache
def _citation_statement(numbers: bool, in_book: bool, scope: ScopeShape) -> Select[Any]:
    """The hadith of `:code` numbered `:numbers`, or hadith `:in_book_hadith` of its book `:book`."""
    h, c, b = t.hadith, t.collection, t.book
    collection = select(c.c.collection_id).where(c.c.code == param("code", String)).scalar_subquery()
    numbered = h.c.canonical_number == any_(array("numbers", Text))
    readings = [and_(h.c.collection_id == collection, numbered)] if numbers else []
    if in_book:
        book = select(b.c.book_id).where(b.c.collection_id == collection, b.c.number == param("book", String))
        suffix = h.c.in_book_reference.endswith(param("in_book_hadith", String))
        readings.append(and_(h.c.book_id == book.limit(1).scalar_subquery(), suffix))
    statement = hadith_hits(literal(1.0)).where(in_scope(or_(*readings), scope))
    return limited(statement.order_by(h.c.hadith_id))


async def hadith_by_citation(
    db: RequestDatabase, code: str, numbers: Sequence[str], in_book: tuple[str, str] | None, scope: HadithScope
) -> list[HadithHitRecord]:
    """The hadith a citation can name: these canonical numbers, or hadith in_book[1] of book in_book[0]."""
    statement = _citation_statement(bool(numbers), in_book is not None, ScopeShape.of(scope))
    params = {**scope_params(scope), "code": code, "numbers": list(numbers)}
    if in_book is not None:
        params |= {"book": in_book[0], "in_book_hadith": f"/{in_book[1]}"}
    return [hit_record(row) for row in await db.fetch(Bound(statement, params))]
