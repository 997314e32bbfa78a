"""The vocabulary of the hadith texts: which query words the fulltext search indexes, and the terms one letter
off each (their corrections), which the fuzzy tier looks for."""

import functools
import math
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import (
    Select,
    String,
    Text,
    any_,
    select,
)

from app.data import tables as t
from app.data.database import Bound, RequestDatabase, Row
from app.data.search.common import ALPHABETS, RARE_TERM, FuzzyWord, array, param


def _splits(word: str) -> list[tuple[str, str]]:
    return [(word[:i], word[i:]) for i in range(len(word) + 1)]


def _deletions(word: str) -> set[str]:
    return {a + b[1:] for a, b in _splits(word) if b}


def slips(word: str, alphabet: str) -> set[str]:
    """The strings `word` can be when it was said or written with one letter dropped (one inserted back),
    one letter doubled (one of the two taken out), or two letters swapped."""
    splits = _splits(word)
    inserted = {a + ch + b for a, b in splits for ch in alphabet}
    undoubled = {a + b[1:] for a, b in splits if len(b) > 1 and b[0] == b[1]}
    swapped = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    return inserted | undoubled | swapped


def edits(word: str, alphabet: str) -> set[str]:
    """The strings one deletion, transposition, substitution or insertion away from `word`."""
    replaced = {a + ch + b[1:] for a, b in _splits(word) if b for ch in alphabet}
    return slips(word, alphabet) | _deletions(word) | replaced


def word_keys(word: str) -> set[str]:
    """The keys of a word (search_term_key, search_name_word): the word, and the word with any one letter deleted.
    A word one letter off another (a letter dropped, added, changed, or two swapped) shares one of its keys."""
    return {word} | _deletions(word)


def near_keys(words: Iterable[str]) -> list[str]:
    """The keys (search_term_key) that find each word and every term one letter off it (`word_keys`)."""
    return sorted(set().union(*(word_keys(word) for word in words)))


@functools.cache
def vocabulary_statement(language: str) -> Select[Any]:
    """The terms of the vocabulary of `:language` that one of `:keys` finds (search_term_key; a term that two keys
    find comes twice), with their document counts, and whether the text search indexes them (French stop words it
    does not)."""
    k = t.search_term_key
    return select(k.c.term, k.c.doc_count, k.c.indexed).where(
        k.c.language == param("language", String), k.c.key == any_(array("keys", Text))
    )


def wanted_terms(language: str, words: Sequence[str], shortest: int) -> dict[str, set[str]]:
    """Each word, with the strings one letter off it (words under `shortest` letters: only those it can be
    with a letter dropped, doubled or two swapped, never another letter in its place)."""
    alphabet = ALPHABETS[language]
    return {word: {word} | (edits if len(word) >= shortest else slips)(word, alphabet) for word in words}


def vocabulary_params(language: str, keys: list[str]) -> dict[str, Any]:
    return {"language": language, "keys": keys}


def corrections(wanted: dict[str, set[str]], vocabulary: Sequence[Row]) -> list[FuzzyWord]:
    """Each wanted word with its strings that the vocabulary holds (rows of `vocabulary_statement`), weighted by
    rarity (inverse document frequency). A word the text search does not index (a French stop word) is left out."""
    counts = {row["term"]: row["doc_count"] for row in vocabulary if row["indexed"]}
    stop = {row["term"] for row in vocabulary if not row["indexed"]}
    # The keys also find terms that no word accepts: they count for nothing, in the total either.
    held = {word: candidates & counts.keys() for word, candidates in wanted.items()}
    total = max((counts[term] for terms in held.values() for term in terms), default=1) + 1
    found = []
    for word, accepted in held.items():
        # The word itself first, then the commonest; among equals, in their letters' order, never in the set's
        # (which each process orders by its own string hashes).
        terms = sorted(accepted, key=lambda term: (term != word, -counts[term], term))
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
    return await known_words(db, language, wanted_terms(language, words, shortest), near_keys(words))


async def known_words(
    db: RequestDatabase, language: str, wanted: dict[str, set[str]], keys: list[str]
) -> list[FuzzyWord]:
    """Each wanted word with those of its candidate terms that the vocabulary holds, most frequent first (the
    word itself first when known), weighted by rarity; a French stop word is left out. `keys` find them all
    (search_term_key): the candidate terms themselves, or `near_keys` of words for the terms one letter off."""
    rows = await db.fetch(Bound(vocabulary_statement(language), vocabulary_params(language, keys)))
    return corrections(wanted, rows)
