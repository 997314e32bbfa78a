"""Lookups of narrators: identity; the distinct hadith of each; and what each narrator tool reads, one statement
each: a profile, a page of occurrences, what links two narrators.

Those three bring their lists in the same statement, as `json_rows` of the record's fields in field order.
"""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    FromClause,
    Integer,
    Label,
    Select,
    Subquery,
    and_,
    case,
    column,
    func,
    literal,
    or_,
    select,
    true,
)
from sqlalchemy.orm import aliased
from sqlalchemy.types import TypeEngine

from app.data import tables as t
from app.data.batch import (
    KEYS,
    MOST,
    RANK,
    PageQuery,
    any_key,
    array_param,
    deduplicated,
    grouped,
    in_key_order,
    json_first,
    json_rows,
    most_of,
    page_of,
    ranked_rows,
)
from app.data.records import (
    AssertionRecord,
    LegacyFieldRecord,
    NarratorRecord,
    NodeRecord,
    NoticeLinkRecord,
    ObservationRecord,
    OccurrencePageRecord,
    OccurrenceRecord,
    Page,
    PairRecord,
    ProfileRecord,
    RelationRecord,
    VariantRecord,
)
from app.database import Bound, RequestDatabase, Row

BoundedKey = tuple[int, int]  # (narrator id, limit)
ProfileKey = tuple[int, int, int]  # (narrator id, name form limit, entry limit)
PageKey = tuple[int, int, int]  # (narrator id, page, limit)
PairKey = tuple[int, int, int, bool]  # (narrator a, narrator b, limit, with the chain observations)

CONFIRMED = "confirmed"
OBSERVABLE = ("confirmed", "probable")  # nodes whose narrator id the evidence supports
STATUS_ORDER = {"attested": 0, "probable": 1, "ambiguous": 2, "unresolved": 3}
LINK_ORDER = {"LINKED": 0, "AMBIGUOUS": 1, "CONFLICTED": 2}
MOST_FORMS = "most_forms"


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


def _asked(**columns: TypeEngine[Any]) -> Subquery:
    """The keys asked, one row each: `unnest` of one array parameter per column, named as the column.

    Its LIMIT, the number of keys, keeps every row and lets the generic plan expect one key (as in
    `batch.any_key`). The per-key subqueries see their key as a parameter in either plan, so the generic
    plan is as good."""
    arrays = [array_param(name, item) for name, item in columns.items()]
    keys = func.unnest(*arrays).table_valued(*(column(name, item) for name, item in columns.items()))
    return select(keys.render_derived()).limit(func.cardinality(arrays[0])).subquery()


def _variants_of_narrator() -> Label[Any]:
    """A narrator's name forms: dataset names first, then rijal headwords, then isnad forms."""
    v = t.narrator_name_variant
    statement = select(v).where(v.c.narrator_id == t.narrator.c.narrator_id).correlate(t.narrator)
    order = [v.c.kind, v.c.script, v.c.form]
    return json_first(statement, VariantRecord.__slots__, order=order, most=MOST_FORMS, label="variants")


def _legacy_fields_of_narrator() -> Label[Any]:
    f = t.narrator_legacy_field
    where, order = f.c.narrator_id == t.narrator.c.narrator_id, [f.c.field, f.c.source_id]
    return json_rows(f, LegacyFieldRecord.__slots__, where=where, order=order, label="legacy_fields")


def _notice_links_of_narrator() -> Label[Any]:
    """The rijal notices linked to a narrator: LINKED first, then AMBIGUOUS, then CONFLICTED."""
    link, notice = t.narrator_notice_link, t.rijal_notice
    statement = (
        select(
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
        )
        .select_from(link.join(notice, notice.c.notice_id == link.c.notice_id))
        .where(link.c.narrator_id == t.narrator.c.narrator_id)
        .correlate(t.narrator)
    )
    status_rank = func.array_position(literal(list(LINK_ORDER)), link.c.status)
    order = [status_rank, link.c.confidence.desc().nulls_last(), notice.c.entry_id]
    return json_first(statement, NoticeLinkRecord.__slots__, order=order, most=MOST, label="notice_links")


def _assertions_of_narrator() -> Label[Any]:
    a = t.scholarly_assertion
    where, order = a.c.narrator_id == t.narrator.c.narrator_id, [a.c.field, a.c.source_id]
    return json_rows(a, AssertionRecord.__slots__, where=where, order=order, label="assertions")


def _profile_by_narrator_id() -> Select[Any]:
    """Each narrator asked that exists, with its lists."""
    asked, n = _asked(narrator_id=Integer()), t.narrator
    lists = (_variants_of_narrator(), _legacy_fields_of_narrator(), _notice_links_of_narrator())
    return select(n, *lists, _assertions_of_narrator()).select_from(
        asked.join(n, n.c.narrator_id == asked.c.narrator_id)
    )


PROFILE_BY_NARRATOR_ID = _profile_by_narrator_id()


def _profile(row: Row, forms: int, entries: int) -> ProfileRecord:
    return ProfileRecord(
        narrator=narrator_record(row),
        variants=page_of([VariantRecord(*entry) for entry in row["variants"]], forms),
        legacy_fields=tuple(LegacyFieldRecord(*entry) for entry in row["legacy_fields"]),
        notice_links=page_of([NoticeLinkRecord(*entry) for entry in row["notice_links"]], entries),
        assertions=tuple(AssertionRecord(*entry) for entry in row["assertions"]),
    )


async def profile_by_narrator_id(db: RequestDatabase, keys: Sequence[ProfileKey]) -> list[ProfileRecord | None]:
    """Each narrator with its first name forms, its dataset fields, its first linked rijal notices and the
    scholarly assertions on it."""
    params = {
        "narrator_id": deduplicated(narrator for narrator, _, _ in keys),
        MOST_FORMS: most_of(forms for _, forms, _ in keys),
        MOST: most_of(entries for *_, entries in keys),
    }
    rows = {row["narrator_id"]: row for row in await db.fetch(Bound(PROFILE_BY_NARRATOR_ID, params))}
    return [_profile(rows[narrator], forms, entries) if narrator in rows else None for narrator, forms, entries in keys]


def _confirmed_nodes_of(pages: Subquery) -> ColumnElement[bool]:
    return and_(t.chain_node.c.narrator_id == pages.c.narrator_id, t.chain_node.c.resolution_status == CONFIRMED)


def _occurrence_counts(pages: Subquery) -> FromClause:
    """How many confirmed chain occurrences the narrator has, and in how many distinct hadith (all pages)."""
    n, c = t.chain_node, t.chain
    return (
        select(
            func.count().label("occurrence_count"),
            func.count(c.c.hadith_id.distinct()).label("distinct_hadith_count"),
        )
        .select_from(n.join(c, c.c.chain_id == n.c.chain_id))
        .where(_confirmed_nodes_of(pages))
        .lateral("counts")
    )


def _occurrences_on_page(pages: Subquery) -> Label[Any]:
    """The narrator's confirmed chain occurrences ranked low < rank <= high, by hadith, chain and position."""
    n, c, h = t.chain_node, t.chain, t.hadith
    occurrences = (
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
        )
        .select_from(n.join(c, c.c.chain_id == n.c.chain_id).join(h, h.c.hadith_id == c.c.hadith_id))
        .where(_confirmed_nodes_of(pages))
        .correlate(pages)
    )
    rows = ranked_rows(occurrences, [c.c.hadith_id, c.c.chain_number, n.c.position])
    on_page = and_(rows.c[RANK] > pages.c.low, rows.c[RANK] <= pages.c.high)
    return json_rows(rows, OccurrenceRecord.__slots__, order=[rows.c[RANK]], where=on_page, label="occurrences")


def _occurrence_page_by_narrator_id() -> Select[Any]:
    """For each page asked of an existing narrator: the counts of its occurrences, and those of the page."""
    pages, n = _asked(narrator_id=Integer(), low=Integer(), high=Integer()), t.narrator
    counts = _occurrence_counts(pages)
    return select(pages.c.narrator_id, pages.c.low, counts, _occurrences_on_page(pages)).select_from(
        pages.join(n, n.c.narrator_id == pages.c.narrator_id).join(counts, true())
    )


OCCURRENCE_PAGE_BY_NARRATOR_ID = _occurrence_page_by_narrator_id()


def _occurrence_page(row: Row, limit: int) -> OccurrencePageRecord:
    return OccurrencePageRecord(
        occurrence_count=row["occurrence_count"],
        distinct_hadith_count=row["distinct_hadith_count"],
        occurrences=page_of([OccurrenceRecord(*entry) for entry in row["occurrences"]], limit),
    )


async def occurrence_page_by_narrator_id(
    db: RequestDatabase, keys: Sequence[PageKey]
) -> list[OccurrencePageRecord | None]:
    """One page of each narrator's confirmed chain occurrences, with the counts of them all."""
    params = {
        "narrator_id": [narrator for narrator, _, _ in keys],
        "low": [(page - 1) * limit for _, page, limit in keys],
        "high": [page * limit + 1 for _, page, limit in keys],
    }
    rows = {
        (row["narrator_id"], row["low"]): row for row in await db.fetch(Bound(OCCURRENCE_PAGE_BY_NARRATOR_ID, params))
    }
    found = ((rows.get((narrator, (page - 1) * limit)), limit) for narrator, page, limit in keys)
    return [None if row is None else _occurrence_page(row, limit) for row, limit in found]


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


def _between(pairs: Subquery, one: ColumnElement[Any], other: ColumnElement[Any]) -> ColumnElement[bool]:
    """`one` and `other` are the two narrators of the pair, either way round."""
    first, second = pairs.c.first_id, pairs.c.second_id
    return or_(and_(one == first, other == second), and_(one == second, other == first))


def _relations_of_pair(pairs: Subquery) -> Label[Any]:
    """The relations recorded between the two narrators, both directions, strongest status first."""
    r = t.transmission_relation
    statement = select(r).where(_between(pairs, r.c.teacher_id, r.c.student_id)).correlate(pairs)
    order = [func.array_position(literal(list(STATUS_ORDER)), r.c.status), r.c.source_id, r.c.teacher_id]
    return json_first(statement, RelationRecord.__slots__, order=order, most=MOST, label="relations")


def _json_node(node: FromClause) -> ColumnElement[Any]:
    return func.json_build_array(*(node.c[name] for name in NodeRecord.__slots__))


def _observations_of_pair(pairs: Subquery) -> Label[Any]:
    """Where the two narrators stand adjacent in an observed chain, by hadith, chain and position."""
    lower, upper = aliased(t.chain_node, name="lower_node"), aliased(t.chain_node, name="upper_node")
    c, h = t.chain, t.hadith
    adjacent = and_(upper.c.chain_id == lower.c.chain_id, upper.c.position == lower.c.position + 1)
    statement = (
        select(
            c.c.hadith_id,
            h.c.canonical_reference,
            c.c.chain_id,
            c.c.source_id.label("chain_source_id"),
            c.c.source_key.label("chain_source_key"),
            _json_node(upper).label("upper_node"),
            _json_node(lower).label("lower_node"),
        )
        .select_from(
            lower.join(upper, adjacent)
            .join(c, c.c.chain_id == lower.c.chain_id)
            .join(h, h.c.hadith_id == c.c.hadith_id)
        )
        .where(
            _between(pairs, lower.c.narrator_id, upper.c.narrator_id),
            or_(*(lower.c.resolution_status == s for s in OBSERVABLE)),
            or_(*(upper.c.resolution_status == s for s in OBSERVABLE)),
        )
        .correlate(pairs)
    )
    order = [c.c.hadith_id, c.c.chain_id, lower.c.position]
    return json_first(statement, ObservationRecord.__slots__, order=order, most=MOST, label="observations")


def _pair_by_narrator_ids() -> Select[Any]:
    """For each pair asked whose two narrators exist: their relations, and their chain observations when asked."""
    pairs = _asked(first_id=Integer(), second_id=Integer(), observe=Boolean())  # observe: with the observations
    first, second = aliased(t.narrator, name="first_narrator"), aliased(t.narrator, name="second_narrator")
    return select(
        pairs.c.first_id,
        pairs.c.second_id,
        _relations_of_pair(pairs),
        case((pairs.c.observe, _observations_of_pair(pairs))).label("observations"),
    ).select_from(
        pairs.join(first, first.c.narrator_id == pairs.c.first_id).join(
            second, second.c.narrator_id == pairs.c.second_id
        )
    )


PAIR_BY_NARRATOR_IDS = _pair_by_narrator_ids()


def _observation(entry: list[Any]) -> ObservationRecord:
    values = dict(zip(ObservationRecord.__slots__, entry, strict=True))
    nodes = {name: NodeRecord(*values[name]) for name in ("upper_node", "lower_node")}
    return ObservationRecord(**{**values, **nodes})


def _pair(row: Row, limit: int, observed: bool) -> PairRecord:
    relations = page_of([RelationRecord(*entry) for entry in row["relations"]], limit)
    if not observed:
        return PairRecord(relations, None)
    return PairRecord(relations, page_of([_observation(entry) for entry in row["observations"]], limit))


async def pair_by_narrator_ids(db: RequestDatabase, keys: Sequence[PairKey]) -> list[PairRecord | None]:
    """What links the two narrators of each pair, when both exist: the relations recorded between them, and
    where they stand adjacent in an observed chain (read only for the pairs that ask it)."""
    asked = grouped(keys, lambda key: (key[0], key[1]))
    params = {
        "first_id": [a for a, _ in asked],
        "second_id": [b for _, b in asked],
        "observe": [any(observed for *_, observed in pair) for pair in asked.values()],
        MOST: most_of(limit for _, _, limit, _ in keys),
    }
    rows = {(row["first_id"], row["second_id"]): row for row in await db.fetch(Bound(PAIR_BY_NARRATOR_IDS, params))}
    found = ((rows.get((a, b)), limit, observed) for a, b, limit, observed in keys)
    return [None if row is None else _pair(row, limit, observed) for row, limit, observed in found]
