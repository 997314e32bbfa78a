"""Lookups of narrators: identity, name forms, dataset fields, rijal notices, assertions, occurrences."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import BindParameter, Integer, RowMapping, Select, and_, func, literal, or_, select, tuple_
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import aliased

from app.data import tables as t
from app.data.batch import any_of, fetch_pages, grouped, in_key_order, page_of, ranked
from app.data.records import (
    AssertionRecord,
    LegacyFieldRecord,
    NarratorRecord,
    NodeRecord,
    NoticeLinkRecord,
    ObservationRecord,
    OccurrenceCounts,
    OccurrenceRecord,
    Page,
    RelationRecord,
    VariantRecord,
)
from app.database import RequestDatabase

BoundedKey = tuple[int, int]  # (narrator id, limit)
PageKey = tuple[int, int, int]  # (narrator id, page, limit)
PairKey = tuple[int, int, int]  # (narrator a, narrator b, limit)

CONFIRMED = "confirmed"
OBSERVABLE = ("confirmed", "probable")  # nodes whose narrator id the evidence supports
STATUS_ORDER = {"attested": 0, "probable": 1, "ambiguous": 2, "unresolved": 3}
LINK_ORDER = {"LINKED": 0, "AMBIGUOUS": 1, "CONFLICTED": 2}


def narrator_record(row: RowMapping) -> NarratorRecord:
    return NarratorRecord(
        narrator_id=row["narrator_id"],
        name_ar=row["name_ar"],
        name_latin=row["name_latin"],
        canonical_display=row["canonical_display"],
        name_fr=row["name_fr"],
        generation=row["generation"],
        grade_tier=row["grade_tier"],
        region=row["region"],
        birth_year_hijri=row["birth_year_hijri"],
        death_year_hijri=row["death_year_hijri"],
        chain_node_count=row["chain_node_count"],
        source_id=row["source_id"],
        source_key=row["source_key"],
    )


async def narrator_by_id(db: RequestDatabase, ids: Sequence[int]) -> list[NarratorRecord | None]:
    n = t.narrator
    rows = await db.fetch(select(n).where(any_of(n.c.narrator_id, ids)))
    return in_key_order(ids, {row["narrator_id"]: narrator_record(row) for row in rows})


def _variant(row: RowMapping) -> VariantRecord:
    return VariantRecord(
        row["narrator_id"], row["form"], row["script"], row["kind"], row["source_id"], row["source_key"]
    )


async def variants_by_narrator_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[VariantRecord]]:
    """A narrator's name forms: dataset names first, then rijal headwords, then isnad forms."""
    v = t.narrator_name_variant
    order = [v.c.kind, v.c.script, v.c.form]
    return await fetch_pages(db, select(v), key=v.c.narrator_id, order=order, keys=keys, to_record=_variant)


async def legacy_fields_by_narrator_id(db: RequestDatabase, ids: Sequence[int]) -> list[list[LegacyFieldRecord]]:
    f = t.narrator_legacy_field
    rows = await db.fetch(select(f).where(any_of(f.c.narrator_id, ids)).order_by(f.c.field, f.c.source_id))
    fields = grouped(
        (LegacyFieldRecord(r["narrator_id"], r["field"], r["value"], r["source_id"], r["source_key"]) for r in rows),
        lambda record: record.narrator_id,
    )
    return [fields.get(narrator, []) for narrator in ids]


def _notice_link(row: RowMapping) -> NoticeLinkRecord:
    return NoticeLinkRecord(
        narrator_id=row["narrator_id"],
        notice_id=row["notice_id"],
        entry_id=row["entry_id"],
        text=row["text"],
        page=row["page"],
        work_source_id=row["work_source_id"],
        status=row["status"],
        method=row["method"],
        confidence=row["confidence"],
        link_source_id=row["link_source_id"],
    )


async def notice_links_by_narrator_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[NoticeLinkRecord]]:
    """The rijal notices linked to each narrator: LINKED first, then AMBIGUOUS, then CONFLICTED."""
    link, notice = t.narrator_notice_link, t.rijal_notice
    statement = select(
        link.c.narrator_id,
        link.c.notice_id,
        link.c.status,
        link.c.method,
        link.c.confidence,
        link.c.source_id.label("link_source_id"),
        notice.c.entry_id,
        notice.c.text,
        notice.c.page,
        notice.c.source_id.label("work_source_id"),
    ).select_from(link.join(notice, notice.c.notice_id == link.c.notice_id))
    status_rank = func.array_position(literal(list(LINK_ORDER)), link.c.status)
    order = [status_rank, link.c.confidence.desc().nulls_last(), notice.c.entry_id]
    return await fetch_pages(db, statement, key=link.c.narrator_id, order=order, keys=keys, to_record=_notice_link)


async def assertions_by_narrator_id(db: RequestDatabase, ids: Sequence[int]) -> list[list[AssertionRecord]]:
    a = t.scholarly_assertion
    rows = await db.fetch(select(a).where(any_of(a.c.narrator_id, ids)).order_by(a.c.field, a.c.source_id))
    assertions = grouped(
        (
            AssertionRecord(
                r["narrator_id"],
                r["field"],
                r["value"],
                r["scholar"],
                r["source_id"],
                r["notice_id"],
                r["locator"],
                r["source_key"],
            )
            for r in rows
        ),
        lambda record: record.narrator_id,
    )
    return [assertions.get(narrator, []) for narrator in ids]


def _occurrences() -> Select[Any]:
    n, c, h = t.chain_node, t.chain, t.hadith
    rank = func.row_number().over(
        partition_by=n.c.narrator_id, order_by=[c.c.hadith_id, c.c.chain_number, n.c.position]
    )
    return (
        select(
            n.c.narrator_id,
            c.c.hadith_id,
            h.c.canonical_reference,
            c.c.chain_id,
            c.c.source_id.label("chain_source_id"),
            c.c.source_key.label("chain_source_key"),
            n.c.node_id,
            n.c.position,
            n.c.source_key.label("node_source_key"),
            rank.label("rank_in_key"),
        )
        .select_from(n.join(c, c.c.chain_id == n.c.chain_id).join(h, h.c.hadith_id == c.c.hadith_id))
        .where(n.c.resolution_status == CONFIRMED)
    )


def _integers(values: list[int]) -> BindParameter[list[int]]:
    return literal(values, ARRAY(Integer))


def _occurrence(row: RowMapping) -> OccurrenceRecord:
    return OccurrenceRecord(**{name: row[name] for name in OccurrenceRecord.__slots__})


async def occurrences_by_narrator_id(db: RequestDatabase, keys: Sequence[PageKey]) -> list[Page[OccurrenceRecord]]:
    """One page of each narrator's confirmed chain occurrences, by hadith, chain and position."""
    ranked = _occurrences().where(any_of(t.chain_node.c.narrator_id, {k[0] for k in keys})).subquery()
    bounds = (
        func.unnest(
            _integers([k[0] for k in keys]),
            _integers([(page - 1) * limit for _, page, limit in keys]),
            _integers([page * limit + 1 for _, page, limit in keys]),
        )
        .table_valued("narrator_id", "low", "high")
        .render_derived()
    )
    rows = await db.fetch(
        select(ranked, bounds.c.low)
        .join(
            bounds,
            and_(
                bounds.c.narrator_id == ranked.c.narrator_id,
                ranked.c.rank_in_key > bounds.c.low,
                ranked.c.rank_in_key <= bounds.c.high,
            ),
        )
        .order_by(ranked.c.narrator_id, ranked.c.rank_in_key)
    )
    found = grouped(rows, lambda row: (row["narrator_id"], row["low"]))
    return [
        page_of([_occurrence(row) for row in found.get((narrator, (page - 1) * limit), [])], limit)
        for narrator, page, limit in keys
    ]


async def occurrence_counts_by_narrator_id(db: RequestDatabase, ids: Sequence[int]) -> list[OccurrenceCounts]:
    """How many confirmed occurrences each narrator has, and in how many distinct hadith (all pages)."""
    n, c = t.chain_node, t.chain
    rows = await db.fetch(
        select(n.c.narrator_id, func.count().label("occurrences"), func.count(c.c.hadith_id.distinct()).label("hadith"))
        .select_from(n.join(c, c.c.chain_id == n.c.chain_id))
        .where(any_of(n.c.narrator_id, ids), n.c.resolution_status == CONFIRMED)
        .group_by(n.c.narrator_id)
    )
    counts = {row["narrator_id"]: OccurrenceCounts(row["occurrences"], row["hadith"]) for row in rows}
    return [counts.get(narrator, OccurrenceCounts(0, 0)) for narrator in ids]


async def hadith_ids_by_narrator_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[int]]:
    """The first `limit` distinct hadith in which each narrator occurs confirmed, by hadith id."""
    n, c = t.chain_node, t.chain
    distinct = (
        select(n.c.narrator_id, c.c.hadith_id)
        .select_from(n.join(c, c.c.chain_id == n.c.chain_id))
        .where(n.c.resolution_status == CONFIRMED)
        .distinct()
        .subquery()
    )
    return await fetch_pages(
        db,
        select(distinct),
        key=distinct.c.narrator_id,
        order=[distinct.c.hadith_id],
        keys=keys,
        to_record=lambda row: int(row["hadith_id"]),
    )


def _relation(row: RowMapping) -> RelationRecord:
    return RelationRecord(
        row["relation_id"],
        row["teacher_id"],
        row["student_id"],
        row["status"],
        row["method"],
        row["confidence"],
        row["source_id"],
        row["source_key"],
    )


def _pairs(keys: Sequence[PairKey]) -> list[tuple[int, int]]:
    return [pair for a, b, _ in keys for pair in ((a, b), (b, a))]


def _pair_of(teacher: int, student: int, keys: Sequence[PairKey]) -> list[PairKey]:
    return [key for key in keys if {key[0], key[1]} == {teacher, student}]


async def relations_by_pair(db: RequestDatabase, keys: Sequence[PairKey]) -> list[Page[RelationRecord]]:
    """The recorded teacher/student relations between each pair, both directions, strongest status first."""
    r = t.transmission_relation
    status_rank = func.array_position(literal(list(STATUS_ORDER)), r.c.status)
    statement = select(r).where(tuple_(r.c.teacher_id, r.c.student_id).in_(_pairs(keys)))
    partition = [func.least(r.c.teacher_id, r.c.student_id), func.greatest(r.c.teacher_id, r.c.student_id)]
    most = max(limit for *_, limit in keys) + 1
    rows = await db.fetch(ranked(statement, partition, [status_rank, r.c.source_id, r.c.teacher_id], most))
    by_pair = grouped((_relation(row) for row in rows), lambda rel: frozenset((rel.teacher_id, rel.student_id)))
    return [page_of(by_pair.get(frozenset((a, b)), []), limit) for a, b, limit in keys]


def _observation_statement(keys: Sequence[PairKey]) -> tuple[Select[Any], Any, Any, list[Any]]:
    """The adjacent-node statement, the two narrator-id columns, and the order of observations."""
    lower, upper = aliased(t.chain_node, name="lower_node"), aliased(t.chain_node, name="upper_node")
    c, h = t.chain, t.hadith
    pair = tuple_(lower.c.narrator_id, upper.c.narrator_id)
    columns = [lower.c[name].label(f"lower_{name}") for name in NodeRecord.__slots__]
    columns += [upper.c[name].label(f"upper_{name}") for name in NodeRecord.__slots__]
    statement = (
        select(
            c.c.hadith_id,
            h.c.canonical_reference,
            c.c.chain_id,
            c.c.source_id.label("chain_source_id"),
            c.c.source_key.label("chain_source_key"),
            *columns,
        )
        .select_from(
            lower.join(upper, and_(upper.c.chain_id == lower.c.chain_id, upper.c.position == lower.c.position + 1))
            .join(c, c.c.chain_id == lower.c.chain_id)
            .join(h, h.c.hadith_id == c.c.hadith_id)
        )
        .where(
            pair.in_(_pairs(keys)),
            or_(*(lower.c.resolution_status == s for s in OBSERVABLE)),
            or_(*(upper.c.resolution_status == s for s in OBSERVABLE)),
        )
    )
    return statement, lower.c.narrator_id, upper.c.narrator_id, [c.c.hadith_id, c.c.chain_id, lower.c.position]


def _node_from(row: RowMapping, prefix: str) -> NodeRecord:
    return NodeRecord(**{name: row[f"{prefix}_{name}"] for name in NodeRecord.__slots__})


async def observations_by_pair(db: RequestDatabase, keys: Sequence[PairKey]) -> list[Page[ObservationRecord]]:
    """Where the two narrators of each pair stand adjacent in an observed chain."""
    statement, lower_id, upper_id, order = _observation_statement(keys)
    partition = [func.least(lower_id, upper_id), func.greatest(lower_id, upper_id)]
    most = max(limit for *_, limit in keys) + 1
    rows = await db.fetch(ranked(statement, partition, order, most))
    observations = [
        ObservationRecord(
            row["hadith_id"],
            row["canonical_reference"],
            row["chain_id"],
            row["chain_source_id"],
            row["chain_source_key"],
            upper_node=_node_from(row, "upper"),
            lower_node=_node_from(row, "lower"),
        )
        for row in rows
    ]
    by_pair = grouped(observations, lambda o: frozenset((o.upper_node.narrator_id, o.lower_node.narrator_id)))
    return [page_of(by_pair.get(frozenset((a, b)), []), limit) for a, b, limit in keys]
