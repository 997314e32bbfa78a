"""Lookups of narrators: identity, name forms, dataset fields, rijal notices, assertions, occurrences."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import CTE, Integer, Select, Subquery, and_, func, literal, or_, select
from sqlalchemy.orm import aliased

from app.data import tables as t
from app.data.batch import (
    KEYS,
    MOST,
    PageQuery,
    any_key,
    array_param,
    deduplicated,
    grouped,
    in_key_order,
    most_of,
    page_of,
    ranked,
)
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
from app.database import Bound, RequestDatabase, Row

BoundedKey = tuple[int, int]  # (narrator id, limit)
PageKey = tuple[int, int, int]  # (narrator id, page, limit)
PairKey = tuple[int, int, int]  # (narrator a, narrator b, limit)

CONFIRMED = "confirmed"
OBSERVABLE = ("confirmed", "probable")  # nodes whose narrator id the evidence supports
STATUS_ORDER = {"attested": 0, "probable": 1, "ambiguous": 2, "unresolved": 3}
LINK_ORDER = {"LINKED": 0, "AMBIGUOUS": 1, "CONFLICTED": 2}


def narrator_record(row: Row) -> NarratorRecord:
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


NARRATOR_BY_ID = select(t.narrator).where(any_key(t.narrator.c.narrator_id))


async def narrator_by_id(db: RequestDatabase, ids: Sequence[int]) -> list[NarratorRecord | None]:
    rows = await db.fetch(Bound(NARRATOR_BY_ID, {KEYS: list(ids)}))
    return in_key_order(ids, {row["narrator_id"]: narrator_record(row) for row in rows})


def _variant(row: Row) -> VariantRecord:
    return VariantRecord(
        row["narrator_id"], row["form"], row["script"], row["kind"], row["source_id"], row["source_key"]
    )


VARIANTS_BY_NARRATOR_ID = PageQuery.of(
    select(t.narrator_name_variant),
    key=t.narrator_name_variant.c.narrator_id,
    order=[t.narrator_name_variant.c[name] for name in ("kind", "script", "form")],
    to_record=_variant,
)


async def variants_by_narrator_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[VariantRecord]]:
    """A narrator's name forms: dataset names first, then rijal headwords, then isnad forms."""
    return await VARIANTS_BY_NARRATOR_ID.fetch(db, keys)


LEGACY_FIELDS_BY_NARRATOR_ID = (
    select(t.narrator_legacy_field)
    .where(any_key(t.narrator_legacy_field.c.narrator_id))
    .order_by(t.narrator_legacy_field.c.field, t.narrator_legacy_field.c.source_id)
)


async def legacy_fields_by_narrator_id(db: RequestDatabase, ids: Sequence[int]) -> list[list[LegacyFieldRecord]]:
    rows = await db.fetch(Bound(LEGACY_FIELDS_BY_NARRATOR_ID, {KEYS: list(ids)}))
    fields = grouped(
        (LegacyFieldRecord(r["narrator_id"], r["field"], r["value"], r["source_id"], r["source_key"]) for r in rows),
        lambda record: record.narrator_id,
    )
    return [fields.get(narrator, []) for narrator in ids]


def _notice_link(row: Row) -> NoticeLinkRecord:
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


def _notice_links_by_narrator_id() -> PageQuery[NoticeLinkRecord]:
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
    return PageQuery.of(statement, key=link.c.narrator_id, order=order, to_record=_notice_link)


NOTICE_LINKS_BY_NARRATOR_ID = _notice_links_by_narrator_id()


async def notice_links_by_narrator_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[NoticeLinkRecord]]:
    """The rijal notices linked to each narrator: LINKED first, then AMBIGUOUS, then CONFLICTED."""
    return await NOTICE_LINKS_BY_NARRATOR_ID.fetch(db, keys)


ASSERTIONS_BY_NARRATOR_ID = (
    select(t.scholarly_assertion)
    .where(any_key(t.scholarly_assertion.c.narrator_id))
    .order_by(t.scholarly_assertion.c.field, t.scholarly_assertion.c.source_id)
)


async def assertions_by_narrator_id(db: RequestDatabase, ids: Sequence[int]) -> list[list[AssertionRecord]]:
    rows = await db.fetch(Bound(ASSERTIONS_BY_NARRATOR_ID, {KEYS: list(ids)}))
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


def _ranked_occurrences() -> Subquery:
    """The confirmed chain occurrences of the `:narrators`, ranked by hadith, chain and position."""
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
        .where(n.c.resolution_status == CONFIRMED, any_key(n.c.narrator_id, "narrators"))
        .subquery()
    )


def _occurrences_by_narrator_id() -> Select[Any]:
    """The pages asked: (`:narrators`[i], `:lows`[i], `:highs`[i]) keeps the ranks low < rank <= high of a
    narrator's occurrences."""
    ranked = _ranked_occurrences()
    bounds = (
        func.unnest(*(array_param(name, Integer()) for name in ("narrators", "lows", "highs")))
        .table_valued("narrator_id", "low", "high")
        .render_derived()
    )
    return (
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


OCCURRENCES_BY_NARRATOR_ID = _occurrences_by_narrator_id()


def _occurrence(row: Row) -> OccurrenceRecord:
    return OccurrenceRecord(**{name: row[name] for name in OccurrenceRecord.__slots__})


async def occurrences_by_narrator_id(db: RequestDatabase, keys: Sequence[PageKey]) -> list[Page[OccurrenceRecord]]:
    """One page of each narrator's confirmed chain occurrences, by hadith, chain and position."""
    params = {
        "narrators": [narrator for narrator, _, _ in keys],
        "lows": [(page - 1) * limit for _, page, limit in keys],
        "highs": [page * limit + 1 for _, page, limit in keys],
    }
    found = grouped(
        await db.fetch(Bound(OCCURRENCES_BY_NARRATOR_ID, params)), lambda row: (row["narrator_id"], row["low"])
    )
    return [
        page_of([_occurrence(row) for row in found.get((narrator, (page - 1) * limit), [])], limit)
        for narrator, page, limit in keys
    ]


OCCURRENCE_COUNTS_BY_NARRATOR_ID = (
    select(
        t.chain_node.c.narrator_id,
        func.count().label("occurrences"),
        func.count(t.chain.c.hadith_id.distinct()).label("hadith"),
    )
    .select_from(t.chain_node.join(t.chain, t.chain.c.chain_id == t.chain_node.c.chain_id))
    .where(any_key(t.chain_node.c.narrator_id), t.chain_node.c.resolution_status == CONFIRMED)
    .group_by(t.chain_node.c.narrator_id)
)


async def occurrence_counts_by_narrator_id(db: RequestDatabase, ids: Sequence[int]) -> list[OccurrenceCounts]:
    """How many confirmed occurrences each narrator has, and in how many distinct hadith (all pages)."""
    rows = await db.fetch(Bound(OCCURRENCE_COUNTS_BY_NARRATOR_ID, {KEYS: list(ids)}))
    counts = {row["narrator_id"]: OccurrenceCounts(row["occurrences"], row["hadith"]) for row in rows}
    return [counts.get(narrator, OccurrenceCounts(0, 0)) for narrator in ids]


def _hadith_ids_by_narrator_id() -> PageQuery[int]:
    """The distinct hadith in which each narrator occurs confirmed, by hadith id."""
    n, c = t.chain_node, t.chain
    distinct = (
        select(n.c.narrator_id, c.c.hadith_id)
        .select_from(n.join(c, c.c.chain_id == n.c.chain_id))
        .where(n.c.resolution_status == CONFIRMED)
        .distinct()
        .subquery()
    )
    return PageQuery.of(
        select(distinct),
        key=distinct.c.narrator_id,
        order=[distinct.c.hadith_id],
        to_record=lambda row: int(row["hadith_id"]),
    )


HADITH_IDS_BY_NARRATOR_ID = _hadith_ids_by_narrator_id()


async def hadith_ids_by_narrator_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[int]]:
    """The first `limit` distinct hadith in which each narrator occurs confirmed, by hadith id."""
    return await HADITH_IDS_BY_NARRATOR_ID.fetch(db, keys)


def _relation(row: Row) -> RelationRecord:
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


def _pair_params(keys: Sequence[PairKey]) -> dict[str, object]:
    """The pair statements read what links any two of the narrators of `keys` (`:keys`, one array, which keeps
    the narrator indexes usable on both sides), ranked per unordered pair; the lookups keep the pairs asked."""
    return {KEYS: deduplicated(n for a, b, _ in keys for n in (a, b)), MOST: most_of(limit for *_, limit in keys)}


def _relations_by_pair() -> Select[Any]:
    """The relations recorded between any two of the narrators, by unordered pair, strongest status first."""
    r = t.transmission_relation
    status_rank = func.array_position(literal(list(STATUS_ORDER)), r.c.status)
    statement = select(r).where(any_key(r.c.teacher_id), any_key(r.c.student_id))
    partition = [func.least(r.c.teacher_id, r.c.student_id), func.greatest(r.c.teacher_id, r.c.student_id)]
    return ranked(statement, partition, [status_rank, r.c.source_id, r.c.teacher_id])


RELATIONS_BY_PAIR = _relations_by_pair()


async def relations_by_pair(db: RequestDatabase, keys: Sequence[PairKey]) -> list[Page[RelationRecord]]:
    """The recorded teacher/student relations between each pair, both directions, strongest status first."""
    rows = await db.fetch(Bound(RELATIONS_BY_PAIR, _pair_params(keys)))
    by_pair = grouped((_relation(row) for row in rows), lambda rel: frozenset((rel.teacher_id, rel.student_id)))
    return [page_of(by_pair.get(frozenset((a, b)), []), limit) for a, b, limit in keys]


def _adjacent_nodes() -> CTE:
    """Adjacent nodes of observed chains whose narrators are both among the narrators. Materialized, it is
    planned on its own: the nodes of these narrators, read by index, whatever plan the chains would invite."""
    lower, upper = aliased(t.chain_node, name="lower_node"), aliased(t.chain_node, name="upper_node")
    columns = [lower.c[name].label(f"lower_{name}") for name in NodeRecord.__slots__]
    columns += [upper.c[name].label(f"upper_{name}") for name in NodeRecord.__slots__]
    return (
        select(*columns)
        .select_from(
            lower.join(upper, and_(upper.c.chain_id == lower.c.chain_id, upper.c.position == lower.c.position + 1))
        )
        .where(
            any_key(lower.c.narrator_id),
            any_key(upper.c.narrator_id),
            or_(*(lower.c.resolution_status == s for s in OBSERVABLE)),
            or_(*(upper.c.resolution_status == s for s in OBSERVABLE)),
        )
        .cte("adjacent_node")
        .prefix_with("MATERIALIZED")
    )


def _observations_by_pair() -> Select[Any]:
    """The adjacent nodes with their chain and hadith, by unordered pair of narrators, then by hadith, chain and
    position."""
    adjacent, c, h = _adjacent_nodes(), t.chain, t.hadith
    statement = select(
        c.c.hadith_id,
        h.c.canonical_reference,
        c.c.chain_id,
        c.c.source_id.label("chain_source_id"),
        c.c.source_key.label("chain_source_key"),
        *adjacent.c,
    ).select_from(adjacent.join(c, c.c.chain_id == adjacent.c.lower_chain_id).join(h, h.c.hadith_id == c.c.hadith_id))
    ids = (adjacent.c.lower_narrator_id, adjacent.c.upper_narrator_id)
    partition = [func.least(*ids), func.greatest(*ids)]
    return ranked(statement, partition, [c.c.hadith_id, c.c.chain_id, adjacent.c.lower_position])


OBSERVATIONS_BY_PAIR = _observations_by_pair()


def _node_from(row: Row, prefix: str) -> NodeRecord:
    return NodeRecord(**{name: row[f"{prefix}_{name}"] for name in NodeRecord.__slots__})


async def observations_by_pair(db: RequestDatabase, keys: Sequence[PairKey]) -> list[Page[ObservationRecord]]:
    """Where the two narrators of each pair stand adjacent in an observed chain."""
    rows = await db.fetch(Bound(OBSERVATIONS_BY_PAIR, _pair_params(keys)))
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
