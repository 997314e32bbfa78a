"""Search statements: hadith by citation, Arabic and French wording; narrators by any name form.

Each function serves one match tier and returns at most `most` hits, best first; each reads a bounded
number of rows (CANDIDATES, FUZZY_CANDIDATES) before ranking them, whatever the query. The tiers are
combined by the resolvers (resolvers/search_hadith.py, resolvers/search_narrator.py).

Scores, each in [0, 1] and comparable within its tier:
- hadith `reference`: 1.0, every hadith the citation can name;
- hadith `exact`: how much of the hadith the phrase covers (its characters over the normalized matn's,
  or the French text's);
- hadith `fulltext`: that coverage, how close together the words stand (ts_rank_cd) and whether they
  stand in the query's order; the best RERANKED are then averaged with the trigram word similarity
  of query and text;
- hadith `fuzzy`: the share of the query's words the text holds (rare words weigh more; a word one
  letter off counts FUZZY_WORD_CREDIT), averaged with the trigram word similarity; at least
  FUZZY_MIN_SCORE;
- narrator `exact`: 1.0; the other narrator tiers: NAME_MATCH_WEIGHT x how well the name form
  matches (share of it the query covers, trigram similarity, or share of its consonants) + the rest x
  the narrator's prior (how many chain nodes name him, on a log scale), so that the narrator named in
  more chains ranks first when names tie.
"""

import math
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Float,
    Integer,
    Select,
    Text,
    and_,
    bindparam,
    case,
    func,
    literal,
    literal_column,
    not_,
    or_,
    select,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY, distinct_on

from app.data import tables as t
from app.data.batch import any_of
from app.data.narrators import narrator_record
from app.data.records import HadithHitRecord, NarratorHitRecord
from app.database import FUZZY_NAME_THRESHOLD, RequestDatabase, Row

# hadith
CANDIDATES = 1000  # hadith an exact or fulltext statement reads at most before ranking them
RERANKED = 8  # fulltext and fuzzy candidates whose whole text is compared with the query (trigram similarity)
FUZZY_CANDIDATES = 300  # hadith holding the query's rarest words, whose every word is then checked
FUZZY_WORD_SHARE = 0.6  # share of the query's words a fuzzy hit must hold, one letter off at most
FUZZY_WORD_CREDIT = 0.8  # what a word one letter off counts for, against 1 for the word itself
FUZZY_MIN_SCORE = 0.6  # a fuzzy hit scoring less resembles the query too little to be offered
RARE_TERM = 1000  # a misheard word's corrections held by more texts than this find no candidates
# narrators
NAME_MATCH_WEIGHT = 0.6  # of a narrator score (not exact): the match; the rest is the prior
FUZZY_FORMS = 100  # name forms each fuzzy branch reads at most (the most similar first)
SKELETON_CREDIT = 0.9  # what a name form whose consonants are all the query's counts for
MIN_SKELETON = 3  # consonants a query needs before its consonants alone may match a name form
MIN_SKELETON_PREFIX = 4  # consonants it needs before a name form may merely start with them ...
MIN_SKELETON_SHARE = 0.35  # ... and the credit (SKELETON_CREDIT x its share of the form's consonants) needed
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
class NarratorScope:
    script: str
    grade_tier: str | None
    region: str | None
    generation: int | None
    exclude: Sequence[int]
    most: int


@dataclass(frozen=True)
class FuzzyWord:
    """A query word, and the vocabulary terms one letter off it (the word itself first, when known)."""

    word: str
    terms: tuple[str, ...]
    weight: float
    rare: tuple[str, ...]  # the terms that few texts hold (RARE_TERM): those that can find candidates


# hadith -------------------------------------------------------------------------------------------


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


def _in_scope(condition: ColumnElement[bool], scope: HadithScope) -> ColumnElement[bool]:
    h = t.hadith
    conditions = [condition]
    if scope.collection_id is not None:
        conditions.append(h.c.collection_id == scope.collection_id)
    if scope.exclude:
        conditions.append(not_(any_of(h.c.hadith_id, scope.exclude)))
    return and_(*conditions)


def _candidates(condition: ColumnElement[bool], scope: HadithScope) -> Any:
    """At most CANDIDATES hadith that meet `condition`, in scope: what a tier ranks."""
    h = t.hadith
    return select(h.c.hadith_id).where(_in_scope(condition, scope)).limit(CANDIDATES).subquery()


def _ranked(score: ColumnElement[Any], condition: ColumnElement[bool], scope: HadithScope) -> Select[Any]:
    h = t.hadith
    found = _candidates(condition, scope)
    statement = _hadith_hits(score).where(h.c.hadith_id.in_(select(found.c.hadith_id)))
    return statement.order_by(statement.selected_columns.score.desc(), h.c.hadith_id).limit(scope.most)


def _hit(row: Row) -> HadithHitRecord:
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


async def _hadith(db: RequestDatabase, statement: Select[Any]) -> list[HadithHitRecord]:
    return [_hit(row) for row in await db.fetch(statement)]


async def hadith_by_citation(
    db: RequestDatabase, code: str, numbers: Sequence[str], in_book: tuple[str, str] | None, scope: HadithScope
) -> list[HadithHitRecord]:
    """The hadith a citation can name: these canonical numbers, or hadith in_book[1] of book in_book[0]."""
    h, c, b = t.hadith, t.collection, t.book
    collection = select(c.c.collection_id).where(c.c.code == code).scalar_subquery()
    readings = [and_(h.c.collection_id == collection, any_of(h.c.canonical_number, numbers))] if numbers else []
    if in_book is not None:
        book = select(b.c.book_id).where(b.c.collection_id == collection, b.c.number == in_book[0]).limit(1)
        readings.append(and_(h.c.book_id == book.scalar_subquery(), h.c.in_book_reference.endswith(f"/{in_book[1]}")))
    statement = _hadith_hits(literal(1.0)).where(_in_scope(or_(*readings), scope))
    return await _hadith(db, statement.order_by(h.c.hadith_id).limit(scope.most))


def _coverage(query: str, measure: ColumnElement[Any]) -> ColumnElement[float]:
    """How much of the text (the Arabic matn, the French text) the query covers."""
    return literal(float(len(query))) / func.greatest(measure, 1)


def _measure(language: str) -> ColumnElement[Any]:
    """The length of a hadith in a language that coverage divides by: its normalized matn, its French."""
    return t.hadith.c.matn_length if language == "ar" else func.char_length(t.hadith.c.text_fr_normalized)


def _holds_phrase(language: str, phrase: str) -> ColumnElement[bool]:
    """The normalized text holds the normalized phrase, at word boundaries: Arabic through the trigram
    index of the text, French through its words as written, with their positions."""
    text = t.hadith.c.text_ar_normalized
    if language == "fr":
        return WORDS["fr"].bool_op("@@")(func.phraseto_tsquery(literal_column("'simple'::regconfig"), phrase))
    bounded = (literal(" ") + text + literal(" ")).contains(f" {phrase} ", autoescape=True)
    return and_(text.contains(phrase, autoescape=True), bounded)


async def hadith_by_phrase(
    db: RequestDatabase, language: str, phrase: str, scope: HadithScope
) -> list[HadithHitRecord]:
    """Hadith whose normalized text holds the normalized phrase, at word boundaries."""
    score = func.least(1.0, _coverage(phrase, _measure(language)))
    return await _hadith(db, _ranked(score, _holds_phrase(language, phrase), scope))


def _config(language: str) -> ColumnElement[Any]:
    return literal_column(f"'{CONFIGS[language]}'::regconfig")


def _words_query(query: str) -> ColumnElement[Any]:
    """A tsquery over the words as written (WORDS)."""
    return func.to_tsquery(literal_column("'simple'::regconfig"), query)


def _any_of(terms: Sequence[str]) -> str:
    """A tsquery text: any of the terms (words of letters and digits, never operators)."""
    return "(" + " | ".join(f"'{term}'" for term in terms) + ")"


async def hadith_by_terms(
    db: RequestDatabase, language: str, words: Sequence[str], phrase: str, scope: HadithScope
) -> list[HadithHitRecord]:
    """Hadith whose text holds every word: Arabic stems (prefixes tolerated), French stems (accents
    folded, stop words left out). The score weighs how much of the text the words cover, how close
    together they stand, and whether they stand as in the query (`phrase`, the words in the query's order)."""
    terms, query = TERMS[language], func.plainto_tsquery(_config(language), " ".join(words))
    proximity = func.least(1.0, func.ts_rank_cd(terms, query, 4 | 32) * 2)
    coverage = func.least(1.0, _coverage(" ".join(words), _measure(language)))
    in_order = case((terms.bool_op("@@")(func.phraseto_tsquery(_config(language), phrase)), 1.0), else_=0.0)
    score = (coverage * 0.4 + proximity * 0.3 + in_order * 0.3).label("share")
    found = _candidates(terms.bool_op("@@")(query), scope)
    best = (
        select(t.hadith.c.hadith_id, score)
        .where(t.hadith.c.hadith_id.in_(select(found.c.hadith_id)))
        .order_by(score.desc(), t.hadith.c.hadith_id)
        .limit(RERANKED)
        .subquery()
    )
    return await _hadith(db, _resembling(phrase, language, best, scope))


def edits(word: str, alphabet: str) -> set[str]:
    """The strings one deletion, transposition, substitution or insertion away from `word`."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deleted = {a + b[1:] for a, b in splits if b}
    swapped = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaced = {a + ch + b[1:] for a, b in splits if b for ch in alphabet}
    inserted = {a + ch + b for a, b in splits for ch in alphabet}
    return deleted | swapped | replaced | inserted


async def fuzzy_words(db: RequestDatabase, language: str, words: Sequence[str], shortest: int) -> list[FuzzyWord]:
    """Each query word with the vocabulary terms one letter off it (words under `shortest` letters: only
    themselves), weighted by rarity (inverse document frequency). A word the text search does not index
    (a French stop word) is left out."""
    s = t.search_term
    wanted = {word: {word} | (edits(word, ALPHABETS[language]) if len(word) >= shortest else set()) for word in words}
    indexed = func.length(func.to_tsvector(_config(language), s.c.term)) > 0 if language == "fr" else literal(True)
    statement = select(s.c.term, s.c.doc_count, indexed.label("indexed")).where(
        s.c.language == language, any_of(s.c.term, sorted(set().union(*wanted.values())))
    )
    rows = await db.fetch(statement)
    counts = {row["term"]: row["doc_count"] for row in rows if row["indexed"]}
    stop = {row["term"] for row in rows if not row["indexed"]}
    total = max(counts.values(), default=1) + 1
    found = []
    for word, candidates in wanted.items():
        terms = sorted(candidates & counts.keys(), key=lambda term: (term != word, -counts[term]))
        # A word weighs by its own frequency; misheard, by its likeliest correction's; unknown, as the rarest.
        frequency = counts[terms[0]] if terms else 1
        if word not in stop:
            rare = tuple(term for term in terms if counts[term] <= RARE_TERM)
            found.append(FuzzyWord(word, tuple(terms), math.log(1 + total / frequency), rare))
    return found


def _holds(terms: ColumnElement[Any], words: Sequence[str]) -> ColumnElement[bool]:
    return terms.bool_op("@@")(_words_query(_any_of(words)))


def _credits(words: Sequence[FuzzyWord]) -> Any:
    """One row per term the query accepts: the query word it stands for, what it counts for, and that
    word's weight (a term one letter off two query words stands for both)."""
    rows = [
        (term, index, 1.0 if term == word.word else FUZZY_WORD_CREDIT, word.weight)
        for index, word in enumerate(words)
        for term in word.terms
    ]
    terms, indexes, credits, weights = zip(*rows, strict=True)
    return select(
        func.unnest(bindparam(None, list(terms), type_=ARRAY(Text))).label("term"),
        func.unnest(bindparam(None, list(indexes), type_=ARRAY(Integer))).label("word"),
        func.unnest(bindparam(None, list(credits), type_=ARRAY(Float))).label("credit"),
        func.unnest(bindparam(None, list(weights), type_=ARRAY(Float))).label("weight"),
    ).subquery()


def _fuzzy_candidates(language: str, known: Sequence[FuzzyWord], needed: int, scope: HadithScope) -> Any:
    """A hit holds `needed` words, so at least one of the len(known) - needed + 1 rarest: the hadith that hold
    each of them (as said; a word no text holds, one letter off), the rarest first, FUZZY_CANDIDATES at most."""
    rarest = sorted(known, key=lambda word: -word.weight)[: len(known) - needed + 1]
    groups = [group for group in (w.terms[:1] if w.terms[0] == w.word else w.rare for w in rarest) if group]
    if not groups:
        return None
    holding = [select(t.hadith.c.hadith_id).where(_in_scope(_holds(WORDS[language], group), scope)) for group in groups]
    return union_all(*holding).limit(FUZZY_CANDIDATES).subquery()


def _holding_most(language: str, found: Any, known: Sequence[FuzzyWord], weight: float, needed: int) -> Any:
    """The candidates that hold `needed` words at least, with their share of the query's weight: each
    candidate's words, read once, meet the accepted terms; each query word counts once, at its best."""
    held = (
        select(t.hadith.c.hadith_id, func.unnest(func.tsvector_to_array(WORDS[language])).label("term"))
        .where(t.hadith.c.hadith_id.in_(select(found.c.hadith_id)))
        .subquery()
    )
    accepted = _credits(known)
    per_word = (
        select(held.c.hadith_id, func.max(accepted.c.credit * accepted.c.weight).label("credit"))
        .join(accepted, accepted.c.term == held.c.term)
        .group_by(held.c.hadith_id, accepted.c.word)
        .subquery()
    )
    share = (func.sum(per_word.c.credit) / weight).label("share")
    return select(per_word.c.hadith_id, share).group_by(per_word.c.hadith_id).having(func.count() >= needed).subquery()


async def hadith_by_fuzzy_words(
    db: RequestDatabase, language: str, phrase: str, words: Sequence[FuzzyWord], scope: HadithScope
) -> list[HadithHitRecord]:
    """Hadith that hold most of the words, each as said or one letter off: the highest shares first (among
    equal shares, where the words stand together), then ranked with the trigram word similarity."""
    known = [word for word in words if word.terms]
    needed = math.ceil(FUZZY_WORD_SHARE * len(words))
    found = _fuzzy_candidates(language, known, needed, scope) if known and len(known) >= needed else None
    if found is None:
        return []
    holding_most = _holding_most(language, found, known, sum(word.weight for word in words), needed)
    together = func.ts_rank_cd(WORDS[language], _words_query(" & ".join(_any_of(word.terms) for word in known)), 4)
    best = (
        select(holding_most.c.hadith_id, holding_most.c.share)
        .join(t.hadith, t.hadith.c.hadith_id == holding_most.c.hadith_id)
        .order_by(holding_most.c.share.desc(), together.desc(), holding_most.c.hadith_id)
        .limit(RERANKED)
        .subquery()
    )
    return await _hadith(db, _resembling(phrase, language, best, scope, FUZZY_MIN_SCORE))


def _resembling(phrase: str, language: str, best: Any, scope: HadithScope, minimum: float = 0.0) -> Select[Any]:
    """The best candidates (`best`: hadith_id, share), ranked by their share averaged with the trigram word
    similarity of the phrase and the text (words as the tier compares them), at least `minimum`."""
    h = t.hadith
    text = h.c.text_ar_stems if language == "ar" else h.c.text_fr_normalized
    score = (best.c.share + func.word_similarity(phrase, func.coalesce(text, ""))) / 2
    statement = _hadith_hits(score).join(best, best.c.hadith_id == h.c.hadith_id).where(score >= minimum)
    return statement.order_by(statement.selected_columns.score.desc(), h.c.hadith_id).limit(scope.most)


# narrators ----------------------------------------------------------------------------------------


def _name_score(match: ColumnElement[Any]) -> ColumnElement[Any]:
    f = t.narrator_search_form
    return match * NAME_MATCH_WEIGHT + f.c.prior * (1 - NAME_MATCH_WEIGHT)


def _forms(condition: ColumnElement[bool], score: ColumnElement[Any], scope: NarratorScope) -> Select[Any]:
    """The name forms that meet `condition`, with their score, of narrators the filters keep."""
    f, n = t.narrator_search_form, t.narrator
    statement = select(f.c.narrator_id, f.c.form, f.c.source_id, f.c.source_key, f.c.prior, score.label("score"))
    given = ((n.c.grade_tier, scope.grade_tier), (n.c.region_key, scope.region), (n.c.generation, scope.generation))
    filters = [column == value for column, value in given if value is not None]
    if filters:
        statement = statement.where(f.c.narrator_id.in_(select(n.c.narrator_id).where(*filters)))
    if scope.exclude:
        statement = statement.where(not_(any_of(f.c.narrator_id, scope.exclude)))
    return statement.where(condition)


def _narrator_matches(forms: Any, scope: NarratorScope) -> Select[Any]:
    """The best-scoring form of each narrator among `forms`, best narrators first, with the narrator."""
    n = t.narrator
    best = (
        select(forms).order_by(forms.c.narrator_id, forms.c.score.desc()).ext(distinct_on(forms.c.narrator_id))
    ).subquery()
    order = (best.c.score.desc(), best.c.prior.desc(), best.c.narrator_id)
    top = select(best).order_by(*order).limit(scope.most).subquery()
    return (
        select(n, top.c.form.label("matched_form"), top.c.source_id.label("form_source_id"))
        .add_columns(top.c.source_key.label("form_source_key"), top.c.score)
        .join(top, top.c.narrator_id == n.c.narrator_id)
        .order_by(top.c.score.desc(), top.c.prior.desc(), top.c.narrator_id)
    )


def _share(query: str) -> ColumnElement[float]:
    """How much of the name form the query covers."""
    key = t.narrator_search_form.c.search_key
    return literal(float(len(query))) / func.greatest(func.char_length(key), 1)


def _exact(query: str) -> tuple[ColumnElement[bool], ColumnElement[Any]]:
    return t.narrator_search_form.c.search_key == query, literal(1.0)


def _prefix(query: str) -> tuple[ColumnElement[bool], ColumnElement[Any]]:
    """The name form starts with the query's words (whole words: «بن عمر» is no prefix of «بن عمرو»)."""
    return t.narrator_search_form.c.search_key.startswith(f"{query} ", autoescape=True), _name_score(_share(query))


def _substring(query: str) -> tuple[ColumnElement[bool], ColumnElement[Any]]:
    return t.narrator_search_form.c.search_key.contains(query, autoescape=True), _name_score(_share(query))


def _fulltext(query: str) -> tuple[ColumnElement[bool], ColumnElement[Any]]:
    """Every word of the query is a word of the name form, in any order."""
    key = t.narrator_search_form.c.search_key
    spaced = literal(" ") + key + literal(" ")
    words = [and_(key.contains(w, autoescape=True), spaced.contains(f" {w} ", autoescape=True)) for w in query.split()]
    return and_(*words), _name_score(_share(query))


KEY_TIERS = {"exact": _exact, "prefix": _prefix, "substring": _substring, "fulltext": _fulltext}


def _similar(query: str, scope: NarratorScope) -> Select[Any]:
    """The FUZZY_FORMS name forms of the query's script most similar to it (trigrams)."""
    key = t.narrator_search_form.c.search_key
    similarity = func.similarity(key, query)
    # `query <% key` (the index's word-similarity test, at the session's pg_trgm.word_similarity_threshold)
    # keeps the forms that hold most of the query's trigrams: far fewer rows to compare than `key % query`.
    condition = and_(
        t.narrator_search_form.c.script == scope.script,
        literal(query).bool_op("<%")(key),
        similarity >= FUZZY_NAME_THRESHOLD,
    )
    return _forms(condition, _name_score(similarity), scope).order_by(similarity.desc()).limit(FUZZY_FORMS)


def _consonants(skeleton: str, scope: NarratorScope) -> Select[Any]:
    """The FUZZY_FORMS name forms, of either script, whose consonants are the query's or start with them,
    those with the fewest other consonants first."""
    form = t.narrator_search_form.c.skeleton
    share = literal(SKELETON_CREDIT * len(skeleton)) / func.greatest(func.char_length(form), 1)
    starts = and_(form.startswith(skeleton, autoescape=True), share >= MIN_SKELETON_SHARE)
    condition = or_(form == skeleton, starts) if len(skeleton) >= MIN_SKELETON_PREFIX else form == skeleton
    return _forms(condition, _name_score(share), scope).order_by(func.char_length(form)).limit(FUZZY_FORMS)


def _fuzzy(query: str, skeleton: str, scope: NarratorScope) -> Any:
    branches = [_similar(query, scope), *([_consonants(skeleton, scope)] if len(skeleton) >= MIN_SKELETON else [])]
    return union_all(*branches).subquery()


async def narrators_by_name(
    db: RequestDatabase, tier: str, query: str, skeleton: str, scope: NarratorScope
) -> list[NarratorHitRecord]:
    """Narrators one of whose name forms matches the query's key in the given tier."""
    if tier == "fuzzy":
        forms = _fuzzy(query, skeleton, scope)
    else:
        condition, score = KEY_TIERS[tier](query)
        forms = _forms(and_(t.narrator_search_form.c.script == scope.script, condition), score, scope).subquery()
    rows = await db.fetch(_narrator_matches(forms, scope))
    return [
        NarratorHitRecord(
            narrator_record(row),
            row["matched_form"],
            row["form_source_id"],
            row["form_source_key"],
            round(min(1.0, float(row["score"])), 4),
        )
        for row in rows
    ]
