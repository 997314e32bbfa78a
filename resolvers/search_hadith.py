"""search_hadith: candidate hadith by citation, Arabic wording or French wording, tier by tier.

A query that reads as a citation, written or spoken (app/text/references.py, app/text/spoken_references.py),
is answered by the `reference` tier alone. A query in Latin letters that reads as Arabic (resolvers/romanized.py)
is answered by the Arabic tiers over its Arabic reading, each hit a `transliteration` hit; when it does not
read as Arabic, or that reading finds nothing, it is French.
Otherwise the tiers run best first on the query's language, each filling what the earlier ones left
of `limit`: `exact` (the normalized phrase), `fulltext` (every word; Arabic prefixes tolerated, French
stemmed), then `fuzzy` for hadith that nothing better matched (most words, each as said or one letter
off, ranked with the trigram similarity of query and text). Every hit is an inference.
"""

from dataclasses import dataclass

from app.data import search
from app.data.database import RequestDatabase
from app.data.records import HadithHitRecord
from app.errors import UnsupportedLanguage
from app.execution.context import Context
from app.limits import SEARCH_HADITH
from app.text import arabic, latin
from app.text.references import Citation, parse_citation
from app.text.spoken_references import spoken_citation
from resolvers.arguments import require_id, require_query
from resolvers.romanized import READ_AS_ARABIC, TRANSLITERATION, romanized_hits

LANGUAGES = ("ar", "fr", "auto")
MIN_FUZZY_LETTERS = 4  # shorter words must be heard right: one letter off, they are other words
NO_FRENCH = (
    "No source gives French for Jami' at-Tirmidhi, Muslim's Introduction or Ibn Majah's first section, nor "
    "for some Malik records: those hadith cannot match a French query."
)
REFERENCE = "reference"  # the match method of a citation
NOTHING_FOUND = "No hadith matched. Absence of a match is not evidence that no such hadith exists."
TWO_READINGS = (
    "The two numbers can be read as a hadith number ({number}) or as hadith {hadith} of book {book}: "
    "the hadith of both readings are candidates."
)

Found = list[tuple[str, HadithHitRecord]]  # (the match method, the hit)


@dataclass(frozen=True, slots=True)
class HadithCandidates:
    """The hits, best first, at most `limit`; whether more exist; what the answer must say of its coverage."""

    hits: Found
    truncated: bool
    capability_note: str | None


def _found_as(hits: search.HadithHits) -> Found:
    return list(hits)


def _rest(scope: search.HadithScope, found: Found) -> search.HadithScope:
    return search.HadithScope(scope.collection_id, [r.hadith_id for _, r in found], scope.most - len(found))


async def _arabic(db: RequestDatabase, query: str, scope: search.HadithScope) -> Found:
    """The exact and fulltext tiers, with the vocabulary when they leave room; then the fuzzy tier, if they
    left room: two statements at most."""
    phrase = arabic.normalize(query)
    in_order = " ".join(arabic.stem(word) for word in phrase.split())
    wording = search.Wording(phrase, list(dict.fromkeys(in_order.split())), in_order)
    hits, words = await search.hadith_then_fuzzy_words(db, "ar", wording, MIN_FUZZY_LETTERS, scope)
    found = _found_as(hits)
    rest = _rest(scope, found)
    if rest.most > 0:
        found += _found_as(await search.hadith_by_fuzzy_words(db, "ar", wording, words, rest))
    return found


async def _french(db: RequestDatabase, query: str, scope: search.HadithScope) -> Found:
    """The vocabulary (which words the French text search indexes, and their corrections), then every tier,
    over the words it indexes (stop words left out): two statements at most."""
    said = latin.words(query)
    words = list(dict.fromkeys(said))
    known = await search.fuzzy_words(db, "fr", words, MIN_FUZZY_LETTERS) if words else []
    content = [word.word for word in known]
    if not content:
        return []
    wording = search.Wording(" ".join(said), content, " ".join(said))
    return _found_as(await search.hadith_by_wording(db, "fr", wording, known, scope))


def _readings(citation: Citation) -> list[str]:
    if citation.in_book is None or citation.number is None:
        return []
    book, hadith = citation.in_book
    return [TWO_READINGS.format(number=citation.number, book=book, hadith=hadith)]


async def _cited(context: Context, citation: Citation, scope: search.HadithScope) -> Found:
    records = await search.hadith_by_citation(context.db, citation.code, citation.numbers(), citation.in_book, scope)
    return [(REFERENCE, record) for record in records]


async def _found(context: Context, query: str, language: str, scope: search.HadithScope) -> tuple[Found, list[str]]:
    """The hits, and what the answer must say of its coverage."""
    citation = parse_citation(query) or spoken_citation(query)
    if citation is not None:
        return await _cited(context, citation, scope), _readings(citation)
    db = context.db
    latin_letters = not arabic.is_arabic(query)
    if latin_letters and language != "fr":
        records, phrase = await romanized_hits(db, query, scope, sure=language == "ar")
        if records:
            return [(TRANSLITERATION, record) for record in records], [READ_AS_ARABIC.format(phrase=phrase)]
    if language == "fr" or (latin_letters and language == "auto"):
        return await _french(db, query, scope), [NO_FRENCH]
    return await _arabic(db, query, scope), []


async def search_hadith(
    context: Context, query: str, query_language: str | None, collection_id: int | None, limit: int | None
) -> HadithCandidates:
    language = query_language or "auto"
    if language not in LANGUAGES:
        raise UnsupportedLanguage("query_language must be 'ar', 'fr' or 'auto'.")
    bound = SEARCH_HADITH.resolve(limit)
    text = require_query(query)
    if collection_id is not None:
        require_id(collection_id, "collection_id")
    found, notes = await _found(context, text, language, search.HadithScope(collection_id, [], bound + 1))
    notes = notes if found else [NOTHING_FOUND, *notes]
    return HadithCandidates(found[:bound], len(found) > bound, " ".join(notes) or None)
