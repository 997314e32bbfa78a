"""search_hadith: candidate hadith by citation, Arabic wording or French wording, tier by tier.

A query that reads as a citation (app/references.py) is answered by the `reference` tier alone.
Otherwise the tiers run best first on the query's language, each filling what the earlier ones left
of `limit`: `exact` (the normalized phrase), `fulltext` (every word; Arabic prefixes tolerated, French
stemmed), then `fuzzy` for hadith that nothing better matched (most words, each as said or one letter
off, ranked with the trigram similarity of query and text). Every hit is an inference.
"""

from collections.abc import Awaitable, Callable

from app import arabic, latin
from app.data import search
from app.data.records import HadithHitRecord
from app.database import RequestDatabase
from app.errors import UnsupportedLanguage
from app.limits import SEARCH_HADITH
from app.references import Citation, parse_citation
from resolvers.arguments import require_id, require_query
from resolvers.provenance import Sources, provenance
from schema.common import EvidenceStatus, ObjectType
from schema.info import Info
from schema.search import HadithHit, HadithSearchResult, MatchMethod

LANGUAGES = ("ar", "fr", "auto")
MIN_FUZZY_LETTERS = 4  # shorter words must be heard right: one letter off, they are other words
NO_FRENCH = (
    "No source gives French for Jami' at-Tirmidhi, Muslim's Introduction or Ibn Majah's first section, nor "
    "for some Malik records: those hadith cannot match a French query."
)
NOTHING_FOUND = "No hadith matched. Absence of a match is not evidence that no such hadith exists."
TWO_READINGS = (
    "The two numbers can be read as a hadith number ({number}) or as hadith {hadith} of book {book}: "
    "the hadith of both readings are candidates."
)

Found = list[tuple[MatchMethod, HadithHitRecord]]
Tier = Callable[[search.HadithScope], Awaitable[list[HadithHitRecord]]]
Tiers = list[tuple[MatchMethod, Tier]]


def _hit(method: MatchMethod, record: HadithHitRecord, sources: Sources) -> HadithHit:
    entries = [
        provenance(
            sources,
            record.hadith_id,
            ObjectType.hadith,
            record.source_id,
            source_key=record.source_key,
            edition_id=record.edition_id,
            locator=record.canonical_reference,
        )
    ]
    if record.text_fr is not None and record.text_fr_edition_id:
        entries.append(
            provenance(
                sources,
                record.hadith_id,
                ObjectType.hadith,
                "hadith-api",
                edition_id=record.text_fr_edition_id,
                locator=record.canonical_reference,
            )
        )
    return HadithHit(
        hadith_id=record.hadith_id,
        canonical_reference=record.canonical_reference,
        text_ar=record.text_ar,
        text_fr=record.text_fr,
        match_method=method,
        score=record.score,
        evidence_status=EvidenceStatus.inference,
        provenance=entries,
    )


def _rest(scope: search.HadithScope, found: Found) -> search.HadithScope:
    return search.HadithScope(scope.collection_id, [r.hadith_id for _, r in found], scope.most - len(found))


async def _run(tiers: Tiers, scope: search.HadithScope) -> Found:
    """The tiers in order, each on what the earlier ones left of the limit."""
    found: Found = []
    for method, tier in tiers:
        rest = _rest(scope, found)
        if rest.most > 0:
            found += [(method, record) for record in await tier(rest)]
    return found


def _arabic(db: RequestDatabase, query: str) -> Tiers:
    phrase = arabic.normalize(query)
    in_order = " ".join(arabic.stem(word) for word in phrase.split())
    stems = list(dict.fromkeys(in_order.split()))

    async def fuzzy(scope: search.HadithScope) -> list[HadithHitRecord]:
        words = await search.fuzzy_words(db, "ar", stems, MIN_FUZZY_LETTERS)
        return await search.hadith_by_fuzzy_words(db, "ar", in_order, words, scope)

    return [
        (MatchMethod.exact, lambda scope: search.hadith_by_phrase(db, "ar", phrase, scope)),
        (MatchMethod.fulltext, lambda scope: search.hadith_by_terms(db, "ar", stems, in_order, scope)),
        (MatchMethod.fuzzy, fuzzy),
    ]


async def _french(db: RequestDatabase, query: str) -> Tiers:
    """The French tiers, over the words the French text search indexes (stop words left out)."""
    said = latin.words(query)
    words = list(dict.fromkeys(said))
    known = await search.fuzzy_words(db, "fr", words, MIN_FUZZY_LETTERS) if words else []
    content = [word.word for word in known]

    async def fuzzy(scope: search.HadithScope) -> list[HadithHitRecord]:
        return await search.hadith_by_fuzzy_words(db, "fr", " ".join(said), known, scope)

    if not content:
        return []
    return [
        (MatchMethod.exact, lambda scope: search.hadith_by_phrase(db, "fr", " ".join(said), scope)),
        (MatchMethod.fulltext, lambda scope: search.hadith_by_terms(db, "fr", content, " ".join(said), scope)),
        (MatchMethod.fuzzy, fuzzy),
    ]


def _readings(citation: Citation) -> list[str]:
    if citation.in_book is None or citation.number is None:
        return []
    book, hadith = citation.in_book
    return [TWO_READINGS.format(number=citation.number, book=book, hadith=hadith)]


async def _cited(info: Info, citation: Citation, scope: search.HadithScope) -> Found:
    records = await search.hadith_by_citation(
        info.context.db, citation.code, citation.numbers(), citation.in_book, scope
    )
    return [(MatchMethod.reference, record) for record in records]


async def _found(info: Info, query: str, language: str, scope: search.HadithScope) -> tuple[Found, list[str]]:
    """The hits, and what the answer must say of its coverage."""
    citation = parse_citation(query)
    if citation is not None:
        return await _cited(info, citation, scope), _readings(citation)
    db = info.context.db
    if language == "fr":
        return await _run(await _french(db, query), scope), [NO_FRENCH]
    return await _run(_arabic(db, query), scope), []


async def search_hadith(
    info: Info, query: str, query_language: str | None, collection_id: int | None, limit: int | None
) -> HadithSearchResult:
    language = query_language or "auto"
    if language not in LANGUAGES:
        raise UnsupportedLanguage("query_language must be 'ar', 'fr' or 'auto'.")
    bound = SEARCH_HADITH.resolve(limit)
    text = require_query(query)
    if collection_id is not None:
        require_id(collection_id, "collection_id")
    if language == "auto":
        language = "ar" if arabic.is_arabic(text) else "fr"
    found, notes = await _found(info, text, language, search.HadithScope(collection_id, [], bound + 1))
    sources = await info.context.sources.load(info.context.db)
    notes = notes if found else [NOTHING_FOUND, *notes]
    return HadithSearchResult(
        results=[_hit(method, record, sources) for method, record in found[:bound]],
        truncated=len(found) > bound,
        capability_note=" ".join(notes) or None,
    )
