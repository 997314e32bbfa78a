"""Lookups of hadith, their chains and nodes, and their public commentary passages."""

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from sqlalchemy import Label, Select, select

from app.data import tables as t
from app.data.batch import KEYS, MOST, any_key, deduplicated, in_key_order, json_first, json_rows, most_of, page_of
from app.data.database import Bound, RequestDatabase, Row
from app.data.records import (
    BookRecord,
    ChainRecord,
    ChapterRecord,
    CheckRecord,
    CollectionRecord,
    HadithChainsRecord,
    HadithRecord,
    NodeRecord,
    Page,
    PassageRecord,
    SourceKey,
)

BoundedKey = tuple[int, int]  # (id, limit)


def _sources_of_hadith() -> Label[Any]:
    r = t.hadith_source_record
    return json_rows(
        r,
        ["role", "source_id", "edition_id", "source_key"],
        where=r.c.hadith_id == t.hadith.c.hadith_id,
        order=[r.c.role, r.c.source_id, r.c.source_key],
        label="sources",
    )


def _hadith_by_id() -> Select[Any]:
    """Each hadith with its collection, book, chapter and the other records it came from."""
    h, c, b, ch = t.hadith, t.collection, t.book, t.chapter
    return (
        select(
            h.c.hadith_id,
            h.c.canonical_reference,
            h.c.canonical_number,
            h.c.in_book_reference,
            h.c.text_ar,
            h.c.text_fr,
            h.c.source_id,
            h.c.edition_id,
            h.c.source_key,
            c.c.collection_id,
            c.c.code,
            c.c.name_en,
            c.c.name_ar,
            c.c.name_fr,
            c.c.hadith_count,
            b.c.book_id,
            b.c.number.label("book_number"),
            b.c.title_ar.label("book_title_ar"),
            b.c.title_en.label("book_title_en"),
            b.c.title_fr.label("book_title_fr"),
            b.c.hadith_count.label("book_hadith_count"),
            ch.c.chapter_id,
            ch.c.number.label("chapter_number"),
            ch.c.title_ar.label("chapter_title_ar"),
            ch.c.title_en.label("chapter_title_en"),
            ch.c.hadith_count.label("chapter_hadith_count"),
            _sources_of_hadith(),
        )
        .select_from(
            h.join(c, c.c.collection_id == h.c.collection_id)
            .outerjoin(b, b.c.book_id == h.c.book_id)
            .outerjoin(ch, ch.c.chapter_id == h.c.chapter_id)
        )
        .where(any_key(h.c.hadith_id))
    )


HADITH_BY_ID = _hadith_by_id()


def _own_record(row: Row) -> SourceKey:
    """The record the hadith's text comes from (its row's own source columns)."""
    return SourceKey("text_ar", row["source_id"], row["edition_id"], row["source_key"])


def _source_keys(row: Row) -> tuple[SourceKey, ...]:
    """The hadith's own record first, then each other record it came from, once each."""
    keys = [_own_record(row), *(SourceKey(*entry) for entry in row["sources"])]
    unique: dict[tuple[str, str | None, str | None], SourceKey] = {}
    for key in keys:
        unique.setdefault((key.source_id, key.edition_id, key.source_key), key)
    return tuple(unique.values())


def _hadith(row: Row) -> HadithRecord:
    book = None
    if row["book_id"] is not None:
        book = BookRecord(
            row["book_id"],
            row["book_number"],
            row["book_title_ar"],
            row["book_title_en"],
            row["book_title_fr"],
            row["book_hadith_count"],
        )
    chapter = None
    if row["chapter_id"] is not None:
        chapter = ChapterRecord(
            row["chapter_id"],
            row["chapter_number"],
            row["chapter_title_ar"],
            row["chapter_title_en"],
            row["chapter_hadith_count"],
        )
    return HadithRecord(
        hadith_id=row["hadith_id"],
        canonical_reference=row["canonical_reference"],
        canonical_number=row["canonical_number"],
        in_book_reference=row["in_book_reference"],
        text_ar=row["text_ar"],
        text_fr=row["text_fr"],
        collection=CollectionRecord(
            row["collection_id"], row["code"], row["name_en"], row["name_ar"], row["name_fr"], row["hadith_count"]
        ),
        book=book,
        chapter=chapter,
        sources=_source_keys(row),
    )


async def hadith_by_id(db: RequestDatabase, ids: Sequence[int]) -> list[HadithRecord | None]:
    rows = await db.fetch(Bound(HADITH_BY_ID, {KEYS: list(ids)}))
    return in_key_order(ids, {row["hadith_id"]: _hadith(row) for row in rows})


NODE_COLUMNS = [field.name for field in fields(NodeRecord)]
CHECK_COLUMNS = [field.name for field in fields(CheckRecord)]
CHAIN_COLUMNS = [field.name for field in fields(ChainRecord)]  # the chain's columns, its nodes, its checks


def nodes_of_chain() -> Label[Any]:
    n = t.chain_node
    return json_rows(n, NODE_COLUMNS, where=n.c.chain_id == t.chain.c.chain_id, order=[n.c.position], label="nodes")


def checks_of_chain() -> Label[Any]:
    k = t.chain_check
    where = k.c.chain_id == t.chain.c.chain_id
    return json_rows(k, CHECK_COLUMNS, where=where, order=[k.c.check_number], label="checks")


def _chains_by_hadith_id() -> Select[Any]:
    """Each hadith's reference and own record, with its first `:most` chains by chain_number, each with its
    nodes by position (a chain has fewer than 100 nodes by construction) and its failed checks, as one JSON
    tree."""
    h, c = t.hadith, t.chain
    statement = select(c, nodes_of_chain(), checks_of_chain()).where(c.c.hadith_id == h.c.hadith_id).correlate(h)
    chains = json_first(statement, CHAIN_COLUMNS, order=[c.c.chain_number], label="chains")
    own = (h.c.source_id, h.c.edition_id, h.c.source_key)
    return select(h.c.hadith_id, h.c.canonical_reference, *own, chains).where(any_key(h.c.hadith_id))


CHAINS_BY_HADITH_ID = _chains_by_hadith_id()


def chain_of(entry: list[Any]) -> ChainRecord:
    values = dict(zip(CHAIN_COLUMNS, entry, strict=True))
    values["nodes"] = tuple(NodeRecord(*node) for node in values["nodes"])
    values["checks"] = tuple(CheckRecord(*check) for check in values["checks"])
    return ChainRecord(**values)


def _hadith_chains(row: Row, limit: int) -> HadithChainsRecord:
    chains = [chain_of(entry) for entry in row["chains"]]
    return HadithChainsRecord(row["hadith_id"], row["canonical_reference"], _own_record(row), page_of(chains, limit))


async def chains_by_hadith_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[HadithChainsRecord | None]:
    """For each (hadith, limit): the hadith's first `limit` chains with their nodes; None: no such hadith."""
    params = {KEYS: deduplicated(h for h, _ in keys), MOST: most_of(limit for _, limit in keys)}
    rows = {row["hadith_id"]: row for row in await db.fetch(Bound(CHAINS_BY_HADITH_ID, params))}
    return [None if (row := rows.get(h)) is None else _hadith_chains(row, limit) for h, limit in keys]


PASSAGE_COLUMNS = [field.name for field in fields(PassageRecord)]


def _passages_by_hadith_id() -> Select[Any]:
    """Each hadith asked that exists, with its first `:most` published, validated passages, by work and
    order in the work."""
    h, p = t.hadith, t.public_commentary_passage
    statement = select(p).where(p.c.hadith_id == h.c.hadith_id).correlate(h)
    passages = json_first(statement, PASSAGE_COLUMNS, order=[p.c.source_id, p.c.seq], label="passages")
    return select(h.c.hadith_id, passages).where(any_key(h.c.hadith_id))


PASSAGES_BY_HADITH_ID = _passages_by_hadith_id()


async def passages_by_hadith_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[PassageRecord] | None]:
    """For each (hadith, limit): the hadith's first `limit` passages; None: no such hadith."""
    params = {KEYS: deduplicated(h for h, _ in keys), MOST: most_of(limit for _, limit in keys)}
    rows = {row["hadith_id"]: row for row in await db.fetch(Bound(PASSAGES_BY_HADITH_ID, params))}
    return [
        None if (row := rows.get(h)) is None else page_of([PassageRecord(*entry) for entry in row["passages"]], limit)
        for h, limit in keys
    ]
