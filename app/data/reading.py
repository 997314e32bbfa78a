"""Lookups of the reader's pages: the collections and the sources of their texts, a collection's books, a
book's chapters, the hadith of a book or a chapter, a hadith's neighbours, a hadith by its number, and a hadith
picked by a seed.

Everything is in the collection's order, `seq_in_collection` (the sources' own order; a book or a chapter takes
its first hadith's, at import: ingest/reading_order.py), the id settling a tie. A page of a list is the
parent's rows in that order, `OFFSET low LIMIT high - low`, read from an index on (parent, seq_in_collection):
one statement for all the pages asked at one level, whatever their size.
"""

from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, TypeVar

from sqlalchemy import BigInteger, Integer, Select, Table, Text, and_, func, or_, select, true
from sqlalchemy.orm import aliased

from app.data import tables as t
from app.data.batch import KEYS, any_key, asked_keys, grouped, in_key_order, page_of
from app.data.database import Bound, RequestDatabase, Row
from app.data.records import (
    BookRecord,
    ChapterRecord,
    CollectionRecord,
    CollectionSourceRecord,
    NeighboursRecord,
    Page,
)

PageKey = tuple[int, int, int]  # (parent id, page from 1, limit)
NumberKey = tuple[int, str]  # (parent id, number)
SeedKey = tuple[int, int | None]  # (seed, collection id or None for every collection)
V = TypeVar("V")

COLLECTION_COLUMNS = [field.name for field in fields(CollectionRecord)]
BOOK_COLUMNS = [field.name for field in fields(BookRecord)]
CHAPTER_COLUMNS = [field.name for field in fields(ChapterRecord)]
ORDER = "seq_in_collection"


def _collection(row: Row) -> CollectionRecord:
    return CollectionRecord(*(row[name] for name in COLLECTION_COLUMNS))


def _book(row: Row) -> BookRecord:
    return BookRecord(*(row[name] for name in BOOK_COLUMNS))


def _chapter(row: Row) -> ChapterRecord:
    return ChapterRecord(*(row[name] for name in CHAPTER_COLUMNS))


def _hadith_id(row: Row) -> int:
    return int(row["hadith_id"])


ALL_COLLECTIONS = select(*(t.collection.c[name] for name in COLLECTION_COLUMNS)).order_by(t.collection.c.collection_id)


async def collections_by_code(db: RequestDatabase, codes: Sequence[str | None]) -> list[list[CollectionRecord]]:
    """For each code, its collection (none: no such code); for None, every collection by id. The table holds
    the ten collections: one statement reads them all."""
    records = [_collection(row) for row in await db.fetch(Bound(ALL_COLLECTIONS, {}))]
    return [[record for record in records if code in (None, record.code)] for code in codes]


def _sources_by_collection_id() -> Select[Any]:
    s, e = t.collection_source, t.edition
    return (
        select(s.c.collection_id, s.c.role, s.c.source_id, s.c.edition_id, e.c.language, s.c.hadith_count)
        .select_from(s.outerjoin(e, e.c.edition_id == s.c.edition_id))
        .where(any_key(s.c.collection_id))
        .order_by(s.c.collection_id, s.c.source_rank)
    )


SOURCES_BY_COLLECTION_ID = _sources_by_collection_id()


async def sources_by_collection_id(db: RequestDatabase, ids: Sequence[int]) -> list[list[CollectionSourceRecord]]:
    """The records each collection's hadith rows come from, by role, source and edition."""
    found = grouped(await db.fetch(Bound(SOURCES_BY_COLLECTION_ID, {KEYS: list(ids)})), lambda r: r["collection_id"])
    columns = [field.name for field in fields(CollectionSourceRecord)]
    return [[CollectionSourceRecord(*(row[c] for c in columns)) for row in found.get(i, [])] for i in ids]


def _pages(table: Table, parent: str, columns: Sequence[str]) -> Select[Any]:
    """For each (parent_id, low, high) asked: the parent's rows ranked low < rank <= high in the collection's
    order, the first column (the id) settling a tie."""
    asked = asked_keys(parent_id=Integer(), low=Integer(), high=Integer())
    order = (table.c[ORDER].asc().nulls_last(), table.c[columns[0]])
    rows = (
        select(*(table.c[name] for name in columns), table.c[ORDER])
        .where(table.c[parent] == asked.c.parent_id)
        .order_by(*order)
        .offset(asked.c.low)
        .limit(asked.c.high - asked.c.low)
        .lateral("page_rows")
    )
    return (
        select(asked.c.parent_id, asked.c.low, asked.c.high, *(rows.c[name] for name in columns))
        .select_from(asked.join(rows, true()))
        .order_by(asked.c.parent_id, asked.c.low, asked.c.high, rows.c[ORDER].asc().nulls_last(), rows.c[columns[0]])
    )


async def _read_pages(
    db: RequestDatabase, statement: Select[Any], keys: Sequence[PageKey], record: Callable[[Row], V]
) -> list[Page[V]]:
    """One page of rows per (parent, page, limit), one row more than the limit read to tell a truncated page."""
    bounds = [(parent, (page - 1) * limit, page * limit + 1) for parent, page, limit in keys]
    params = dict(zip(("parent_id", "low", "high"), map(list, zip(*bounds, strict=True)), strict=True))
    found = grouped(await db.fetch(Bound(statement, params)), lambda row: (row["parent_id"], row["low"], row["high"]))
    return [
        page_of([record(row) for row in found.get(b, [])], limit) for b, (*_, limit) in zip(bounds, keys, strict=True)
    ]


BOOK_PAGE_BY_COLLECTION_ID = _pages(t.book, "collection_id", BOOK_COLUMNS)
CHAPTER_PAGE_BY_BOOK_ID = _pages(t.chapter, "book_id", CHAPTER_COLUMNS)
HADITH_PAGE_BY_BOOK_ID = _pages(t.hadith, "book_id", ["hadith_id"])
HADITH_PAGE_BY_CHAPTER_ID = _pages(t.hadith, "chapter_id", ["hadith_id"])


async def book_page_by_collection_id(db: RequestDatabase, keys: Sequence[PageKey]) -> list[Page[BookRecord]]:
    return await _read_pages(db, BOOK_PAGE_BY_COLLECTION_ID, keys, _book)


async def chapter_page_by_book_id(db: RequestDatabase, keys: Sequence[PageKey]) -> list[Page[ChapterRecord]]:
    return await _read_pages(db, CHAPTER_PAGE_BY_BOOK_ID, keys, _chapter)


async def hadith_page_by_book_id(db: RequestDatabase, keys: Sequence[PageKey]) -> list[Page[int]]:
    return await _read_pages(db, HADITH_PAGE_BY_BOOK_ID, keys, _hadith_id)


async def hadith_page_by_chapter_id(db: RequestDatabase, keys: Sequence[PageKey]) -> list[Page[int]]:
    return await _read_pages(db, HADITH_PAGE_BY_CHAPTER_ID, keys, _hadith_id)


def _by_number(table: Table, parent: str, number: str, columns: Sequence[str]) -> Select[Any]:
    """For each (parent_id, asked_number): the parent's row of that number, if any."""
    asked = asked_keys(parent_id=Integer(), asked_number=Text())
    found = and_(table.c[parent] == asked.c.parent_id, table.c[number] == asked.c.asked_number)
    return select(asked.c.parent_id, asked.c.asked_number, *(table.c[name] for name in columns)).select_from(
        asked.join(table, found)
    )


async def _read_by_number(
    db: RequestDatabase, statement: Select[Any], keys: Sequence[NumberKey], record: Callable[[Row], V]
) -> list[V | None]:
    params = {"parent_id": [parent for parent, _ in keys], "asked_number": [number for _, number in keys]}
    rows = await db.fetch(Bound(statement, params))
    return in_key_order(keys, {(row["parent_id"], row["asked_number"]): record(row) for row in rows})


BOOK_BY_NUMBER = _by_number(t.book, "collection_id", "number", BOOK_COLUMNS)
CHAPTER_BY_NUMBER = _by_number(t.chapter, "book_id", "number", CHAPTER_COLUMNS)
HADITH_ID_BY_NUMBER = _by_number(t.hadith, "collection_id", "canonical_number", ["hadith_id"])


async def book_by_number(db: RequestDatabase, keys: Sequence[NumberKey]) -> list[BookRecord | None]:
    """For each (collection, number): the book of that kitab number."""
    return await _read_by_number(db, BOOK_BY_NUMBER, keys, _book)


async def chapter_by_number(db: RequestDatabase, keys: Sequence[NumberKey]) -> list[ChapterRecord | None]:
    """For each (book, number): the chapter of that bab number."""
    return await _read_by_number(db, CHAPTER_BY_NUMBER, keys, _chapter)


async def hadith_id_by_number(db: RequestDatabase, keys: Sequence[NumberKey]) -> list[int | None]:
    """For each (collection, canonical number): the hadith of that number ('1', '8a')."""
    return await _read_by_number(db, HADITH_ID_BY_NUMBER, keys, _hadith_id)


def _neighbours_by_hadith_id() -> Select[Any]:
    """Each hadith asked, with the ids of the hadith just before and just after it in its collection's order."""
    h, other = t.hadith, aliased(t.hadith, name="other")
    same = other.c.collection_id == h.c.collection_id
    before = select(other.c.hadith_id).where(same, other.c.seq_in_collection < h.c.seq_in_collection)
    after = select(other.c.hadith_id).where(same, other.c.seq_in_collection > h.c.seq_in_collection)
    previous = before.order_by(other.c.seq_in_collection.desc()).limit(1).scalar_subquery()
    following = after.order_by(other.c.seq_in_collection).limit(1).scalar_subquery()
    return select(h.c.hadith_id, previous.label("previous_id"), following.label("next_id")).where(
        any_key(h.c.hadith_id)
    )


NEIGHBOURS_BY_HADITH_ID = _neighbours_by_hadith_id()


async def neighbours_by_hadith_id(db: RequestDatabase, ids: Sequence[int]) -> list[NeighboursRecord | None]:
    rows = await db.fetch(Bound(NEIGHBOURS_BY_HADITH_ID, {KEYS: list(ids)}))
    return in_key_order(ids, {row["hadith_id"]: NeighboursRecord(row["previous_id"], row["next_id"]) for row in rows})


def _hadith_id_by_seed() -> Select[Any]:
    """For each (seed, collection_id): the hadith at rank `seed mod (its hadith)` in the collection's order,
    counted from 0; a null collection_id takes every collection, by collection id."""
    asked = asked_keys(seed=BigInteger(), collection_id=Integer())
    h, c = t.hadith, t.collection
    every = asked.c.collection_id.is_(None)
    total = select(func.sum(c.c.hadith_count)).where(or_(every, c.c.collection_id == asked.c.collection_id))
    chosen = (
        select(h.c.hadith_id)
        .where(or_(every, h.c.collection_id == asked.c.collection_id))
        .order_by(h.c.collection_id, h.c.seq_in_collection)
        .offset(asked.c.seed % total.scalar_subquery())
        .limit(1)
        .lateral("chosen")
    )
    return select(asked.c.seed, asked.c.collection_id, chosen.c.hadith_id).select_from(asked.join(chosen, true()))


HADITH_ID_BY_SEED = _hadith_id_by_seed()


async def hadith_id_by_seed(db: RequestDatabase, keys: Sequence[SeedKey]) -> list[int | None]:
    """For each (seed, collection): the hadith the seed picks; None: no such collection."""
    params = {"seed": [seed for seed, _ in keys], "collection_id": [collection for _, collection in keys]}
    rows = await db.fetch(Bound(HADITH_ID_BY_SEED, params))
    return in_key_order(keys, {(row["seed"], row["collection_id"]): _hadith_id(row) for row in rows})
