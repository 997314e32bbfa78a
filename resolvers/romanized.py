"""search_hadith for a query in Latin letters that reads as Arabic (app/text/transliteration.py).

A query may be Arabic when none of its words is spelled with letters Arabic transliteration never uses
and at most MAX_FUNCTION_SHARE of them are French or English function words; then the candidate
spellings of every word are looked up in the Arabic vocabulary (one statement): only real words survive.
It reads as Arabic when at least MIN_KNOWN_SHARE of its other words have a spelling the corpus holds.
Each word's spellings are ranked by likelihood (the log of how many texts hold it, LENGTH_WEIGHT per
letter, less COST_WEIGHT per unlikely letter); the likeliest make the phrase of the exact and fulltext
tiers, and the READINGS likeliest each count as the word itself in the fuzzy tier, and stand for the word
in its «phrase but for one word» query, so that the corpus chooses among them; the three tiers run as one
statement. Every hit is a `transliteration` hit, an
inference; its score keeps the order of the tiers: (2 + s) / 3 for an exact hit of score s, (1 + s) / 3
fulltext, s / 3 fuzzy.
"""

import math
from dataclasses import dataclass, replace

from app.data import search
from app.data.database import RequestDatabase
from app.data.records import HadithHitRecord
from app.text import arabic, transliteration
from app.text.transliteration import ArabicWord

MAX_FUNCTION_SHARE = 0.4  # French or English function words a query that reads as Arabic may hold
MIN_KNOWN_SHARE = 0.75  # of its other words, those that must have a spelling the vocabulary holds
LENGTH_WEIGHT = 1.0  # per letter of a spelling: a frequent short word (ما, من) must not hide a longer one
READINGS = 8  # spellings of a word the fuzzy tier accepts, the likeliest
COST_WEIGHT = 3.0  # per unlikely letter, against the natural log of a spelling's document count
TRANSLITERATION = "transliteration"  # the match method of a hit found through the reading
READ_AS_ARABIC = (
    "The query was read as Arabic written in Latin letters («{phrase}»): the hits are candidates of that "
    "reading (match_method transliteration)."
)


@dataclass(frozen=True)
class Spelled:
    """A stem a word's spelling gives: the spelling's cost, the spelling with its prefixes (as the phrase
    writes it), and the letters of the stem that the word's own spelling says (not an article the stem keeps:
    «al-hayy» الحي, 2)."""

    cost: int
    written: str
    letters: int


def _stems(word: ArabicWord) -> dict[str, Spelled]:
    """Each stem the word's spellings give, stemmed with the prefixes said as the index stems the text's words
    («الكلمه» -> كلمه, «الذي» stays), at its cheapest."""
    stems: dict[str, Spelled] = {}
    for spelling, said in word.candidates:
        written = arabic.normalize(word.prefixes + spelling)
        stem = arabic.stem(written)
        cost = said + (len(stem) < len(spelling) and spelling[0] in "وف")  # «wala» is ولا more likely than و + الي
        if stem not in stems or cost < stems[stem].cost:
            stems[stem] = Spelled(cost, written, min(len(stem), len(spelling)))
    return stems


def _likeliest(known: search.FuzzyWord, stems: dict[str, Spelled]) -> search.FuzzyWord:
    """The word with its READINGS likeliest spellings that the vocabulary holds, the likeliest first, each
    counting as the word itself in the fuzzy tier."""
    likelihood = {
        term: math.log(1 + count) + LENGTH_WEIGHT * stems[term].letters - COST_WEIGHT * stems[term].cost
        for term, count in zip(known.terms, known.counts, strict=True)
    }
    terms = tuple(sorted(known.terms, key=lambda term: -likelihood[term])[:READINGS])
    counts = tuple(known.counts[known.terms.index(term)] for term in terms)
    rare = tuple(term for term in terms if term in known.rare)
    return replace(known, terms=terms, counts=counts, rare=rare, readings=frozenset(terms))


def _wording(said: list[str]) -> search.Wording:
    phrase = arabic.normalize(" ".join(said).replace("لالله", "لله"))
    in_order = [arabic.stem(word) for word in phrase.split()]
    return search.Wording(phrase, list(dict.fromkeys(in_order)), " ".join(in_order))


def _banded(tier: str, record: HadithHitRecord) -> HadithHitRecord:
    band = len(search.HADITH_TIERS) - 1 - search.HADITH_TIERS.index(tier)
    score = None if record.score is None else round((band + record.score) / len(search.HADITH_TIERS), 4)
    return replace(record, score=score)


def _may_be_arabic(query: str) -> bool:
    signs = transliteration.latin_signs(query)
    return signs.spelled == 0 and signs.function_share <= MAX_FUNCTION_SHARE


def _known_enough(words: list[ArabicWord], known: list[search.FuzzyWord]) -> bool:
    content = [
        spelled for word, spelled in zip(words, known, strict=True) if not transliteration.is_function_word(word.latin)
    ]
    return sum(bool(word.terms) for word in content) >= max(1, MIN_KNOWN_SHARE * len(content))


async def romanized_hits(
    db: RequestDatabase, query: str, scope: search.HadithScope, sure: bool
) -> tuple[list[HadithHitRecord], str | None]:
    """The hits of the query read as Arabic, and the Arabic phrase it was read as; none when it does not read
    as Arabic (`sure`: the caller said it is Arabic, only the vocabulary decides)."""
    if not (sure or _may_be_arabic(query)):
        return [], None
    words = transliteration.reading(query)
    if not words:
        return [], None
    spellings = [_stems(word) for word in words]
    keys = [f"{index} {word.latin}" for index, word in enumerate(words)]  # one per word, said twice or not
    wanted = {key: set(stems) for key, stems in zip(keys, spellings, strict=True)}
    known = await search.known_words(db, "ar", wanted, sorted(set().union(*wanted.values())))
    if not (any(word.terms for word in known) if sure else _known_enough(words, known)):
        return [], None
    readings = [_likeliest(word, stems) if word.terms else word for word, stems in zip(known, spellings, strict=True)]
    said = [stems[word.terms[0]].written for word, stems in zip(readings, spellings, strict=True) if word.terms]
    wording = _wording(said)
    hits = await search.hadith_by_wording(db, "ar", wording, readings, scope)
    return [_banded(tier, record) for tier, record in hits], wording.phrase
