"""Narrators by any name form: the four tiers of the name key in one statement, then the fuzzy tier (consonant
skeletons across scripts; trigrams when no form is the query or starts with it) when they leave room; and, when no
other tier finds anyone, the query's words that no name holds, read one letter off."""

import functools
from collections.abc import Set
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    REAL,
    Boolean,
    ColumnElement,
    CompoundSelect,
    Float,
    Integer,
    Select,
    String,
    Text,
    and_,
    any_,
    case,
    cast,
    exists,
    false,
    func,
    literal,
    literal_column,
    null,
    or_,
    select,
    union_all,
)
from sqlalchemy.dialects.postgresql import distinct_on

from app.data import tables as t
from app.data.database import FUZZY_NAME_THRESHOLD, Bound, RequestDatabase, Row
from app.data.narrators import narrator_record
from app.data.records import NarratorHitRecord
from app.data.search.common import array, escaped, leaves_room, like, param
from app.data.search.name_index import LAST_CHECKSUM, READ_THE_INDEX, NameIndex, Similar
from app.data.search.vocabulary import wanted_terms, word_keys
from app.text import arabic, latin

NAME_MATCH_WEIGHT = 0.6  # of a narrator score (not exact): the match; the rest is the prior
FUZZY_FORMS = 100  # name forms each fuzzy branch reads at most (the most similar first)
FORM_COLUMNS = ("narrator_id", "form", "script", "source_id", "source_key", "prior")  # what a hit keeps of its form
SKELETON_CREDIT = 0.9  # what a name form whose consonants are all the query's counts for
MIN_SKELETON = 3  # consonants a query needs before its consonants alone may match a name form
MIN_SKELETON_PREFIX = 4  # consonants it needs before a name form may merely start with them ...
MIN_SKELETON_SHARE = 0.35  # ... and the credit (SKELETON_CREDIT x its share of the form's consonants) needed
NAME_TIERS = ("exact", "prefix", "substring", "fulltext", "fuzzy")  # best first
FUZZY_TIER = NAME_TIERS.index("fuzzy")
AS_WRITTEN = NAME_TIERS.index("prefix")  # the last tier whose hits hold the query as it is written, from their start
FUZZY = literal(FUZZY_TIER)
NAME_PARTICLES = arabic.NAME_PARTICLES | latin.NAME_PARTICLES
MIN_EDITED = 4  # letters a word no name holds needs before a letter may be read as added or changed in it (else
# only as dropped, doubled, or swapped with the next)
MOST_UNHELD = 2  # words no name holds that a query may have and still be read as a name slipped ...
MIN_SLIPPED = 3  # ... each of this many letters at least
# The letters of each script's keys, as app.data.search.common.ALPHABETS names them.
_ALPHABET = {"ar": "ar", "latin": "fr"}


@dataclass(frozen=True)
class NarratorScope:
    script: str
    grade_tier: str | None
    region: str | None
    generation: int | None
    most: int


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
    kept = [column == param(name, column.type) for column, wanted, name in given if wanted]
    if kept:
        forms = forms.where(t.narrator_search_form.c.narrator_id.in_(select(n.c.narrator_id).where(*kept)))
    return forms


def _form_columns() -> list[ColumnElement[Any]]:
    return [t.narrator_search_form.c[name] for name in FORM_COLUMNS]


def _forms(tier: ColumnElement[Any], score: ColumnElement[Any], filters: _Filters) -> Select[Any]:
    """The name forms, with their tier and score, of narrators the filters keep."""
    forms = select(*_form_columns())
    return _of_kept_narrators(forms.add_columns(tier.label("tier"), score.label("score")), filters)


def _form_order(forms: Any) -> tuple[ColumnElement[Any], ...]:
    """How ties between name forms (columns of `forms`) fall: a form in the query's script (`:script`) first, then
    byte by byte (COLLATE "C"), which no server's collation changes."""
    return forms.script != param("script", String), forms.form.collate("C")


def _best_of_each(forms: Any) -> Select[Any]:
    """The best form of each narrator among `forms` (his best tier, then his best score there, then the first
    in `_form_order`), best narrators first, `:most` at most."""
    first = select(forms).order_by(forms.c.narrator_id, forms.c.tier, forms.c.score.desc(), *_form_order(forms.c))
    best = first.ext(distinct_on(forms.c.narrator_id)).subquery()
    order = (best.c.tier, best.c.score.desc(), best.c.prior.desc(), best.c.narrator_id)
    return select(best).order_by(*order).limit(param("most", Integer))


def _share() -> ColumnElement[Any]:
    """How much of the name form the query (`:length` characters) covers."""
    key = t.narrator_search_form.c.search_key
    return param("length", Float) / func.greatest(func.char_length(key), 1)


def _exact_forms(filters: _Filters) -> Any:
    """The narrators one of whose name forms is the key `:query` itself (exact), by its index."""
    f = t.narrator_search_form
    exact = and_(f.c.search_key == param("query", String), f.c.script == param("script", String))
    return _forms(literal(0), literal(1.0, Float), filters).where(exact).cte("exact_forms")


def _holds_unindexed(value: ColumnElement[Any], name: str) -> ColumnElement[Any]:
    """`value LIKE :name`, as a function call that the planner does not read through an index: the trigram index
    reads the `:probe` instead, then each form it finds is compared with `:name` itself."""
    return func.textlike(value, func.like_escape(param(name, String), literal_column("'/'")))


def _probe_piece(words: list[str], at: int) -> str:
    """A word of the query as the probe writes it: a particle left out; a word of three letters or more alone,
    its trigrams within it; a shorter one with the spaces around it in the query, its only trigrams at its edges."""
    word = escaped(words[at])
    if words[at] in NAME_PARTICLES:
        return ""
    if len(words[at]) >= 3:
        return word
    return f"{' ' if at > 0 else ''}{word}{' ' if at < len(words) - 1 else ''}"


def _probe(query: str) -> str:
    """The LIKE pattern the trigram index reads for the key tiers: the query's words in its order, anything between
    them, which every form holding the query holds. It leaves out the trigrams the index reads at length for little:
    the particles' («بن», «ابو», «ibn»), in nearly every form, and a long word's edges («  ا», « ال»). The index finds
    the forms holding all of a pattern's trigrams by reading, for each form holding its rarest one, where every other
    one stands. A query of particles alone is read as it is (a pattern with no trigram would read the whole index);
    a lone word of one or two letters is its own probe."""
    words = query.split()
    pieces = [piece for at in range(len(words)) if (piece := _probe_piece(words, at))]
    return f"%{'%'.join(pieces)}%" if pieces else f"%{escaped(query)}%"


def _key_hits(filters: _Filters) -> Any:
    """The narrators whose name form matches the key `:query` in the first tiers: the key itself (exact),
    its words starting the form (prefix: `:prefix`, whole words: «بن عمر» is no prefix of «بن عمرو»),
    within the form (substring: `:substring`), every word of it a word of the form, in any order
    (fulltext: `:words`). Each narrator is in his best tier, by his best form there. The other forms are
    read only when the exact ones leave room under `:most` and some may hold the query (`room`: checked once, before
    any row is read)."""
    f = t.narrator_search_form
    key = f.c.search_key
    exact = _exact_forms(filters)
    room = and_(leaves_room(exact), _may_hold())
    tier = case((like(key, "prefix"), 1), (like(key, "substring"), 2), else_=3)
    words = _form_words().op("@>")(array("words", Text))
    matched = or_(and_(like(key, "probe"), _holds_unindexed(key, "substring")), words)
    condition = and_(room, f.c.script == param("script", String), key != param("query", String), matched)
    others = _forms(tier, _name_score(_share(), f.c.prior), filters).where(condition)
    return _best_of_each(union_all(select(exact), others).subquery()).cte("key_hits")


def _may_hold() -> ColumnElement[bool]:
    """Some form may hold the query as the key tiers after the exact one read it (`:may_hold`, the name index's
    answer), or the name index is of another import than the live one (`_indexed`): checked once, before any row."""
    return or_(param("may_hold", Boolean), ~_indexed())


def _indexed() -> ColumnElement[bool]:
    """The keys handed over (`:similar_keys`) were read from the live import (its checksum is `:index_checksum`):
    checked once, before any row is read."""
    return LAST_CHECKSUM.scalar_subquery().is_not_distinct_from(param("index_checksum", String))


def _handed_keys(least: float | ColumnElement[Any]) -> Any:
    """The keys the name index handed over (`:similar_keys`, app/data/search/name_index.py), the most similar to the
    query first (`at`), with their similarity (`:similar_values`, as pg_trgm computes it), that are `least` similar
    to it at least and hold it (`word_similarity_op` is `<%`, at the session's pg_trgm.word_similarity_threshold).
    The costly test is run on a key only as it is read, and only when the key is similar enough (a CASE: PostgreSQL
    orders the tests of a filter by their cost, which it reckons alike)."""
    query = param("query", String)
    keys = func.unnest(array("similar_keys", Text), array("similar_values", REAL))
    handed = keys.table_valued("key", "similarity", with_ordinality="at").render_derived()
    holds = case((handed.c.similarity >= least, func.word_similarity_op(query, handed.c.key)), else_=false())
    return select(handed).where(holds).subquery("handed")


def _key_forms(room: Any, filters: _Filters, least: float | ColumnElement[Any]) -> Select[Any]:
    """The forms of the keys handed over that are `least` similar to the query at least (`_handed_keys`), with their
    similarity and their key's place (`at`), read by the key's B-tree."""
    f = t.narrator_search_form
    handed = _handed_keys(least)
    forms = select(*_form_columns(), handed.c.similarity, handed.c.at).join(handed, f.c.search_key == handed.c.key)
    return _of_kept_narrators(forms.where(room, f.c.script == param("script", String), _indexed()), filters)


def _by_key(room: Any, filters: _Filters) -> Any:
    """The forms of the keys handed over that may be among the FUZZY_FORMS most similar: those at least as similar as
    the FUZZY_FORMS-th most similar form, which PostgreSQL finds reading the keys in order of similarity and stopping
    there, where reading every form of every key grows with the names' bearers. When fewer forms hold the query,
    those read are all of them."""
    read = _key_forms(room, filters, FUZZY_NAME_THRESHOLD)
    first = read.order_by(read.selected_columns.at).limit(FUZZY_FORMS).cte("most_similar_first")
    filled = select(func.count()).select_from(first).scalar_subquery() == FUZZY_FORMS
    least = select(func.min(first.c.similarity)).scalar_subquery()
    return union_all(select(first).where(~filled), _key_forms(room, filters, least).where(filled)).subquery("by_key")


def _most_similar(forms: Any) -> Select[Any]:
    """The FUZZY_FORMS of `forms` (name forms with their similarity to the query) most similar to it (among equal
    ones, by narrator, then `_form_order`), as fuzzy hits."""
    score = _name_score(forms.c.similarity, forms.c.prior).label("score")
    similar = select(*(forms.c[name] for name in FORM_COLUMNS)).add_columns(FUZZY.label("tier"), score)
    return similar.order_by(forms.c.similarity.desc(), forms.c.narrator_id, *_form_order(forms.c)).limit(FUZZY_FORMS)


def _similar(filters: _Filters, room: Any) -> list[Select[Any]]:
    """The FUZZY_FORMS name forms of the query's script most similar to it (trigrams, FUZZY_NAME_THRESHOLD at least;
    `_most_similar`), of those whose key holds it, two ways, exactly one of which runs: the forms of the keys handed
    over, read by the key's B-tree (`_by_key`); or, when those keys are of another import than the live one, the
    forms `query <% key` finds through the trigram index, the similarity computed once a form (a materialized
    CTE)."""
    f = t.narrator_search_form
    query = param("query", String)
    similarity = func.similarity(f.c.search_key, query).label("similarity")
    scanned = select(*_form_columns(), similarity).where(room, f.c.script == param("script", String), ~_indexed())
    scanned = _of_kept_narrators(scanned.where(query.bool_op("<%")(f.c.search_key)), filters)
    compared = scanned.cte("scanned").prefix_with("MATERIALIZED")
    kept = select(compared).where(compared.c.similarity >= FUZZY_NAME_THRESHOLD).subquery("scanned_similar")
    return [_most_similar(_by_key(room, filters)), _most_similar(kept)]


def _starting_with_skeleton() -> ColumnElement[bool]:
    """The form's consonants start with the query's: they sort, byte by byte, from `:skeleton` (included) to
    `:skeleton_end` (excluded). A range of the skeleton's index (text_pattern_ops) whatever the parameters, where
    `LIKE :pattern` is one only once the pattern is known: PostgreSQL's generic plan, which it keeps for a
    statement it runs often, would read every form."""
    skeleton = t.narrator_search_form.c.skeleton
    return and_(
        skeleton.bool_op("~>=~")(param("skeleton", String)), skeleton.bool_op("~<~")(param("skeleton_end", String))
    )


def _after_every_continuation(prefix: str) -> str:
    """The least string that sorts after every string starting with `prefix` (its last character the next one)."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1) if prefix else ""


def _consonants(prefix: bool, filters: _Filters, room: Any) -> Select[Any]:
    """The FUZZY_FORMS name forms, of either script, whose consonants are the query's (`:skeleton`) or, with
    `prefix`, start with them, those with the fewest other consonants first (then by narrator, then `_form_order`)."""
    f = t.narrator_search_form
    share = param("skeleton_credit", Float) / func.greatest(func.char_length(f.c.skeleton), 1)
    same = f.c.skeleton == param("skeleton", String)
    starts = and_(_starting_with_skeleton(), share >= MIN_SKELETON_SHARE)
    forms = _forms(FUZZY, _name_score(share, f.c.prior), filters).where(room, or_(same, starts) if prefix else same)
    return forms.order_by(func.char_length(f.c.skeleton), f.c.narrator_id, *_form_order(f.c)).limit(FUZZY_FORMS)


def _misspelt(key_hits: Any) -> ColumnElement[bool]:
    """No key hit is exact or prefix: no name form is the query or starts with it, so it may be a name misspelt
    (checked once, before any row is read). A name found as written is no misspelling, and the forms merely
    similar to it are other names."""
    as_written = select(key_hits.c.narrator_id).where(key_hits.c.tier <= AS_WRITTEN)
    return ~exists(as_written)


def _fuzzy_hits(skeleton: int, filters: _Filters, key_hits: Any, misspelt: bool) -> Any:
    """The fuzzy tier, for narrators not among the key hits, read only when these are fewer than `:most`
    (`room`: checked once, before any row is read); the trigram branch when the query may be misspelt
    (`misspelt`, then `_misspelt`); the consonant branch when the query has MIN_SKELETON consonants (`skeleton`:
    how many it has, up to MIN_SKELETON_PREFIX). None when neither is."""
    f = t.narrator_search_form
    room = and_(leaves_room(key_hits), f.c.narrator_id.not_in(select(key_hits.c.narrator_id)))
    branches = _similar(filters, and_(room, _misspelt(key_hits))) if misspelt else []
    if skeleton >= MIN_SKELETON:
        branches.append(_consonants(skeleton >= MIN_SKELETON_PREFIX, filters, room))
    return _best_of_each(union_all(*branches).subquery()).cte("fuzzy_hits") if branches else None


def _with_narrators(hits: Any) -> Select[Any]:
    """The first `:most` of `hits` (name forms with their tier and score), best first, each with its narrator."""
    n = t.narrator
    order = (hits.c.tier, hits.c.score.desc(), hits.c.prior.desc(), hits.c.narrator_id)
    top = select(hits).order_by(*order).limit(param("most", Integer)).subquery()
    return (
        select(n, top.c.form.label("matched_form"), top.c.source_id.label("form_source_id"))
        .add_columns(top.c.source_key.label("form_source_key"), top.c.score, top.c.tier, top.c.prior)
        .join(top, top.c.narrator_id == n.c.narrator_id)
        .order_by(top.c.tier, top.c.score.desc(), top.c.prior.desc(), top.c.narrator_id)
    )


@functools.cache
def _name_statement(skeleton: int, filters: _Filters, misspelt: bool, slipped: bool | None) -> Select[Any]:
    """Every tier of the narrator search in one statement: the key hits, then the fuzzy hits, `:most` in all. The
    trigram branch only when the query may be misspelt (`_fuzzy_hits`); each row then also says whether the keys
    handed over are of the live import (`indexed`). With `slipped` (None: not read; else whether the query has words
    that some name holds), the hits of its words no name holds, read one letter off (`_slipped_after`)."""
    key_hits = _key_hits(filters)
    fuzzy_hits = _fuzzy_hits(skeleton, filters, key_hits, misspelt)
    parts = [key_hits] if fuzzy_hits is None else [key_hits, fuzzy_hits]
    if slipped is not None and fuzzy_hits is not None:
        parts.append(_slipped_after(slipped, filters, key_hits, fuzzy_hits))
    hits = union_all(*(select(part) for part in parts)) if len(parts) > 1 else select(key_hits)
    statement = _with_narrators(hits.subquery())
    return statement.add_columns(_indexed().label("indexed")) if misspelt else statement


def _form_words() -> ColumnElement[Any]:
    """The words of a name form's key (the fulltext tier's index)."""
    return func.string_to_array(t.narrator_search_form.c.search_key, literal_column("' '"))


@functools.cache
def _unheld_words_statement() -> CompoundSelect[Any]:
    """Those of the query's words (`:words`) that no name form of its script holds (search_name_word: no name's
    word under itself, read by its primary key), each alone (`near` empty); then each with the names' words that
    one of its keys finds (`:keys`, each of the word `:key_words` names): every name's word one letter off it,
    among a few others."""
    w = t.search_name_word
    script = w.c.script == param("script", String)
    word = func.unnest(array("words", Text)).table_valued("word").render_derived()
    unheld = select(word.c.word).where(~exists().where(script, w.c.key == word.c.word, w.c.word == word.c.word))
    unheld_words = unheld.cte("unheld")
    keys = func.unnest(array("keys", Text), array("key_words", Text)).table_valued("key", "word").render_derived()
    near = select(keys.c.word, w.c.word.label("near"))
    near = near.join(unheld_words, unheld_words.c.word == keys.c.word).join(w, and_(script, w.c.key == keys.c.key))
    return union_all(select(unheld_words.c.word, cast(null(), Text).label("near")), near)


def _slipped_forms(with_held: bool, filters: _Filters) -> Select[Any]:
    """The forms of the query's script that hold one of its words no name holds read one letter off (`:slips`) and,
    `with_held`, every other word of the query (`:held`); scored as the trigram branch scores a form, by its
    similarity with the query."""
    f = t.narrator_search_form
    conditions = [f.c.script == param("script", String), _form_words().op("&&")(array("slips", Text))]
    if with_held:
        conditions.append(_form_words().op("@>")(array("held", Text)))
    score = _name_score(func.similarity(f.c.search_key, param("query", String)), f.c.prior)
    return _forms(FUZZY, score, filters).where(*conditions)


@functools.cache
def _slipped_statement(with_held: bool, filters: _Filters) -> Select[Any]:
    """The fuzzy tier for a query some of whose words no name holds: the narrators, not among `:found`, of the
    `_slipped_forms`."""
    forms = _slipped_forms(with_held, filters).where(
        ~(t.narrator_search_form.c.narrator_id == any_(array("found", Integer)))
    )
    return _with_narrators(_best_of_each(forms.subquery()).subquery())


def _slipped_after(with_held: bool, filters: _Filters, key_hits: Any, fuzzy_hits: Any) -> Any:
    """`_slipped_statement` within the name statement, for the slips the name index names: the narrators not among
    the fuzzy hits, read only when there is no key hit and the fuzzy hits leave room under `:most`, and the name
    index is of the live import (checked once, before any row is read)."""
    f = t.narrator_search_form
    only_fuzzy = and_(~exists(select(key_hits.c.narrator_id)), leaves_room(fuzzy_hits), _indexed())
    others = f.c.narrator_id.not_in(select(fuzzy_hits.c.narrator_id))
    return _best_of_each(_slipped_forms(with_held, filters).where(only_fuzzy, others).subquery()).subquery()


def _name_params(query: str, skeleton: str, scope: NarratorScope, similar: Similar) -> dict[str, Any]:
    return {
        "query": query,
        "similar_keys": similar.keys,
        "similar_values": similar.similarities,
        "index_checksum": similar.checksum,
        "may_hold": similar.may_hold,
        "prefix": f"{escaped(query)} %",
        "substring": f"%{escaped(query)}%",
        "probe": _probe(query),
        "words": query.split(),
        "length": float(len(query)),
        "skeleton": skeleton,
        "skeleton_end": _after_every_continuation(skeleton),
        "skeleton_credit": SKELETON_CREDIT * len(skeleton),
        **_scope_params(scope),
    }


def _scope_params(scope: NarratorScope) -> dict[str, Any]:
    return {
        "script": scope.script,
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


def _order(row: Row) -> tuple[Any, ...]:
    """Where a narrator hit falls (rows of `_with_narrators`), as `_with_narrators` orders them."""
    return row["tier"], -row["score"], -row["prior"], row["narrator_id"]


def _respelt(slips: set[str], script: str) -> set[str]:
    """For a Latin key, `slips` (a key's words one letter off) as the key spells them, where that is another word:
    the letter put back in «utmhan» («Uthman», two letters swapped) makes «uthman», which the key spells «usman». A
    slip that the key makes two words or none is left out. The Arabic key folds letter by letter into the letters
    the slips are written in (ALPHABETS), so an Arabic slip is a key already: none."""
    if script != "latin":
        return set()
    return {key for slip in slips if len((key := latin.name_key(slip)).split()) == 1} - slips


def _keys_of(words: list[str]) -> list[tuple[str, str]]:
    """The keys (`word_keys`) of each word that may be a name's word slipped (MIN_SLIPPED letters or more), with
    the word, in a fixed order."""
    return [(key, word) for word in dict.fromkeys(words) if len(word) >= MIN_SLIPPED for key in sorted(word_keys(word))]


async def _unheld_words(db: RequestDatabase, words: list[str], script: str) -> tuple[list[str], set[str]]:
    """The words no name holds, in the query's order, and the names' words one letter off them (among others)."""
    keys = _keys_of(words)
    params = {"words": words, "script": script, "keys": [key for key, _ in keys], "key_words": [w for _, w in keys]}
    rows = await db.fetch(Bound(_unheld_words_statement(), params))
    unheld = {row["word"] for row in rows if row["near"] is None}
    return [word for word in words if word in unheld], {row["near"] for row in rows if row["near"] is not None}


@dataclass(frozen=True)
class _Slips:
    """A slipped name's words: those some name holds (`held`), and its other words' slips that some name holds."""

    held: list[str]
    named: list[str]


def _slips(words: list[str], unheld: list[str], near: Set[str], script: str) -> _Slips | None:
    """When one or two of the query's `words` (MOST_UNHELD), each of MIN_SLIPPED letters or more, are in no name form
    (`unheld`): their slips, with one letter dropped, doubled, or swapped with the next (and, in a word of MIN_EDITED
    letters or more, one letter added or changed: `wanted_terms`; a Latin one also as its key spells it,
    `_respelt`), that some name holds (those of `near`, and the respellings, which the statement looks up). None when
    every word is some name's, more are no name's, or no slip is."""
    if not unheld or len(unheld) > MOST_UNHELD or min(map(len, unheld)) < MIN_SLIPPED:
        return None
    slips = set().union(*wanted_terms(_ALPHABET[script], unheld, MIN_EDITED).values())
    named = (slips & near) | _respelt(slips, script)
    return _Slips([word for word in words if word not in unheld], sorted(named)) if named else None


def _indexed_slips(query: str, script: str, similar: Similar) -> _Slips | None:
    """`_slips` of the query as the name index reads them: its words that none of the keys' words is."""
    words = query.split()
    return _slips(words, [word for word in words if word not in similar.words], similar.words, script)


async def _slipped_hits(db: RequestDatabase, query: str, scope: NarratorScope, found: list[Row]) -> list[Row]:
    """The fuzzy hits of a query that names no narrator as it is written: the narrators, not among `found`, whose
    form holds one of its `_slips` and every other word of the query, the names' words read from search_name_word."""
    words = query.split()
    unheld, near = await _unheld_words(db, words, scope.script)
    slips = _slips(words, unheld, near, scope.script)
    if slips is None:
        return []
    params = {**_scope_params(scope), "query": query, "slips": slips.named, "held": slips.held}
    params["found"] = [row["narrator_id"] for row in found]
    return list(await db.fetch(Bound(_slipped_statement(bool(slips.held), _Filters.of(scope)), params)))


def _as_written(names: NameIndex, query: str, scope: NarratorScope) -> bool:
    """With no filter set, some key is the query or starts with it: a key hit is exact or prefix, and the trigram
    branch would not run (`_misspelt`), so the statement leaves it out."""
    return _Filters.of(scope) == _Filters(False, False, False) and names.as_written(query, scope.script)


def _name_bound(query: str, skeleton: str, scope: NarratorScope, similar: Similar, misspelt: bool) -> Bound:
    """The name statement of the query's shape, with its arguments: with the branch of the slipped names when the name
    index names slips (`_indexed_slips`)."""
    slips = _indexed_slips(query, scope.script, similar) if similar.checksum else None
    slipped = None if slips is None else bool(slips.held)
    statement = _name_statement(min(len(skeleton), MIN_SKELETON_PREFIX), _Filters.of(scope), misspelt, slipped)
    params = _name_params(query, skeleton, scope, similar)
    slipped_params = {} if slips is None else {"slips": slips.named, "held": slips.held}
    return Bound(statement, {**params, **slipped_params})


async def narrators_by_name(
    db: RequestDatabase, query: str, skeleton: str, scope: NarratorScope, names: NameIndex
) -> list[tuple[str, NarratorHitRecord]]:
    """Narrators one of whose name forms matches the query's key, each with the tier (NAME_TIERS) he matched
    in: every narrator of a tier before those of the next, `most` at most. The fuzzy tier also compares the
    query's consonant skeleton, and, when no other tier finds anyone, the words of the query no name holds
    with one letter off: within the statement, when the name index tells them (`_slipped_after`); else read after it
    (`_slipped_hits`), unless the statement's rows say the index, live, told them all."""
    misspelt = not _as_written(names, query, scope)
    similar = names.similar(query, scope.script) if misspelt else READ_THE_INDEX
    rows = list(await db.fetch(_name_bound(query, skeleton, scope, similar, misspelt)))
    told = bool(similar.checksum and rows and rows[0]["indexed"])  # the index, of the live import, named the slips
    if len(rows) < scope.most and all(row["tier"] == FUZZY_TIER for row in rows) and not told:
        rows = sorted([*rows, *await _slipped_hits(db, query, scope, rows)], key=_order)[: scope.most]
    return [_name_hit(row) for row in rows]
