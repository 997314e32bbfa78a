"""Lookups of hadith, their chains and nodes, and their public commentary passages."""

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, func, literal_column, select
from sqlalchemy.dialects.postgresql import aggregate_order_by

from app.data import tables as t
from app.data.batch import KEYS, PageQuery, any_key, grouped, in_key_order
from app.data.records import (
    BookRecord,
    ChainRecord,
    ChapterRecord,
    CollectionRecord,
    HadithRecord,
    NodeRecord,
    Page,
    PassageRecord,
    SourceKey,
)
from app.database import Bound, RequestDatabase, Row

BoundedKey = tuple[int, int]  # (id, limit)


def _sources_of_hadith() -> Any:
    r = t.hadith_source_record
    record = func.json_build_array(r.c.role, r.c.source_id, r.c.edition_id, r.c.source_key)
    ordered = aggregate_order_by(record, r.c.role, r.c.source_id, r.c.source_key)
    return (
        select(func.coalesce(func.json_agg(ordered), literal_column("'[]'::json")))
        .where(r.c.hadith_id == t.hadith.c.hadith_id)
        .scalar_subquery()
        .label("sources")
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
            b.c.book_id,
            b.c.number.label("book_number"),
            b.c.title_ar.label("book_title_ar"),
            b.c.title_en.label("book_title_en"),
            b.c.title_fr.label("book_title_fr"),
            ch.c.chapter_id,
            ch.c.number.label("chapter_number"),
            ch.c.title_ar.label("chapter_title_ar"),
            ch.c.title_en.label("chapter_title_en"),
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


def _source_keys(row: Row) -> tuple[SourceKey, ...]:
    """The hadith's own record first, then each other record it came from, once each."""
    raw = row["sources"]
    entries = json.loads(raw) if isinstance(raw, str) else raw
    keys = [SourceKey("text_ar", row["source_id"], row["edition_id"], row["source_key"])]
    keys += [SourceKey(*entry) for entry in entries]
    unique: dict[tuple[str, str | None, str | None], SourceKey] = {}
    for key in keys:
        unique.setdefault((key.source_id, key.edition_id, key.source_key), key)
    return tuple(unique.values())


def _hadith(row: Row) -> HadithRecord:
    book = None
    if row["book_id"] is not None:
        book = BookRecord(
            row["book_id"], row["book_number"], row["book_title_ar"], row["book_title_en"], row["book_title_fr"]
        )
    chapter = None
    if row["chapter_id"] is not None:
        chapter = ChapterRecord(
            row["chapter_id"], row["chapter_number"], row["chapter_title_ar"], row["chapter_title_en"]
        )
    return HadithRecord(
        hadith_id=row["hadith_id"],
        canonical_reference=row["canonical_reference"],
        canonical_number=row["canonical_number"],
        in_book_reference=row["in_book_reference"],
        text_ar=row["text_ar"],
        text_fr=row["text_fr"],
        collection=CollectionRecord(row["collection_id"], row["code"], row["name_en"], row["name_ar"], row["name_fr"]),
        book=book,
        chapter=chapter,
        sources=_source_keys(row),
    )


async def hadith_by_id(db: RequestDatabase, ids: Sequence[int]) -> list[HadithRecord | None]:
    rows = await db.fetch(Bound(HADITH_BY_ID, {KEYS: list(ids)}))
    return in_key_order(ids, {row["hadith_id"]: _hadith(row) for row in rows})


def _chain(row: Row) -> ChainRecord:
    return ChainRecord(
        row["chain_id"],
        row["hadith_id"],
        row["chain_number"],
        row["origin"],
        row["alignment_score"],
        row["source_id"],
        row["source_key"],
    )


CHAINS_BY_HADITH_ID = PageQuery.of(
    select(t.chain), key=t.chain.c.hadith_id, order=[t.chain.c.chain_number], to_record=_chain
)


async def chains_by_hadith_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[ChainRecord]]:
    """The first `limit` chains of each hadith, by chain_number."""
    return await CHAINS_BY_HADITH_ID.fetch(db, keys)


def _node(row: Row) -> NodeRecord:
    return NodeRecord(
        node_id=row["node_id"],
        chain_id=row["chain_id"],
        position=row["position"],
        narrator_id=row["narrator_id"],
        mention_ar=row["mention_ar"],
        transmission_term_ar=row["transmission_term_ar"],
        resolution_status=row["resolution_status"],
        confidence=row["confidence"],
        method=row["method"],
        source_key=row["source_key"],
    )


NODES_BY_CHAIN_ID = (
    select(t.chain_node)
    .where(any_key(t.chain_node.c.chain_id))
    .order_by(t.chain_node.c.chain_id, t.chain_node.c.position)
)


async def nodes_by_chain_id(db: RequestDatabase, ids: Sequence[int]) -> list[list[NodeRecord]]:
    """Every node of each chain, by position (a chain has fewer than 100 nodes by construction)."""
    rows = await db.fetch(Bound(NODES_BY_CHAIN_ID, {KEYS: list(ids)}))
    nodes = grouped((_node(row) for row in rows), lambda node: node.chain_id)
    return [nodes.get(chain, []) for chain in ids]


def _passage(row: Row) -> PassageRecord:
    return PassageRecord(
        passage_id=row["passage_id"],
        hadith_id=row["hadith_id"],
        source_id=row["source_id"],
        marker_no=row["marker_no"],
        seq=row["seq"],
        passage_kind=row["passage_kind"],
        heading=row["heading"],
        text=row["text"],
        page=row["page"],
        alignment_status=row["alignment_status"],
        alignment_confidence=row["alignment_confidence"],
        source_key=row["source_key"],
    )


PASSAGES_BY_HADITH_ID = PageQuery.of(
    select(t.public_commentary_passage),
    key=t.public_commentary_passage.c.hadith_id,
    order=[t.public_commentary_passage.c.source_id, t.public_commentary_passage.c.seq],
    to_record=_passage,
)


async def passages_by_hadith_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[PassageRecord]]:
    """The first `limit` published, validated passages on each hadith, by work and order in the work."""
    return await PASSAGES_BY_HADITH_ID.fetch(db, keys)
