"""What the search statements share: their scopes and wordings, parameters, and the hadith tiers' building
blocks (a scope's condition, candidates, what the earlier tiers left, the hit record)."""

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Integer,
    Select,
    String,
    and_,
    any_,
    bindparam,
    func,
    literal_column,
    not_,
    select,
)
from sqlalchemy.dialects.postgresql import ARRAY

from app.data import tables as t
from app.data.database import Row
from app.data.records import HadithHitRecord

CANDIDATES = 250  # hadith an exact or fulltext statement reads at most before ranking them
RERANKED = 8  # fulltext and fuzzy candidates whose whole text is compared with the query (trigram similarity)
FUZZY_CANDIDATES = 100  # hadith holding the query's rarest words, whose every word is then checked
FUZZY_WORD_SHARE = 0.6  # share of the query's words a fuzzy hit must hold, one letter off at most
FUZZY_WORD_CREDIT = 0.8  # what a word one letter off counts for, against 1 for the word itself
FUZZY_MIN_SCORE = 0.6  # a fuzzy hit scoring less resembles the query too little to be offered
RARE_TERM = 1000  # a misheard word's corrections held by more texts than this find no candidates
SKIPPING_ONE_WORDS = 3  # a phrase of this many words at least finds, first, the texts that hold it but for one word
HADITH_TIERS = ("exact", "fulltext", "fuzzy")  # the wording tiers, best first


ALPHABETS = {"ar": "ابتثجحخدذرزسشصضطظعغفقكلمنهويء", "fr": string.ascii_lowercase}
CONFIGS = {"ar": "simple", "fr": "french_unaccent"}  # the text search of the fulltext tier
TERMS = {"ar": t.hadith.c.text_ar_terms, "fr": t.hadith.c.text_fr_terms}
WORDS = {"ar": t.hadith.c.text_ar_terms, "fr": t.hadith.c.text_fr_words}  # the words as written (config simple)


@dataclass(frozen=True)
class HadithScope:
    collection_id: int | None
    exclude: Sequence[int]
    most: int


@dataclass(frozen=True)
class Wording:
    """A query's wording as the tiers compare it: `phrase` (exact: the normalized Arabic phrase, the French
    words as said), `words` (fulltext: the Arabic stems, the French content words), `in_order` (the words in
    the query's order, which the fulltext and fuzzy tiers rank with)."""

    phrase: str
    words: Sequence[str]
    in_order: str


HadithHits = list[tuple[str, HadithHitRecord]]  # each hit with its tier (HADITH_TIERS)


@dataclass(frozen=True)
class FuzzyWord:
    """A query word, and the vocabulary terms one letter off it (the word itself first, when known)."""

    word: str
    terms: tuple[str, ...]
    weight: float
    rare: tuple[str, ...]  # the terms that few texts hold (RARE_TERM): those that can find candidates
    counts: tuple[int, ...] = ()  # how many texts hold each term
    readings: frozenset[str] = frozenset()  # terms that count as the word itself (a transliteration's readings)


def param(name: str, kind: Any) -> BindParameter[Any]:
    """`:name`, a parameter of a statement built once."""
    return bindparam(name, type_=kind)


def array(name: str, item: Any) -> BindParameter[Any]:
    return bindparam(name, type_=ARRAY(item))


def escaped(text: str) -> str:
    """`text` inside a LIKE pattern (ESCAPE '/'), escaped as SQLAlchemy's autoescape escapes it."""
    return text.replace("/", "//").replace("%", "/%").replace("_", "/_")


def like(value: ColumnElement[Any], name: str) -> ColumnElement[bool]:
    """`value` matches the LIKE pattern `:name` (its text escaped with `escaped`)."""
    return value.like(param(name, String), escape="/")


@dataclass(frozen=True)
class ScopeShape:
    """The shape of a hadith scope: whether it names a collection, whether it leaves hadith out."""

    collection: bool
    exclude: bool

    @classmethod
    def of(cls, scope: HadithScope) -> "ScopeShape":
        return cls(scope.collection_id is not None, bool(scope.exclude))


def scope_params(scope: HadithScope) -> dict[str, Any]:
    return {"collection_id": scope.collection_id, "exclude": list(scope.exclude), "most": scope.most}


def hadith_hits(score: ColumnElement[Any]) -> Select[Any]:
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


def in_scope(condition: ColumnElement[bool], scope: ScopeShape, earlier: Sequence[Any] = ()) -> ColumnElement[bool]:
    """`condition`, for hadith in scope that no earlier tier of the statement found (`earlier`: their CTEs)."""
    h = t.hadith
    conditions = [condition]
    if scope.collection:
        conditions.append(h.c.collection_id == param("collection_id", Integer))
    if scope.exclude:
        conditions.append(not_(h.c.hadith_id == any_(array("exclude", Integer))))
    conditions += [h.c.hadith_id.not_in(select(tier.c.hadith_id)) for tier in earlier]
    return and_(*conditions)


def limited(statement: Select[Any]) -> Select[Any]:
    return statement.limit(param("most", Integer))


def candidates_of(
    share: ColumnElement[Any], condition: ColumnElement[bool], scope: ScopeShape, earlier: Sequence[Any]
) -> Any:
    """At most CANDIDATES hadith that meet `condition`, in scope, found by no earlier tier, each with its `share`
    (the tier's score, computed as the hadith is read): what a tier ranks. The first the scan finds, in the table's
    order, which the importer keeps as its key's (ingest/writer.py, SCANNED_IN_KEY_ORDER): the lowest ids."""
    h = t.hadith
    candidates = select(h.c.hadith_id, share.label("share")).where(in_scope(condition, scope, earlier))
    return candidates.limit(CANDIDATES).subquery()


def best_of(found: Any, most: int) -> Any:
    """The `most` candidates of the highest share."""
    return select(found).order_by(found.c.share.desc(), found.c.hadith_id).limit(most).subquery()


def leaves_room(rows: Any) -> ColumnElement[bool]:
    """`rows` (a CTE) holds fewer than `:most`: a condition PostgreSQL checks once, before any row of what it gates
    is read."""
    return select(func.count()).select_from(rows).scalar_subquery() < param("most", Integer)


def room_left(earlier: Sequence[Any]) -> ColumnElement[Any]:
    """What the earlier tiers of the statement (`earlier`: their CTEs) left of `:most`."""
    left: ColumnElement[Any] = param("most", Integer)
    for tier in earlier:
        left = left - select(func.count()).select_from(tier).scalar_subquery()
    return left


def kept_tier(
    name: str, hadith_id: ColumnElement[Any], score: ColumnElement[Any], earlier: Sequence[Any], *where: Any
) -> Any:
    """The hits of tier `name` (a CTE of hadith_id, score): the best first, as many as the earlier tiers left
    room for. PostgreSQL reads it only as its rows are pulled, and reads nothing under a limit of 0: a tier
    that the earlier ones filled costs nothing."""
    kept = select(hadith_id, score.label("score")).where(*where).order_by(score.desc(), hadith_id)
    return kept.limit(room_left(earlier)).cte(name)


def hit_record(row: Row) -> HadithHitRecord:
    return HadithHitRecord(
        hadith_id=row["hadith_id"],
        canonical_reference=row["canonical_reference"],
        collection_code=row["collection_code"],
        text_ar=row["text_ar"],
        text_fr=row["text_fr"],
        score=None if row["score"] is None else round(min(1.0, float(row["score"])), 4),
        source_id=row["source_id"],
        edition_id=row["edition_id"],
        source_key=row["source_key"],
        text_fr_edition_id=row["text_fr_edition_id"],
    )


def text_config(language: str) -> ColumnElement[Any]:
    """The text search configuration of the fulltext tier in `language`."""
    return literal_column(f"'{CONFIGS[language]}'::regconfig")


def once(value: ColumnElement[Any]) -> ColumnElement[Any]:
    """`value`, computed once per statement (an InitPlan). PostgreSQL folds a function of constants when it
    plans, but in the generic plan it keeps for a statement it runs often, a function of parameters
    (`to_tsquery` of a query text) is computed again for every row it is compared with: in a recheck, once for
    each candidate text."""
    return select(value).scalar_subquery()
