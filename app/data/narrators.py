"""Lookups of narrators: identity; the distinct hadith of each; and what each narrator tool reads, one statement
each: a profile, a page of occurrences, what links two narrators.

Those three bring their lists in the same statement, as `json_rows` of the record's fields in field order. They
read each list from the table the import derives for it (ingest/derived.py), where it is already in order and
ranked: the first rows of a list, or a page of it, are a range of its primary key.
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
    bindparam,
    case,
    func,
    select,
    true,
)
from sqlalchemy.orm import aliased

from app.data import tables as t
from app.data.batch import (
    KEYS,
    MOST,
    any_key,
    asked_keys,
    deduplicated,
    grouped,
    in_key_order,
    json_rows,
    most_of,
    page_of,
)
from app.data.database import Bound, RequestDatabase, Row
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

BoundedKey = tuple[int, int]  # (narrator id, limit)
ProfileKey = tuple[int, int, int]  # (narrator id, name form limit, entry limit)
PageKey = tuple[int, int, int]  # (narrator id, page, limit)
PairKey = tuple[int, int, int, bool]  # (narrator a, narrator b, limit, with the chain observations)

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


def _first_ranked(
    table: FromClause, columns: Sequence[str], *, where: ColumnElement[bool], rank: str, most: str, label: str
) -> Label[Any]:
    """The rows of a derived table that match `where`: the first `:most` by the rank the import gave them, as
    `json_rows`."""
    kept = and_(where, table.c[rank] <= bindparam(most, type_=Integer))
    return json_rows(table, columns, order=[table.c[rank]], where=kept, label=label)


def _variants_of_narrator() -> Label[Any]:
    """A narrator's first name forms: dataset names first, then rijal headwords, then isnad forms."""
    v = t.profile_variant
    where = v.c.narrator_id == t.narrator.c.narrator_id
    return _first_ranked(
        v, VariantRecord.__slots__, where=where, rank="variant_rank", most=MOST_FORMS, label="variants"
    )


def _legacy_fields_of_narrator() -> Label[Any]:
    f = t.narrator_legacy_field
    where, order = f.c.narrator_id == t.narrator.c.narrator_id, [f.c.field, f.c.source_id]
    return json_rows(f, LegacyFieldRecord.__slots__, where=where, order=order, label="legacy_fields")


def _notice_links_of_narrator() -> Label[Any]:
    """The first rijal notices linked to a narrator: LINKED first, then AMBIGUOUS, then CONFLICTED."""
    e = t.profile_entry
    where = e.c.narrator_id == t.narrator.c.narrator_id
    return _first_ranked(e, NoticeLinkRecord.__slots__, where=where, rank="entry_rank", most=MOST, label="notice_links")


def _assertions_of_narrator() -> Label[Any]:
    a = t.scholarly_assertion
    where, order = a.c.narrator_id == t.narrator.c.narrator_id, [a.c.field, a.c.source_id]
    return json_rows(a, AssertionRecord.__slots__, where=where, order=order, label="assertions")


def _profile_by_narrator_id() -> Select[Any]:
    """Each narrator asked that exists, with its lists."""
    asked, n = asked_keys(narrator_id=Integer()), t.narrator
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


def _occurrences_on_page(pages: Subquery) -> Label[Any]:
    """The narrator's confirmed chain occurrences ranked low < rank <= high (ranked by hadith, chain number and
    position at import)."""
    o = t.narrator_occurrence
    rank = o.c.occurrence_rank
    on_page = and_(o.c.narrator_id == pages.c.narrator_id, rank > pages.c.low, rank <= pages.c.high)
    return json_rows(o, OccurrenceRecord.__slots__, order=[rank], where=on_page, label="occurrences")


def _occurrence_page_by_narrator_id() -> Select[Any]:
    """For each page asked of an existing narrator: the counts of its occurrences (made at import), and those of
    the page."""
    pages, n = asked_keys(narrator_id=Integer(), low=Integer(), high=Integer()), t.narrator
    counts = (n.c.occurrence_count, n.c.distinct_hadith_count)
    return select(pages.c.narrator_id, pages.c.low, *counts, _occurrences_on_page(pages)).select_from(
        pages.join(n, n.c.narrator_id == pages.c.narrator_id)
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


def _hadith_ids_by_narrator_id() -> Select[Any]:
    """For each narrator asked: the first `:most` distinct hadith in which it occurs confirmed, by hadith id, read
    from its occurrences in the index on (narrator, hadith) only as far as the page needs."""
    asked, o = asked_keys(narrator_id=Integer()), t.narrator_occurrence
    first = (
        select(o.c.hadith_id)
        .where(o.c.narrator_id == asked.c.narrator_id)
        .distinct()
        .order_by(o.c.hadith_id)
        .limit(bindparam(MOST, type_=Integer))
        .lateral("first_hadith")
    )
    statement = select(asked.c.narrator_id, first.c.hadith_id).select_from(asked.join(first, true()))
    return statement.order_by(asked.c.narrator_id, first.c.hadith_id)


HADITH_IDS_BY_NARRATOR_ID = _hadith_ids_by_narrator_id()


async def hadith_ids_by_narrator_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[Page[int]]:
    """The first `limit` distinct hadith in which each narrator occurs confirmed, by hadith id."""
    params = {"narrator_id": deduplicated(k for k, _ in keys), MOST: most_of(limit for _, limit in keys)}
    found = grouped(await db.fetch(Bound(HADITH_IDS_BY_NARRATOR_ID, params)), lambda row: row["narrator_id"])
    return [page_of([int(row["hadith_id"]) for row in found.get(k, [])], limit) for k, limit in keys]


def _of_pair(pairs: Subquery, table: FromClause) -> ColumnElement[bool]:
    """The rows of a table keyed by pair that are the pair asked's, whichever way round it was asked."""
    first, second = pairs.c.first_id, pairs.c.second_id
    return and_(
        table.c.least_narrator_id == func.least(first, second),
        table.c.greatest_narrator_id == func.greatest(first, second),
    )


def _relations_of_pair(pairs: Subquery) -> Label[Any]:
    """The first relations recorded between the two narrators, both directions, strongest status first."""
    r = t.pair_relation
    where = _of_pair(pairs, r)
    return _first_ranked(r, RelationRecord.__slots__, where=where, rank="relation_rank", most=MOST, label="relations")


def _json_node(node: FromClause) -> ColumnElement[Any]:
    return func.json_build_array(*(node.c[name] for name in NodeRecord.__slots__))


def _observations_of_pair(pairs: Subquery) -> Label[Any]:
    """Where the two narrators stand adjacent in an observed chain: the pair's first `:most`, ranked by hadith,
    chain and position at import."""
    o = t.pair_observation
    upper, lower = aliased(t.chain_node, name="upper_node"), aliased(t.chain_node, name="lower_node")
    rows = (
        select(
            o.c.observation_rank,
            o.c.hadith_id,
            o.c.canonical_reference,
            o.c.chain_id,
            o.c.chain_source_id,
            o.c.chain_source_key,
            _json_node(upper).label("upper_node"),
            _json_node(lower).label("lower_node"),
            o.c.chain_checks_passed,
        )
        .select_from(
            o.join(upper, upper.c.node_id == o.c.upper_node_id).join(lower, lower.c.node_id == o.c.lower_node_id)
        )
        .where(_of_pair(pairs, o), o.c.observation_rank <= bindparam(MOST, type_=Integer))
        .correlate(pairs)
        .subquery()
    )
    return json_rows(rows, ObservationRecord.__slots__, order=[rows.c.observation_rank], label="observations")


def _pair_by_narrator_ids() -> Select[Any]:
    """For each pair asked whose two narrators exist: their relations, and their chain observations when asked."""
    pairs = asked_keys(first_id=Integer(), second_id=Integer(), observe=Boolean())  # observe: with the observations
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
