"""Search statements: hadith by citation, Arabic and French wording; narrators by any name form.

A citation is one statement. The wording tiers (HADITH_TIERS) run together: one statement holds the
tiers it is given, best first, each finding hadith that the earlier ones did not, in what they left of
`most`; a tier that the earlier ones filled is never read (PostgreSQL reads a CTE only as its rows are
pulled, and nothing under a limit of 0). Each tier reads a bounded number of rows (CANDIDATES,
FUZZY_CANDIDATES) before ranking them, whatever the query. The fuzzy tier needs the vocabulary first
(the query words' corrections): the statement of the exact and fulltext tiers can read it too, only when
they leave room (Arabic: then the fuzzy tier is a second statement), or it is read first (French, whose
fulltext tier needs to know which words are stop words: then every tier is the second statement). The
narrator tiers run as one statement: the four tiers of the name key together, then the fuzzy tier only
when they leave room. The resolvers choose the statements (resolvers/search_hadith.py,
resolvers/search_narrator.py).

Every statement is built once per shape (the language, which filters and tiers it holds), with named
parameters, and runs through `Bound`: compiled once, then prepared once per connection, whatever the
query.

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

import functools
import math
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    CompoundSelect,
    Float,
    Integer,
    Select,
    String,
    Text,
    and_,
    any_,
    bindparam,
    case,
    func,
    literal,
    literal_column,
    not_,
    null,
    or_,
    select,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY, distinct_on

from app.data import tables as t
from app.data.narrators import narrator_record
from app.data.records import HadithHitRecord, NarratorHitRecord
from app.database import FUZZY_NAME_THRESHOLD, Bound, RequestDatabase, Row

# hadith
CANDIDATES = 1000  # hadith an exact or fulltext statement reads at most before ranking them
RERANKED = 8  # fulltext and fuzzy candidates whose whole text is compared with the query (trigram similarity)
FUZZY_CANDIDATES = 300  # hadith holding the query's rarest words, whose every word is then checked
FUZZY_WORD_SHARE = 0.6  # share of the query's words a fuzzy hit must hold, one letter off at most
FUZZY_WORD_CREDIT = 0.8  # what a word one letter off counts for, against 1 for the word itself
FUZZY_MIN_SCORE = 0.6  # a fuzzy hit scoring less resembles the query too little to be offered
RARE_TERM = 1000  # a misheard word's corrections held by more texts than this find no candidates
HADITH_TIERS = ("exact", "fulltext", "fuzzy")  # the wording tiers, best first
# narrators
NAME_MATCH_WEIGHT = 0.6  # of a narrator score (not exact): the match; the rest is the prior
FUZZY_FORMS = 100  # name forms each fuzzy branch reads at most (the most similar first)
SKELETON_CREDIT = 0.9  # what a name form whose consonants are all the query's counts for
MIN_SKELETON = 3  # consonants a query needs before its consonants alone may match a name form
MIN_SKELETON_PREFIX = 4  # consonants it needs before a name form may merely start with them ...
MIN_SKELETON_SHARE = 0.35  # ... and the credit (SKELETON_CREDIT x its share of the form's consonants) needed
NAME_TIERS = ("exact", "prefix", "substring", "fulltext", "fuzzy")  # best first
FUZZY = literal(NAME_TIERS.index("fuzzy"))
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
class NarratorScope:
    script: str
    grade_tier: str | None
    region: str | None
    generation: int | None
    most: int


@dataclass(frozen=True)
class FuzzyWord:
    """A query word, and the vocabulary terms one letter off it (the word itself first, when known)."""

    word: str
    terms: tuple[str, ...]
    weight: float
    rare: tuple[str, ...]  # the terms that few texts hold (RARE_TERM): those that can find candidates
    counts: tuple[int, ...] = ()  # how many texts hold each term
    readings: frozenset[str] = frozenset()  # terms that count as the word itself (a transliteration's readings)


def _param(name: str, kind: Any) -> BindParameter[Any]:
    """`:name`, a parameter of a statement built once."""
    return bindparam(name, type_=kind)


def _array(name: str, item: Any) -> BindParameter[Any]:
    return bindparam(name, type_=ARRAY(item))


def _escaped(text: str) -> str:
    """`text` inside a LIKE pattern (ESCAPE '/'), escaped as SQLAlchemy's autoescape escapes it."""
    return text.replace("/", "//").replace("%", "/%").replace("_", "/_")


def _like(value: ColumnElement[Any], name: str) -> ColumnElement[bool]:
    """`value` matches the LIKE pattern `:name` (its text escaped with `_escaped`)."""
    return value.like(_param(name, String), escape="/")


# hadith -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _ScopeShape:
    """The shape of a hadith scope: whether it names a collection, whether it leaves hadith out."""

    collection: bool
    exclude: bool

    @classmethod
    def of(cls, scope: HadithScope) -> "_ScopeShape":
        return cls(scope.collection_id is not None, bool(scope.exclude))


def _scope_params(scope: HadithScope) -> dict[str, Any]:
    return {"collection_id": scope.collection_id, "exclude": list(scope.exclude), "most": scope.most}


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


def _in_scope(condition: ColumnElement[bool], scope: _ScopeShape, earlier: Sequence[Any] = ()) -> ColumnElement[bool]:
    """`condition`, for hadith in scope that no earlier tier of the statement found (`earlier`: their CTEs)."""
    h = t.hadith
    conditions = [condition]
    if scope.collection:
        conditions.append(h.c.collection_id == _param("collection_id", Integer))
    if scope.exclude:
        conditions.append(not_(h.c.hadith_id == any_(_array("exclude", Integer))))
    conditions += [h.c.hadith_id.not_in(select(tier.c.hadith_id)) for tier in earlier]
    return and_(*conditions)


def _most(statement: Select[Any]) -> Select[Any]:
    return statement.limit(_param("most", Integer))


def _candidates(
    share: ColumnElement[Any], condition: ColumnElement[bool], scope: _ScopeShape, earlier: Sequence[Any]
) -> Any:
    """At most CANDIDATES hadith that meet `condition`, in scope, found by no earlier tier, each with its `share`
    (the tier's score, computed as the hadith is read): what a tier ranks."""
    h = t.hadith
    candidates = select(h.c.hadith_id, share.label("share")).where(_in_scope(condition, scope, earlier))
    return candidates.limit(CANDIDATES).subquery()


def _best(found: Any, most: int) -> Any:
    """The `most` candidates of the highest share."""
    return select(found).order_by(found.c.share.desc(), found.c.hadith_id).limit(most).subquery()


def _left(earlier: Sequence[Any]) -> ColumnElement[Any]:
    """What the earlier tiers of the statement (`earlier`: their CTEs) left of `:most`."""
    left: ColumnElement[Any] = _param("most", Integer)
    for tier in earlier:
        left = left - select(func.count()).select_from(tier).scalar_subquery()
    return left


def _kept(
    name: str, hadith_id: ColumnElement[Any], score: ColumnElement[Any], earlier: Sequence[Any], *where: Any
) -> Any:
    """The hits of tier `name` (a CTE of hadith_id, score): the best first, as many as the earlier tiers left
    room for. PostgreSQL reads it only as its rows are pulled, and reads nothing under a limit of 0: a tier
    that the earlier ones filled costs nothing."""
    kept = select(hadith_id, score.label("score")).where(*where).order_by(score.desc(), hadith_id)
    return kept.limit(_left(earlier)).cte(name)


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


@functools.cache
def _citation_statement(numbers: bool, in_book: bool, scope: _ScopeShape) -> Select[Any]:
    """The hadith of `:code` numbered `:numbers`, or hadith `:in_book_hadith` of its book `:book`."""
    h, c, b = t.hadith, t.collection, t.book
    collection = select(c.c.collection_id).where(c.c.code == _param("code", String)).scalar_subquery()
    numbered = h.c.canonical_number == any_(_array("numbers", Text))
    readings = [and_(h.c.collection_id == collection, numbered)] if numbers else []
    if in_book:
        book = select(b.c.book_id).where(b.c.collection_id == collection, b.c.number == _param("book", String))
        suffix = h.c.in_book_reference.endswith(_param("in_book_hadith", String))
        readings.append(and_(h.c.book_id == book.limit(1).scalar_subquery(), suffix))
    statement = _hadith_hits(literal(1.0)).where(_in_scope(or_(*readings), scope))
    return _most(statement.order_by(h.c.hadith_id))


async def hadith_by_citation(
    db: RequestDatabase, code: str, numbers: Sequence[str], in_book: tuple[str, str] | None, scope: HadithScope
) -> list[HadithHitRecord]:
    """The hadith a citation can name: these canonical numbers, or hadith in_book[1] of book in_book[0]."""
    statement = _citation_statement(bool(numbers), in_book is not None, _ScopeShape.of(scope))
    params = {**_scope_params(scope), "code": code, "numbers": list(numbers)}
    if in_book is not None:
        params |= {"book": in_book[0], "in_book_hadith": f"/{in_book[1]}"}
    return [_hit(row) for row in await db.fetch(Bound(statement, params))]


def _coverage(measure: ColumnElement[Any], length: str) -> ColumnElement[Any]:
    """How much of the text (the Arabic matn, the French text) the query (`:<length>` characters) covers."""
    return _param(length, Float) / func.greatest(measure, 1)


def _measure(language: str) -> ColumnElement[Any]:
    """The length of a hadith in a language that coverage divides by: its normalized matn, its French."""
    return t.hadith.c.matn_length if language == "ar" else func.char_length(t.hadith.c.text_fr_normalized)


def _holds_phrase(language: str) -> ColumnElement[bool]:
    """The normalized text holds the normalized phrase, at word boundaries: Arabic through the trigram
    index of the text (`:contained`, `:bounded`: the phrase within LIKE patterns), French through its
    words as written, with their positions (`:phrase`)."""
    text = t.hadith.c.text_ar_normalized
    if language == "fr":
        phrase = func.phraseto_tsquery(literal_column("'simple'::regconfig"), _param("phrase", String))
        return WORDS["fr"].bool_op("@@")(phrase)
    return and_(_like(text, "contained"), _like(literal(" ") + text + literal(" "), "bounded"))


def _exact(language: str, scope: _ScopeShape, earlier: Sequence[Any]) -> Any:
    """Hadith whose normalized text holds the normalized phrase, at word boundaries, scored by how much of
    the text it covers (`:phrase_length`)."""
    share = func.least(1.0, _coverage(_measure(language), "phrase_length"))
    found = _candidates(share, _holds_phrase(language), scope, earlier)
    return _kept("exact", found.c.hadith_id, found.c.share, earlier)


def _config(language: str) -> ColumnElement[Any]:
    return literal_column(f"'{CONFIGS[language]}'::regconfig")


def _words_query(name: str) -> ColumnElement[Any]:
    """A tsquery over the words as written (WORDS), from the text of `:name`."""
    return func.to_tsquery(literal_column("'simple'::regconfig"), _param(name, String))


def _any_of(terms: Sequence[str]) -> str:
    """A tsquery text: any of the terms (words of letters and digits, never operators)."""
    return "(" + " | ".join(f"'{term}'" for term in terms) + ")"


def _fulltext(language: str, scope: _ScopeShape, earlier: Sequence[Any]) -> Any:
    """Hadith whose text holds every word of `:words`: Arabic stems (prefixes tolerated), French stems (accents
    folded, stop words left out). The share weighs how much of the text the words (`:words_length`
    characters) cover, how close together they stand, and whether they stand as in the query (`:in_order`);
    the best RERANKED are then ranked with the trigram similarity."""
    terms, query = TERMS[language], func.plainto_tsquery(_config(language), _param("words", String))
    proximity = func.least(1.0, func.ts_rank_cd(terms, query, 4 | 32) * 2)
    coverage = func.least(1.0, _coverage(_measure(language), "words_length"))
    in_order = terms.bool_op("@@")(func.phraseto_tsquery(_config(language), _param("in_order", String)))
    share = coverage * 0.4 + proximity * 0.3 + case((in_order, 1.0), else_=0.0) * 0.3
    best = _best(_candidates(share, terms.bool_op("@@")(query), scope, earlier), RERANKED)
    return _resembling(language, "fulltext", best, 0.0, earlier)


def edits(word: str, alphabet: str) -> set[str]:
    """The strings one deletion, transposition, substitution or insertion away from `word`."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deleted = {a + b[1:] for a, b in splits if b}
    swapped = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaced = {a + ch + b[1:] for a, b in splits if b for ch in alphabet}
    inserted = {a + ch + b for a, b in splits for ch in alphabet}
    return deleted | swapped | replaced | inserted


@functools.cache
def _vocabulary_statement(language: str) -> Select[Any]:
    """The terms of `:terms` that the vocabulary of `:language` holds, with their document counts, and
    whether the text search indexes them (French stop words it does not)."""
    s = t.search_term
    indexed = func.length(func.to_tsvector(_config(language), s.c.term)) > 0 if language == "fr" else literal(True)
    return select(s.c.term, s.c.doc_count, indexed.label("indexed")).where(
        s.c.language == _param("language", String), s.c.term == any_(_array("terms", Text))
    )


def _wanted(language: str, words: Sequence[str], shortest: int) -> dict[str, set[str]]:
    """Each word, with the strings one letter off it (words under `shortest` letters: only themselves)."""
    return {word: {word} | (edits(word, ALPHABETS[language]) if len(word) >= shortest else set()) for word in words}


def _vocabulary_params(language: str, wanted: dict[str, set[str]]) -> dict[str, Any]:
    return {"language": language, "terms": sorted(set().union(*wanted.values()))}


def _fuzzy_words(wanted: dict[str, set[str]], vocabulary: Sequence[Row]) -> list[FuzzyWord]:
    """Each wanted word with its strings that the vocabulary holds (rows of `_vocabulary_statement`), weighted by
    rarity (inverse document frequency). A word the text search does not index (a French stop word) is left out."""
    counts = {row["term"]: row["doc_count"] for row in vocabulary if row["indexed"]}
    stop = {row["term"] for row in vocabulary if not row["indexed"]}
    total = max(counts.values(), default=1) + 1
    found = []
    for word, candidates in wanted.items():
        terms = sorted(candidates & counts.keys(), key=lambda term: (term != word, -counts[term]))
        # A word weighs by its own frequency; misheard, by its likeliest correction's; unknown, as the rarest.
        frequency = counts[terms[0]] if terms else 1
        if word not in stop:
            rare = tuple(term for term in terms if counts[term] <= RARE_TERM)
            weight = math.log(1 + total / frequency)
            found.append(FuzzyWord(word, tuple(terms), weight, rare, tuple(counts[term] for term in terms)))
    return found


async def fuzzy_words(db: RequestDatabase, language: str, words: Sequence[str], shortest: int) -> list[FuzzyWord]:
    """Each query word with the vocabulary terms one letter off it (words under `shortest` letters: only
    themselves), weighted by rarity (inverse document frequency). A word the text search does not index
    (a French stop word) is left out."""
    return await known_words(db, language, _wanted(language, words, shortest))


async def known_words(db: RequestDatabase, language: str, wanted: dict[str, set[str]]) -> list[FuzzyWord]:
    """Each wanted word with those of its candidate terms that the vocabulary holds, most frequent first (the
    word itself first when known), weighted by rarity; a French stop word is left out."""
    rows = await db.fetch(Bound(_vocabulary_statement(language), _vocabulary_params(language, wanted)))
    return _fuzzy_words(wanted, rows)


def _credits() -> Any:
    """One row per term the query accepts (`:credit_terms`): the query word it stands for, what it counts
    for, and that word's weight (a term one letter off two query words stands for both)."""
    return select(
        func.unnest(_array("credit_terms", Text)).label("term"),
        func.unnest(_array("credit_words", Integer)).label("word"),
        func.unnest(_array("credit_values", Float)).label("credit"),
        func.unnest(_array("credit_weights", Float)).label("weight"),
    ).subquery()


def _credit_params(words: Sequence[FuzzyWord]) -> dict[str, list[Any]]:
    rows = [
        (term, index, 1.0 if term == word.word or term in word.readings else FUZZY_WORD_CREDIT, word.weight)
        for index, word in enumerate(words)
        for term in word.terms
    ]
    terms, indexes, credits, weights = zip(*rows, strict=True)
    return {
        "credit_terms": list(terms),
        "credit_words": list(indexes),
        "credit_values": list(credits),
        "credit_weights": list(weights),
    }


def _candidate_groups(known: Sequence[FuzzyWord], needed: int) -> list[str]:
    """A hit holds `needed` words, so at least one of the len(known) - needed + 1 rarest: the tsquery texts
    that find the hadith holding each of them (as said; a word no text holds, one letter off), rarest first."""
    rarest = sorted(known, key=lambda word: -word.weight)[: len(known) - needed + 1]
    groups = [group for group in (w.terms[:1] if w.terms[0] == w.word else w.rare for w in rarest) if group]
    return [_any_of(group) for group in groups]


def _fuzzy_params(words: Sequence[FuzzyWord]) -> tuple[int, dict[str, Any]]:
    """How many groups of candidates the fuzzy tier reads for these words (0: none, it can find no hit), and
    its parameters."""
    known = [word for word in words if word.terms]
    needed = math.ceil(FUZZY_WORD_SHARE * len(words))
    groups = _candidate_groups(known, needed) if known and len(known) >= needed else []
    if not groups:
        return 0, {}
    return len(groups), {
        **{f"group_{i}": group for i, group in enumerate(groups)},
        **_credit_params(known),
        "weight": sum(word.weight for word in words),
        "needed": needed,
        "together": " & ".join(_any_of(word.terms) for word in known),
    }


def _fuzzy_candidates(language: str, groups: int, scope: _ScopeShape, earlier: Sequence[Any]) -> Any:
    """The hadith that hold each group (`:group_0` ...), in turn, FUZZY_CANDIDATES at most."""
    holding = [
        select(t.hadith.c.hadith_id).where(
            _in_scope(WORDS[language].bool_op("@@")(_words_query(f"group_{i}")), scope, earlier)
        )
        for i in range(groups)
    ]
    return union_all(*holding).limit(FUZZY_CANDIDATES).subquery()


def _holding_most(language: str, found: Any) -> Select[Any]:
    """The candidates that hold `:needed` words at least, with their share of the query's weight (`:weight`):
    each candidate's words, read once, meet the accepted terms; each query word counts once, at its best."""
    held = (
        select(t.hadith.c.hadith_id, func.unnest(func.tsvector_to_array(WORDS[language])).label("term"))
        .where(t.hadith.c.hadith_id.in_(select(found.c.hadith_id)))
        .subquery()
    )
    accepted = _credits()
    per_word = (
        select(held.c.hadith_id, func.max(accepted.c.credit * accepted.c.weight).label("credit"))
        .join(accepted, accepted.c.term == held.c.term)
        .group_by(held.c.hadith_id, accepted.c.word)
        .subquery()
    )
    share = (func.sum(per_word.c.credit) / _param("weight", Float)).label("share")
    holding = select(per_word.c.hadith_id, share).group_by(per_word.c.hadith_id)
    return holding.having(func.count() >= _param("needed", Integer))


def _least_kept(holding: Any) -> ColumnElement[Any]:
    """The least share among the RERANKED highest: no candidate of a lower share can be kept."""
    top = select(holding.c.share).order_by(holding.c.share.desc()).limit(RERANKED).subquery()
    return select(func.min(top.c.share)).scalar_subquery()


def _fuzzy(language: str, groups: int, scope: _ScopeShape, earlier: Sequence[Any]) -> Any:
    """Hadith that hold most of the query's words, each as said or one letter off (`groups` groups of
    candidates, see `_fuzzy_params`): the highest shares first, among equal shares those where the words of
    `:together` stand closest (compared only among the shares that can be kept); then ranked with the
    trigram similarity, at least FUZZY_MIN_SCORE."""
    holding = _holding_most(language, _fuzzy_candidates(language, groups, scope, earlier)).cte("holding_most")
    together = func.ts_rank_cd(WORDS[language], _words_query("together"), 4)
    best = (
        select(holding.c.hadith_id, holding.c.share)
        .join(t.hadith, t.hadith.c.hadith_id == holding.c.hadith_id)
        .where(holding.c.share >= _least_kept(holding))
        .order_by(holding.c.share.desc(), together.desc(), holding.c.hadith_id)
        .limit(RERANKED)
        .subquery()
    )
    return _resembling(language, "fuzzy", best, FUZZY_MIN_SCORE, earlier)


def _resembling(language: str, name: str, best: Any, minimum: float, earlier: Sequence[Any]) -> Any:
    """The hits of tier `name` from its best candidates (`best`: hadith_id, share): their share averaged with
    the trigram word similarity of `:in_order` and the text (words as the tier compares them), at least
    `minimum`. The similarity, costly on a long text, is computed once per candidate (a materialized CTE),
    not once per use."""
    h = t.hadith
    text = h.c.text_ar_stems if language == "ar" else h.c.text_fr_normalized
    similarity = func.word_similarity(_param("in_order", String), func.coalesce(text, ""))
    scored = select(best.c.hadith_id, ((best.c.share + similarity) / 2).label("score"))
    scored = scored.join(h, h.c.hadith_id == best.c.hadith_id)
    resembling = scored.cte(f"{name}_resembling").prefix_with("MATERIALIZED")
    return _kept(name, resembling.c.hadith_id, resembling.c.score, earlier, resembling.c.score >= literal(minimum))


def _tier(name: str, language: str, groups: int, scope: _ScopeShape, earlier: Sequence[Any]) -> Any:
    """The CTE of tier `name`, after the `earlier` tiers of the statement."""
    if name == "exact":
        return _exact(language, scope, earlier)
    if name == "fulltext":
        return _fulltext(language, scope, earlier)
    return _fuzzy(language, groups, scope, earlier)


def _hits(language: str, tiers: tuple[str, ...], groups: int, scope: _ScopeShape) -> Any:
    """The hits of `tiers`, in order (a CTE of tier, hadith_id, score): each tier finds what the earlier ones
    did not, in what they left of `:most`."""
    found: list[Any] = []
    for name in tiers:
        found.append(_tier(name, language, groups, scope, tuple(found)))
    branches = [
        select(literal(HADITH_TIERS.index(name)).label("tier"), hits.c.hadith_id, hits.c.score)
        for name, hits in zip(tiers, found, strict=True)
    ]
    return union_all(*branches).cte("hits")


def _with_vocabulary(language: str, hits: Any, statement: Select[Any]) -> CompoundSelect[Any]:
    """The rows of `statement`, then those of the vocabulary statement (`_vocabulary_statement`), read only
    when the hits leave room under `:most`; each kind of row has the other's columns, empty."""
    vocabulary = _vocabulary_statement(language).subquery()
    room = select(func.count()).select_from(hits).scalar_subquery() < _param("most", Integer)
    hit_rows = statement.add_columns(*(null().label(column.key) for column in vocabulary.c))
    empty = (null().label(column.key) for column in statement.selected_columns)
    return union_all(hit_rows, select(*empty, *vocabulary.c).where(room))


@functools.cache
def _wording_statement(
    language: str, tiers: tuple[str, ...], groups: int, vocabulary: bool, scope: _ScopeShape
) -> Select[Any] | CompoundSelect[Any]:
    """The hits of `tiers` (HADITH_TIERS, best first; `groups`: the fuzzy tier's), in one statement, in order
    of tier then score; with `vocabulary`, then the vocabulary rows of `:terms`."""
    h = t.hadith
    hits = _hits(language, tiers, groups, scope)
    statement = _hadith_hits(hits.c.score).add_columns(hits.c.tier).join(hits, hits.c.hadith_id == h.c.hadith_id)
    rows = _with_vocabulary(language, hits, statement) if vocabulary else statement
    columns = rows.selected_columns
    return rows.order_by(columns.tier, columns.score.desc(), columns.hadith_id)


def _wording_params(wording: Wording) -> dict[str, Any]:
    words = " ".join(wording.words)
    return {
        "phrase": wording.phrase,
        "phrase_length": float(len(wording.phrase)),
        "contained": f"%{_escaped(wording.phrase)}%",
        "bounded": f"% {_escaped(wording.phrase)} %",
        "words": words,
        "words_length": float(len(words)),
        "in_order": wording.in_order,
    }


def _tier_hits(rows: Sequence[Row]) -> HadithHits:
    return [(HADITH_TIERS[row["tier"]], _hit(row)) for row in rows]


async def hadith_by_wording(
    db: RequestDatabase, language: str, wording: Wording, words: Sequence[FuzzyWord], scope: HadithScope
) -> HadithHits:
    """Every wording tier in one statement: exact, fulltext, then fuzzy over `words` (when they can find
    candidates), each finding what the earlier ones did not, in what they left of `scope.most`."""
    groups, fuzzy = _fuzzy_params(words)
    tiers = HADITH_TIERS if groups else HADITH_TIERS[:-1]
    statement = _wording_statement(language, tiers, groups, False, _ScopeShape.of(scope))
    params = {**_scope_params(scope), **_wording_params(wording), **fuzzy}
    return _tier_hits(await db.fetch(Bound(statement, params)))


async def hadith_then_fuzzy_words(
    db: RequestDatabase, language: str, wording: Wording, shortest: int, scope: HadithScope
) -> tuple[HadithHits, list[FuzzyWord]]:
    """The exact and fulltext hits and, when they leave room under `scope.most`, the fuzzy words of
    `wording.words` (as `fuzzy_words` finds them; none when there is no room), in one statement."""
    wanted = _wanted(language, wording.words, shortest)
    statement = _wording_statement(language, HADITH_TIERS[:-1], 0, True, _ScopeShape.of(scope))
    params = {**_scope_params(scope), **_wording_params(wording), **_vocabulary_params(language, wanted)}
    rows = await db.fetch(Bound(statement, params))
    hits = _tier_hits([row for row in rows if row["hadith_id"] is not None])
    vocabulary = [row for row in rows if row["hadith_id"] is None]
    return hits, (_fuzzy_words(wanted, vocabulary) if len(hits) < scope.most else [])


async def hadith_by_fuzzy_words(
    db: RequestDatabase, language: str, wording: Wording, words: Sequence[FuzzyWord], scope: HadithScope
) -> HadithHits:
    """The fuzzy tier alone: hadith that hold most of the words, each as said or one letter off (see `_fuzzy`);
    none, and no statement, when the words can find no candidate."""
    groups, fuzzy = _fuzzy_params(words)
    if not groups:
        return []
    statement = _wording_statement(language, HADITH_TIERS[-1:], groups, False, _ScopeShape.of(scope))
    params = {**_scope_params(scope), **_wording_params(wording), **fuzzy}
    return _tier_hits(await db.fetch(Bound(statement, params)))


# narrators ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Filters:
    """The shape of a narrator scope: which filters it sets."""

    grade_tier: bool
    region: bool
    generation: bool

    @classmethod
    def of(cls, scope: NarratorScope) -> "_Filters":
        return cls(scope.grade_tier is not None, scope.region is not None, scope.generation is not None)


def _name_score(match: ColumnElement[Any], prior: ColumnElement[Any]) -> Any:
    return match * NAME_MATCH_WEIGHT + prior * (1 - NAME_MATCH_WEIGHT)


def _of_kept_narrators(forms: Select[Any], filters: _Filters) -> Select[Any]:
    """`forms` (name forms), of the narrators the filters keep."""
    n = t.narrator
    given = (
        (n.c.grade_tier, filters.grade_tier, "grade_tier"),
        (n.c.region_key, filters.region, "region"),
        (n.c.generation, filters.generation, "generation"),
    )
    kept = [column == _param(name, column.type) for column, wanted, name in given if wanted]
    if kept:
        forms = forms.where(t.narrator_search_form.c.narrator_id.in_(select(n.c.narrator_id).where(*kept)))
    return forms


def _forms(tier: ColumnElement[Any], score: ColumnElement[Any], filters: _Filters) -> Select[Any]:
    """The name forms, with their tier and score, of narrators the filters keep."""
    f = t.narrator_search_form
    forms = select(f.c.narrator_id, f.c.form, f.c.source_id, f.c.source_key, f.c.prior)
    return _of_kept_narrators(forms.add_columns(tier.label("tier"), score.label("score")), filters)


def _best_of_each(forms: Any) -> Select[Any]:
    """The best form of each narrator among `forms` (his best tier, then his best score there), best
    narrators first, `:most` at most."""
    first = select(forms).order_by(forms.c.narrator_id, forms.c.tier, forms.c.score.desc())
    best = first.ext(distinct_on(forms.c.narrator_id)).subquery()
    order = (best.c.tier, best.c.score.desc(), best.c.prior.desc(), best.c.narrator_id)
    return select(best).order_by(*order).limit(_param("most", Integer))


def _share() -> ColumnElement[Any]:
    """How much of the name form the query (`:length` characters) covers."""
    key = t.narrator_search_form.c.search_key
    return _param("length", Float) / func.greatest(func.char_length(key), 1)


def _key_hits(filters: _Filters) -> Any:
    """The narrators whose name form matches the key `:query` in the first tiers: the key itself (exact),
    its words starting the form (prefix: `:prefix`, whole words: «بن عمر» is no prefix of «بن عمرو»),
    within the form (substring: `:substring`), every word of it a word of the form, in any order
    (fulltext: `:words`). Each narrator is in his best tier, by his best form there."""
    f = t.narrator_search_form
    key = f.c.search_key
    exact = key == _param("query", String)
    tier = case((exact, 0), (_like(key, "prefix"), 1), (_like(key, "substring"), 2), else_=3)
    score = case((exact, literal(1.0)), else_=_name_score(_share(), f.c.prior))
    words = func.string_to_array(key, literal_column("' '")).op("@>")(_array("words", Text))
    condition = and_(f.c.script == _param("script", String), or_(_like(key, "substring"), words))
    forms = _forms(tier, score, filters).where(condition).subquery()
    return _best_of_each(forms).cte("key_hits")


def _similar(filters: _Filters, room: Any) -> Select[Any]:
    """The FUZZY_FORMS name forms of the query's script most similar to it (trigrams). The similarity is
    computed once per form (a materialized CTE), not once per use."""
    f = t.narrator_search_form
    query = _param("query", String)
    # `query <% key` (the index's word-similarity test, at the session's pg_trgm.word_similarity_threshold)
    # keeps the forms that hold most of the query's trigrams: far fewer rows to compare than `key % query`.
    condition = and_(room, f.c.script == _param("script", String), query.bool_op("<%")(f.c.search_key))
    forms = select(f.c.narrator_id, f.c.form, f.c.source_id, f.c.source_key, f.c.prior)
    forms = forms.add_columns(func.similarity(f.c.search_key, query).label("similarity")).where(condition)
    compared = _of_kept_narrators(forms, filters).cte("similar").prefix_with("MATERIALIZED")
    similarity = compared.c.similarity
    score = _name_score(similarity, compared.c.prior).label("score")
    similar = select(*(compared.c[name] for name in ("narrator_id", "form", "source_id", "source_key", "prior")))
    similar = similar.add_columns(FUZZY.label("tier"), score).where(similarity >= FUZZY_NAME_THRESHOLD)
    return similar.order_by(similarity.desc()).limit(FUZZY_FORMS)


def _consonants(prefix: bool, filters: _Filters, room: Any) -> Select[Any]:
    """The FUZZY_FORMS name forms, of either script, whose consonants are the query's (`:skeleton`) or, with
    `prefix`, start with them (`:skeleton_prefix`), those with the fewest other consonants first."""
    f = t.narrator_search_form
    share = _param("skeleton_credit", Float) / func.greatest(func.char_length(f.c.skeleton), 1)
    same = f.c.skeleton == _param("skeleton", String)
    starts = and_(_like(f.c.skeleton, "skeleton_prefix"), share >= MIN_SKELETON_SHARE)
    forms = _forms(FUZZY, _name_score(share, f.c.prior), filters).where(room, or_(same, starts) if prefix else same)
    return forms.order_by(func.char_length(f.c.skeleton)).limit(FUZZY_FORMS)


def _fuzzy_hits(skeleton: int, filters: _Filters, key_hits: Any) -> Any:
    """The fuzzy tier, for narrators not among the key hits, read only when these are fewer than `:most`
    (`room`: checked once, before any row is read); the consonant branch when the query has MIN_SKELETON
    consonants (`skeleton`: how many it has, up to MIN_SKELETON_PREFIX)."""
    f = t.narrator_search_form
    found = select(func.count()).select_from(key_hits).scalar_subquery() < _param("most", Integer)
    room = and_(found, f.c.narrator_id.not_in(select(key_hits.c.narrator_id)))
    branches = [_similar(filters, room)]
    if skeleton >= MIN_SKELETON:
        branches.append(_consonants(skeleton >= MIN_SKELETON_PREFIX, filters, room))
    fuzzy = union_all(*branches).subquery()
    return _best_of_each(fuzzy).subquery()


@functools.cache
def _name_statement(skeleton: int, filters: _Filters) -> Select[Any]:
    """Every tier of the narrator search in one statement: the key hits, then the fuzzy hits, `:most` in all."""
    n = t.narrator
    key_hits = _key_hits(filters)
    fuzzy_hits = _fuzzy_hits(skeleton, filters, key_hits)
    hits = union_all(select(key_hits), select(fuzzy_hits)).subquery()
    order = (hits.c.tier, hits.c.score.desc(), hits.c.prior.desc(), hits.c.narrator_id)
    top = select(hits).order_by(*order).limit(_param("most", Integer)).subquery()
    return (
        select(n, top.c.form.label("matched_form"), top.c.source_id.label("form_source_id"))
        .add_columns(top.c.source_key.label("form_source_key"), top.c.score, top.c.tier)
        .join(top, top.c.narrator_id == n.c.narrator_id)
        .order_by(top.c.tier, top.c.score.desc(), top.c.prior.desc(), top.c.narrator_id)
    )


def _name_params(query: str, skeleton: str, scope: NarratorScope) -> dict[str, Any]:
    return {
        "query": query,
        "prefix": f"{_escaped(query)} %",
        "substring": f"%{_escaped(query)}%",
        "words": query.split(),
        "length": float(len(query)),
        "script": scope.script,
        "skeleton": skeleton,
        "skeleton_prefix": f"{_escaped(skeleton)}%",
        "skeleton_credit": SKELETON_CREDIT * len(skeleton),
        "grade_tier": scope.grade_tier,
        "region": scope.region,
        "generation": scope.generation,
        "most": scope.most,
    }


def _name_hit(row: Row) -> tuple[str, NarratorHitRecord]:
    record = NarratorHitRecord(
        narrator_record(row),
        row["matched_form"],
        row["form_source_id"],
        row["form_source_key"],
        round(min(1.0, float(row["score"])), 4),
    )
    return NAME_TIERS[row["tier"]], record


async def narrators_by_name(
    db: RequestDatabase, query: str, skeleton: str, scope: NarratorScope
) -> list[tuple[str, NarratorHitRecord]]:
    """Narrators one of whose name forms matches the query's key, each with the tier (NAME_TIERS) he matched
    in: every narrator of a tier before those of the next, `most` at most. The fuzzy tier also compares the
    query's consonant skeleton."""
    statement = _name_statement(min(len(skeleton), MIN_SKELETON_PREFIX), _Filters.of(scope))
    rows = await db.fetch(Bound(statement, _name_params(query, skeleton, scope)))
    return [_name_hit(row) for row in rows]
