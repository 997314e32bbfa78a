"""Search statements: hadith by citation, Arabic and French wording; narrators by any name form.

Each function serves one match tier and returns at most `most` hits, best first. The tiers are
combined by the resolvers (resolvers/search_hadith.py, resolvers/search_narrator.py).
"""

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, RowMapping, Select, and_, func, literal, not_, select
from sqlalchemy.dialects.postgresql import distinct_on

from app.data import tables as t
from app.data.batch import any_of
from app.data.narrators import narrator_record
from app.data.records import HadithHitRecord, NarratorHitRecord
from app.database import FUZZY_HADITH_THRESHOLD, FUZZY_NAME_THRESHOLD, RequestDatabase


@dataclass(frozen=True)
class HadithScope:
    collection_id: int | None
    exclude: Sequence[int]
    most: int


@dataclass(frozen=True)
class NarratorScope:
    script: str | None
    grade_tier: str | None
    region: str | None
    generation: int | None
    exclude: Sequence[int]
    most: int


def _hadith_hits(score: ColumnElement[Any]) -> Select[Any]:
    h, c = t.hadith, t.collection
    return select(
        h.c.hadith_id,
        h.c.canonical_reference,
        c.c.code.label("collection_code"),
        h.c.text_ar,
        h.c.text_fr,
        score.label("score"),
        h.c.source_id,
        h.c.edition_id,
        h.c.source_key,
        h.c.text_fr_edition_id,
    ).select_from(h.join(c, c.c.collection_id == h.c.collection_id))


def _scoped(statement: Select[Any], scope: HadithScope) -> Select[Any]:
    h = t.hadith
    if scope.collection_id is not None:
        statement = statement.where(h.c.collection_id == scope.collection_id)
    if scope.exclude:
        statement = statement.where(not_(any_of(h.c.hadith_id, scope.exclude)))
    return statement.order_by(statement.selected_columns.score.desc(), h.c.hadith_id).limit(scope.most)


def _hit(row: RowMapping) -> HadithHitRecord:
    return HadithHitRecord(
        hadith_id=row["hadith_id"],
        canonical_reference=row["canonical_reference"],
        collection_code=row["collection_code"],
        text_ar=row["text_ar"],
        text_fr=row["text_fr"],
        score=None if row["score"] is None else round(float(row["score"]), 4),
        source_id=row["source_id"],
        edition_id=row["edition_id"],
        source_key=row["source_key"],
        text_fr_edition_id=row["text_fr_edition_id"],
    )


async def _hadith(db: RequestDatabase, statement: Select[Any], scope: HadithScope) -> list[HadithHitRecord]:
    return [_hit(row) for row in await db.fetch(_scoped(statement, scope))]


async def hadith_by_citation(db: RequestDatabase, code: str, number: str, scope: HadithScope) -> list[HadithHitRecord]:
    """The hadith a citation names; a bare Muslim number names its whole group (8 -> 8a, 8b ...)."""
    h, c = t.hadith, t.collection
    numbers = [number, *(number + letter for letter in string.ascii_lowercase)] if number.isdigit() else [number]
    statement = _hadith_hits(literal(1.0)).where(c.c.code == code, any_of(h.c.canonical_number, numbers))
    return await _hadith(db, statement, scope)


def _coverage(text: ColumnElement[str], query: str) -> ColumnElement[float]:
    """How much of the text the query covers: a comparable score within the phrase and word tiers."""
    return func.least(1.0, literal(float(len(query))) / func.greatest(func.char_length(text), 1))


async def hadith_by_arabic_phrase(db: RequestDatabase, phrase: str, scope: HadithScope) -> list[HadithHitRecord]:
    text = t.hadith.c.text_ar_normalized
    statement = _hadith_hits(_coverage(text, phrase)).where(text.contains(phrase, autoescape=True))
    return await _hadith(db, statement, scope)


async def hadith_by_arabic_words(
    db: RequestDatabase, words: Sequence[str], scope: HadithScope
) -> list[HadithHitRecord]:
    text = t.hadith.c.text_ar_normalized
    statement = _hadith_hits(_coverage(text, " ".join(words))).where(
        and_(*(text.contains(word, autoescape=True) for word in words))
    )
    return await _hadith(db, statement, scope)


async def hadith_by_arabic_fuzzy(db: RequestDatabase, phrase: str, scope: HadithScope) -> list[HadithHitRecord]:
    text = t.hadith.c.text_ar_normalized
    similarity = func.word_similarity(phrase, text)
    statement = _hadith_hits(similarity).where(
        literal(phrase).bool_op("<%")(text), similarity >= FUZZY_HADITH_THRESHOLD
    )
    return await _hadith(db, statement, scope)


def _french(column: ColumnElement[str] | str) -> ColumnElement[str]:
    return func.unaccent(func.lower(column))


def _escaped(word: str) -> str:
    """The word as a LIKE pattern matches it literally (escape character: backslash)."""
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def hadith_by_french_words(
    db: RequestDatabase, words: Sequence[str], scope: HadithScope
) -> list[HadithHitRecord]:
    """Hadith whose French text holds every word, case and accents folded alike on both sides."""
    text = _french(t.hadith.c.text_fr)
    patterns = (func.concat("%", _french(literal(_escaped(word))), "%") for word in words)
    statement = _hadith_hits(_coverage(t.hadith.c.text_fr, " ".join(words))).where(
        and_(*(text.like(pattern, escape="\\") for pattern in patterns))
    )
    return await _hadith(db, statement, scope)


def _narrator_matches(condition: ColumnElement[bool], score: ColumnElement[Any], scope: NarratorScope) -> Select[Any]:
    v, n = t.narrator_name_variant, t.narrator
    statement = (
        select(
            n,
            v.c.form.label("matched_form"),
            v.c.source_id.label("form_source_id"),
            v.c.source_key.label("form_source_key"),
            score.label("score"),
        )
        .select_from(v.join(n, n.c.narrator_id == v.c.narrator_id))
        .where(condition)
    )
    for column, value in (
        (v.c.script, scope.script),
        (n.c.grade_tier, scope.grade_tier),
        (n.c.region, scope.region),
        (n.c.generation, scope.generation),
    ):
        if value is not None:
            statement = statement.where(column == value)
    if scope.exclude:
        statement = statement.where(not_(any_of(n.c.narrator_id, scope.exclude)))
    best = statement.order_by(n.c.narrator_id, score.desc()).ext(distinct_on(n.c.narrator_id)).subquery()
    return (
        select(best).order_by(best.c.score.desc(), best.c.chain_node_count.desc(), best.c.narrator_id).limit(scope.most)
    )


async def narrators_by_name(
    db: RequestDatabase, tier: str, query: str, scope: NarratorScope
) -> list[NarratorHitRecord]:
    """Narrators one of whose name forms matches `query` (normalized) in the given tier."""
    form = t.narrator_name_variant.c.form_normalized
    conditions: dict[str, tuple[ColumnElement[bool], ColumnElement[Any]]] = {
        "exact": (form == query, literal(1.0)),
        "prefix": (form.startswith(query, autoescape=True), _coverage(form, query)),
        "substring": (form.contains(query, autoescape=True), _coverage(form, query)),
        "fulltext": (and_(*(form.contains(w, autoescape=True) for w in query.split())), _coverage(form, query)),
        "fuzzy": (
            and_(form.bool_op("%")(query), func.similarity(form, query) >= FUZZY_NAME_THRESHOLD),
            func.similarity(form, query),
        ),
    }
    condition, score = conditions[tier]
    rows = await db.fetch(_narrator_matches(condition, score, scope))
    return [
        NarratorHitRecord(
            narrator_record(row),
            row["matched_form"],
            row["form_source_id"],
            row["form_source_key"],
            round(float(row["score"]), 4),
        )
        for row in rows
    ]
