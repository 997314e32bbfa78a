"""Hadith by Arabic or French wording: the exact, fulltext and fuzzy tiers (HADITH_TIERS), best first, in one
statement each time (app/data/search/__init__.py tells how they share it with the vocabulary)."""

import functools
import itertools
import math
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    Float,
    Integer,
    Numeric,
    Select,
    String,
    Text,
    and_,
    any_,
    case,
    cast,
    func,
    literal,
    literal_column,
    not_,
    null,
    or_,
    select,
    union_all,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.sql.util import ClauseAdapter

from app.data import tables as t
from app.data.database import Bound, RequestDatabase, Row
from app.data.search.common import (
    CANDIDATES,
    FUZZY_CANDIDATES,
    FUZZY_MIN_SCORE,
    FUZZY_WORD_CREDIT,
    FUZZY_WORD_SHARE,
    HADITH_TIERS,
    RERANKED,
    SKIPPING_ONE_WORDS,
    TERMS,
    WORDS,
    FuzzyWord,
    HadithHits,
    HadithScope,
    ScopeShape,
    Wording,
    array,
    best_of,
    candidates_of,
    escaped,
    hadith_hits,
    hit_record,
    in_scope,
    kept_tier,
    leaves_room,
    like,
    once,
    param,
    scope_params,
    text_config,
)
from app.data.search.vocabulary import corrections, near_keys, vocabulary_params, vocabulary_statement, wanted_terms
from app.text import arabic

COMMON_PHRASE_ROWS = 1000  # rows a phrase of common pairs reads in key order before its pairs' index
SHARE_DIGITS = 9  # a fuzzy share's digits: far below what tells two hits apart, far above a float sum's noise
PROBED_WORDS = 6  # words of a phrase from which the index reads its phrases but for one word by a probe
# How the index reads a group of fuzzy candidates: the group's own tsquery; or its probe, each text found then
# compared with the group (`_holds_group`).
DIRECT, PROBED = "direct", "probed"
Groups = tuple[str, ...]  # how the index reads each group the fuzzy tier reads, in order


def _coverage(measure: ColumnElement[Any], length: str) -> ColumnElement[Any]:
    """How much of the text (the Arabic matn, the French text) the query (`:<length>` characters) covers."""
    return param(length, Float) / func.greatest(measure, 1)


def _measure(language: str) -> ColumnElement[Any]:
    """The length of a hadith in a language that coverage divides by: its normalized matn, its French."""
    return t.hadith.c.matn_length if language == "ar" else func.char_length(t.hadith.c.text_fr_normalized)


def _bounded_phrase() -> ColumnElement[bool]:
    """The normalized Arabic text holds the normalized phrase at word boundaries (`:bounded`: the phrase within a
    LIKE pattern)."""
    return like(literal(" ") + t.hadith.c.text_ar_normalized + literal(" "), "bounded")


def _holds_phrase(language: str) -> ColumnElement[bool]:
    """The normalized text holds the normalized phrase, at word boundaries: Arabic through the index of its
    words and pairs of words (`:pairs`, the phrase's pairs: the texts that hold them all), then the text itself;
    French through its words as written, with their positions (`:phrase`)."""
    if language == "fr":
        phrase = once(func.phraseto_tsquery(literal_column("'simple'::regconfig"), param("phrase", String)))
        return WORDS["fr"].bool_op("@@")(phrase)
    return and_(t.hadith.c.text_ar_pairs.bool_op("@>")(array("pairs", Text)), _bounded_phrase())


def _common_phrase() -> ColumnElement[bool]:
    """Every pair of the phrase (`:pairs`) is one that most texts hold (search_common_pair), computed once."""
    pairs = array("pairs", Text)
    held = select(func.count()).where(t.search_common_pair.c.pair == any_(pairs)).scalar_subquery()
    return once(and_(func.cardinality(pairs) > 0, held == func.cardinality(pairs)))


def _first_rows() -> Any:
    """The first COMMON_PHRASE_ROWS hadith in key order, read through the primary key."""
    h = t.hadith
    return select(h).order_by(h.c.hadith_id).limit(COMMON_PHRASE_ROWS).subquery("first_rows")


def _in_key_order(share: ColumnElement[Any], scope: ScopeShape) -> Any:
    """For a phrase of common pairs (`_common_phrase`), the first CANDIDATES hadith that hold it among the first
    rows (`_first_rows`), read in key order, each with its `share`: a phrase that most texts hold fills them within
    a few hundred rows, where its pairs' index would list every text that holds them. Nothing is read for another
    phrase (a condition PostgreSQL checks once, before any row)."""
    first = _first_rows()
    on_first = ClauseAdapter(first).traverse
    found = select(first.c.hadith_id, on_first(share).label("share"))
    found = found.where(_common_phrase(), on_first(in_scope(_bounded_phrase(), scope)))
    return found.limit(CANDIDATES).cte("exact_in_key_order")


def _after_key_order(share: ColumnElement[Any], scope: ScopeShape, read: Any) -> Select[Any]:
    """The hadith that hold the phrase, found through its pairs' index, after the rows read in key order (`read`:
    all of them for a phrase not of common pairs, none of which were read), as many as these left of CANDIDATES."""
    h, first = t.hadith, _first_rows()
    taken = select(func.count()).select_from(read).scalar_subquery()
    after = select(func.max(first.c.hadith_id)).scalar_subquery()
    later = or_(not_(_common_phrase()), h.c.hadith_id > after)
    found = select(h.c.hadith_id, share.label("share")).where(taken < CANDIDATES, in_scope(_holds_phrase("ar"), scope))
    return found.where(later).limit(CANDIDATES - taken)


def _exact_candidates(share: ColumnElement[Any], scope: ScopeShape) -> Any:
    """The CANDIDATES first hadith in key order that hold the Arabic phrase, as `candidates_of` finds them, each with
    its `share`: a phrase of common pairs through the first rows in key order, then (when these hold fewer) through
    the index."""
    read = _in_key_order(share, scope)
    return union_all(select(read), _after_key_order(share, scope, read)).subquery()


def _exact(language: str, scope: ScopeShape, earlier: Sequence[Any]) -> Any:
    """Hadith whose normalized text holds the normalized phrase, at word boundaries, scored by how much of
    the text it covers (`:phrase_length`). The exact tier is always its statement's first (`earlier` is empty)."""
    share = func.least(1.0, _coverage(_measure(language), "phrase_length"))
    if language == "ar":
        found = _exact_candidates(share, scope)
    else:
        found = candidates_of(share, _holds_phrase(language), scope, earlier)
    return kept_tier("exact", found.c.hadith_id, found.c.share, earlier)


def _words_query(name: str) -> ColumnElement[Any]:
    """A tsquery over the words as written (WORDS), from the text of `:name`."""
    return once(func.to_tsquery(literal_column("'simple'::regconfig"), param(name, String)))


def _any_of(terms: Sequence[str]) -> str:
    """A tsquery text: any of the terms (words of letters and digits, never operators)."""
    return "(" + " | ".join(f"'{term}'" for term in terms) + ")"


def _fulltext(language: str, scope: ScopeShape, earlier: Sequence[Any]) -> Any:
    """Hadith whose text holds every word of `:words`: Arabic stems (prefixes tolerated), French stems (accents
    folded, stop words left out). The share weighs how much of the text the words (`:words_length`
    characters) cover, how close together they stand, and whether they stand as in the query (`:in_order`);
    the best RERANKED are then ranked with the trigram similarity."""
    terms, query = TERMS[language], once(func.plainto_tsquery(text_config(language), param("words", String)))
    proximity = func.least(1.0, func.ts_rank_cd(terms, query, 4 | 32) * 2)
    coverage = func.least(1.0, _coverage(_measure(language), "words_length"))
    in_order = terms.bool_op("@@")(once(func.phraseto_tsquery(text_config(language), param("in_order", String))))
    share = coverage * 0.4 + proximity * 0.3 + case((in_order, 1.0), else_=0.0) * 0.3
    best = best_of(candidates_of(share, terms.bool_op("@@")(query), scope, earlier), RERANKED)
    return _resembling(language, "fulltext", best, 0.0, earlier)


def _credits() -> Any:
    """One row per term the query accepts (`:credit_terms`): the query word it stands for, what it counts
    for, and that word's weight (a term one letter off two query words stands for both)."""
    return select(
        func.unnest(array("credit_terms", Text)).label("term"),
        func.unnest(array("credit_words", Integer)).label("word"),
        func.unnest(array("credit_values", Float)).label("credit"),
        func.unnest(array("credit_weights", Float)).label("weight"),
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


def _skipping_one(
    in_order: Sequence[str], readings: dict[str, str], unknown: set[str], weights: dict[str, float]
) -> tuple[Groups, dict[str, str]]:
    """A tsquery text that finds the texts holding the phrase but for one of its words, whatever stands in
    that word's place (a word misheard, one letter off, or short): `in_order` with each word left out in
    turn, the others at their distances (none under SKIPPING_ONE_WORDS words); a word of `readings` (a
    transliteration's) stands as any of them (a tsquery text), so that the texts choose among them. A word
    of `unknown` is in no text: only the phrase that leaves it out can be found (none when two are left).
    As group 0: how the index reads it (DIRECT; PROBED for a phrase of PROBED_WORDS words or more left out word by
    word, through `_skipping_one_probe`, weighing each word by `weights`), and its parameters. No group when
    there is no such tsquery."""
    absent = {place for place, word in enumerate(in_order) if word in unknown}
    if len(in_order) < SKIPPING_ONE_WORDS or len(absent) > 1:
        return (), {}
    items = [readings.get(word, f"'{word}'") for word in in_order]
    phrases = []
    for left_out in absent or range(len(in_order)):
        kept = [(place, item) for place, item in enumerate(items) if place != left_out]
        steps = (f" <{place - before}> {item}" for (before, _), (place, item) in itertools.pairwise(kept))
        phrases.append(f"({kept[0][1]}{''.join(steps)})")
    if absent or len(in_order) < PROBED_WORDS:
        return (DIRECT,), {"group_0": " | ".join(phrases)}
    probe = _skipping_one_probe(in_order, items, weights)
    return (PROBED,), {"group_0": " | ".join(phrases), "group_0_probe": probe}


def _skipping_one_probe(in_order: Sequence[str], items: Sequence[str], weights: dict[str, float]) -> str:
    """What every text that holds the phrase but for one word holds: two of the phrase's three rarest words (the
    highest weights, then the longest) at least, anywhere. The index reads it far faster than the phrases, a query
    of some words squared operands, for which it checked each candidate against the lists of every word of the
    phrase, the common ones too (32 ms for a French phrase of 21 words, against under 1 ms)."""
    rarest = sorted(range(len(in_order)), key=lambda at: (-weights.get(in_order[at], 0.0), -len(in_order[at]), at))
    chosen = [items[place] for place in sorted(rarest[:3])]
    return " | ".join(f"({first} & {second})" for first, second in itertools.combinations(chosen, 2))


def _candidate_groups(known: Sequence[FuzzyWord], needed: int) -> list[str]:
    """A hit holds `needed` words, so at least one of the len(known) - needed + 1 rarest: the tsquery texts
    that find the hadith holding each of them (as said; a word no text holds, one letter off), rarest first."""
    rarest = sorted(known, key=lambda word: -word.weight)[: len(known) - needed + 1]
    groups = [group for group in (w.terms[:1] if w.terms[0] == w.word else w.rare for w in rarest) if group]
    return [_any_of(group) for group in groups]


def _fuzzy_params(words: Sequence[FuzzyWord], in_order: Sequence[str]) -> tuple[Groups, dict[str, Any]]:
    """The groups of candidates the fuzzy tier reads for these words (none: it can find no hit), and its
    parameters: the texts that hold the phrase (`in_order`) but for one word first, then those that hold the
    rarest words."""
    known = [word for word in words if word.terms]
    needed = math.ceil(FUZZY_WORD_SHARE * len(words))
    groups = _candidate_groups(known, needed) if known and len(known) >= needed else []
    if not groups:
        return (), {}
    # A transliterated word whose likeliest reading few texts hold stands as any of its readings; a common one
    # is likely the word, and its readings would make every text of common words a candidate to read.
    readings = {word.terms[0]: _any_of(word.terms) for word in known if word.readings and word.terms[0] in word.rare}
    unknown = {word.word for word in words if word.word not in word.terms and not word.readings}
    first, skipping = _skipping_one(in_order, readings, unknown, {word.word: word.weight for word in words})
    return first + (DIRECT,) * len(groups), {
        **skipping,
        **{f"group_{i}": group for i, group in enumerate(groups, start=len(first))},
        **_credit_params(known),
        "weight": sum(word.weight for word in words),
        "needed": needed,
        "known_words": len(known),
    }


def _holds_group(language: str, place: int, kind: str) -> ColumnElement[bool]:
    """The text holds group `:group_<place>`: read through the index (DIRECT), or (PROBED) through the index by its
    probe (`:group_<place>_probe`), each text the probe finds then compared with the group itself (`ts_match_vq`,
    the function of `@@`, which the planner does not read through an index)."""
    words, group = WORDS[language], _words_query(f"group_{place}")
    if kind == DIRECT:
        return words.bool_op("@@")(group)
    return and_(words.bool_op("@@")(_words_query(f"group_{place}_probe")), func.ts_match_vq(words, group))


def _fuzzy_candidates(language: str, groups: Groups, scope: ScopeShape, earlier: Sequence[Any]) -> Any:
    """The hadith that hold each group (`:group_0` ...), in turn, FUZZY_CANDIDATES at most."""
    holding = [
        select(t.hadith.c.hadith_id).where(in_scope(_holds_group(language, place, kind), scope, earlier))
        for place, kind in enumerate(groups)
    ]
    return union_all(*holding).limit(FUZZY_CANDIDATES).subquery()


def _any_held(term: ColumnElement[Any]) -> ColumnElement[Any]:
    """The terms of a group, as a tsquery text that holds any of them ('a' | 'b'), in a fixed order."""
    quoted = literal("'") + term + literal("'")
    return func.string_agg(quoted, aggregate_order_by(literal_column("' | '"), term))


def _accepted_only(language: str) -> ColumnElement[Any]:
    """The text's words (WORDS, which carry no weight) that are accepted terms (`:credit_terms`): marked with
    weight A, then kept. Two passes in C over the text's words and a binary search for each accepted term, where
    meeting every word of the text in a join cost twice the time."""
    marked = func.setweight(WORDS[language], literal_column("'A'"), array("credit_terms", Text))
    return func.ts_filter(marked, literal_column("'{a}'"))


def _holding_most(language: str, found: Any) -> Select[Any]:
    """The candidates that hold `:needed` words at least, with their share of the query's weight (`:weight`):
    each candidate's accepted terms (`_accepted_only`) meet their credits; each query word counts once, at its best.
    Also how many query words each holds (`words`) and, as a tsquery text, the accepted terms it holds, word
    by word (`held`: the query's words as they can stand in it)."""
    held = (
        select(t.hadith.c.hadith_id, func.unnest(func.tsvector_to_array(_accepted_only(language))).label("term"))
        .where(t.hadith.c.hadith_id.in_(select(found.c.hadith_id)))
        .subquery()
    )
    accepted = _credits()
    per_word = (
        select(
            held.c.hadith_id,
            accepted.c.word,
            func.max(accepted.c.credit * accepted.c.weight).label("credit"),
            _any_held(held.c.term).label("terms"),
        )
        .join(accepted, accepted.c.term == held.c.term)
        .group_by(held.c.hadith_id, accepted.c.word)
        .subquery()
    )
    # A sum of floats depends on the order its terms come in, in the last bits; rounded, equal shares stay
    # equal (and fall to the hadith id) whatever order the plan reads them in.
    total = cast(func.sum(per_word.c.credit) / param("weight", Float), Numeric)
    share = func.round(total, SHARE_DIGITS).label("share")
    terms = literal("(") + per_word.c.terms + literal(")")
    held_query = func.string_agg(terms, aggregate_order_by(literal_column("' & '"), per_word.c.word)).label("held")
    holding = select(per_word.c.hadith_id, share, func.count().label("words"), held_query)
    return holding.group_by(per_word.c.hadith_id).having(func.count() >= param("needed", Integer))


def _least_kept(holding: Any) -> ColumnElement[Any]:
    """The least share among the RERANKED highest: no candidate of a lower share can be kept."""
    top = select(holding.c.share).order_by(holding.c.share.desc()).limit(RERANKED).subquery()
    return select(func.min(top.c.share)).scalar_subquery()


def _fuzzy(language: str, groups: Groups, scope: ScopeShape, earlier: Sequence[Any]) -> Any:
    """Hadith that hold most of the query's words, each as said or one letter off (`groups` groups of
    candidates, see `_fuzzy_params`): the highest shares first, among equal shares those where the query's
    words stand closest (compared only among the shares that can be kept); then ranked with the
    trigram similarity, at least FUZZY_MIN_SCORE."""
    holding = _holding_most(language, _fuzzy_candidates(language, groups, scope, earlier)).cte("holding_most")
    # The query's words (each as any of its accepted terms) cannot all stand in a text that lacks one: their
    # ts_rank_cd is 0 there, and is not computed. Where they can, the terms the text does not hold change
    # nothing: the rank of the held terms alone is theirs, and far cheaper than with every term of each word.
    held = func.to_tsquery(literal_column("'simple'::regconfig"), holding.c.held)
    together = case(
        (holding.c.words == param("known_words", Integer), func.ts_rank_cd(WORDS[language], held, 4)), else_=0.0
    )
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
    similarity = func.word_similarity(param("in_order", String), func.coalesce(text, ""))
    scored = select(best.c.hadith_id, ((best.c.share + similarity) / 2).label("score"))
    scored = scored.join(h, h.c.hadith_id == best.c.hadith_id)
    resembling = scored.cte(f"{name}_resembling").prefix_with("MATERIALIZED")
    return kept_tier(name, resembling.c.hadith_id, resembling.c.score, earlier, resembling.c.score >= literal(minimum))


def _tier(name: str, language: str, groups: Groups, scope: ScopeShape, earlier: Sequence[Any]) -> Any:
    """The CTE of tier `name`, after the `earlier` tiers of the statement."""
    if name == "exact":
        return _exact(language, scope, earlier)
    if name == "fulltext":
        return _fulltext(language, scope, earlier)
    return _fuzzy(language, groups, scope, earlier)


def _hits(language: str, tiers: tuple[str, ...], groups: Groups, scope: ScopeShape) -> Any:
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
    """The rows of `statement`, then those of the vocabulary statement (`vocabulary_statement`), read only
    when the hits leave room under `:most`; each kind of row has the other's columns, empty."""
    vocabulary = vocabulary_statement(language).subquery()
    room = leaves_room(hits)
    hit_rows = statement.add_columns(*(null().label(column.key) for column in vocabulary.c))
    empty = (null().label(column.key) for column in statement.selected_columns)
    return union_all(hit_rows, select(*empty, *vocabulary.c).where(room))


@functools.cache
def _wording_statement(
    language: str, tiers: tuple[str, ...], groups: Groups, vocabulary: bool, scope: ScopeShape
) -> Select[Any] | CompoundSelect[Any]:
    """The hits of `tiers` (HADITH_TIERS, best first; `groups`: the fuzzy tier's), in one statement, in order
    of tier then score; with `vocabulary`, then the vocabulary rows of `:terms`."""
    h = t.hadith
    hits = _hits(language, tiers, groups, scope)
    statement = hadith_hits(hits.c.score).add_columns(hits.c.tier).join(hits, hits.c.hadith_id == h.c.hadith_id)
    rows = _with_vocabulary(language, hits, statement) if vocabulary else statement
    columns = rows.selected_columns
    return rows.order_by(columns.tier, columns.score.desc(), columns.hadith_id)


def _wording_params(wording: Wording) -> dict[str, Any]:
    words = " ".join(wording.words)
    return {
        "phrase": wording.phrase,
        "phrase_length": float(len(wording.phrase)),
        "pairs": arabic.phrase_pairs(wording.phrase),
        "bounded": f"% {escaped(wording.phrase)} %",
        "words": words,
        "words_length": float(len(words)),
        "in_order": wording.in_order,
    }


def _tier_hits(rows: Sequence[Row]) -> HadithHits:
    return [(HADITH_TIERS[row["tier"]], hit_record(row)) for row in rows]


async def hadith_by_wording(
    db: RequestDatabase, language: str, wording: Wording, words: Sequence[FuzzyWord], scope: HadithScope
) -> HadithHits:
    """Every wording tier in one statement: exact, fulltext, then fuzzy over `words` (when they can find
    candidates), each finding what the earlier ones did not, in what they left of `scope.most`."""
    groups, fuzzy = _fuzzy_params(words, wording.in_order.split())
    tiers = HADITH_TIERS if groups else HADITH_TIERS[:-1]
    statement = _wording_statement(language, tiers, groups, False, ScopeShape.of(scope))
    params = {**scope_params(scope), **_wording_params(wording), **fuzzy}
    return _tier_hits(await db.fetch(Bound(statement, params)))


async def hadith_then_fuzzy_words(
    db: RequestDatabase, language: str, wording: Wording, shortest: int, scope: HadithScope
) -> tuple[HadithHits, list[FuzzyWord]]:
    """The exact and fulltext hits and, when they leave room under `scope.most`, the fuzzy words of
    `wording.words` (as `fuzzy_words` finds them; none when there is no room), in one statement."""
    statement = _wording_statement(language, HADITH_TIERS[:-1], (), True, ScopeShape.of(scope))
    keys = near_keys(wording.words)
    params = {**scope_params(scope), **_wording_params(wording), **vocabulary_params(language, keys)}
    rows = await db.fetch(Bound(statement, params))
    hits = _tier_hits([row for row in rows if row["hadith_id"] is not None])
    vocabulary = [row for row in rows if row["hadith_id"] is None]
    if len(hits) >= scope.most:
        return hits, []
    return hits, corrections(wanted_terms(language, wording.words, shortest), vocabulary)


async def hadith_by_fuzzy_words(
    db: RequestDatabase, language: str, wording: Wording, words: Sequence[FuzzyWord], scope: HadithScope
) -> HadithHits:
    """The fuzzy tier alone: hadith that hold most of the words, each as said or one letter off (see `_fuzzy`);
    none, and no statement, when the words can find no candidate."""
    groups, fuzzy = _fuzzy_params(words, wording.in_order.split())
    if not groups:
        return []
    statement = _wording_statement(language, HADITH_TIERS[-1:], groups, False, ScopeShape.of(scope))
    params = {**scope_params(scope), **_wording_params(wording), **fuzzy}
    return _tier_hits(await db.fetch(Bound(statement, params)))
