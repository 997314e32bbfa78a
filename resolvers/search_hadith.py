"""search_hadith: candidate hadith by citation, Arabic wording or French wording, tier by tier.

Tiers run best first (reference, exact, fulltext, fuzzy); each fills what the earlier ones left of
`limit`, and fuzzy runs only when nothing better matched. Every hit is an inference.
"""

import re

from app.arabic import normalize
from app.data import search
from app.data.records import HadithHitRecord
from app.errors import UnsupportedLanguage
from app.limits import SEARCH_HADITH
from app.references import parse_citation
from resolvers.arguments import require_id, require_query
from resolvers.provenance import Sources, provenance
from schema.common import EvidenceStatus, ObjectType
from schema.info import Info
from schema.search import HadithHit, HadithSearchResult, MatchMethod

LANGUAGES = ("ar", "fr", "auto")
ARABIC = re.compile(r"[\u0600-\u06ff]")
LATIN_WORD = re.compile(r"\w+")
NO_FRENCH_COLLECTIONS = "No source gives French for Jami' at-Tirmidhi: its hadith cannot match a French query."
NOTHING_FOUND = "No hadith matched. Absence of a match is not evidence that no such hadith exists."

Found = list[tuple[MatchMethod, HadithHitRecord]]


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


async def _tiers(info: Info, query: str, language: str, scope: search.HadithScope) -> Found:
    db, found = info.context.db, []
    citation = parse_citation(query)
    if citation:
        found += [
            (MatchMethod.reference, r)
            for r in await search.hadith_by_citation(db, citation.code, citation.number, scope)
        ]
    if language == "fr":
        words = LATIN_WORD.findall(query.lower())
        rest = _rest(scope, found)
        if rest.most > 0 and words and not citation:
            found += [(MatchMethod.fulltext, r) for r in await search.hadith_by_french_words(db, words, rest)]
        return found
    phrase = normalize(query)
    for method, lookup in (
        (MatchMethod.exact, search.hadith_by_arabic_phrase),
        (MatchMethod.fulltext, None),
        (MatchMethod.fuzzy, search.hadith_by_arabic_fuzzy),
    ):
        rest = _rest(scope, found)
        if rest.most <= 0 or not phrase or (method is MatchMethod.fuzzy and found):
            break
        records = (
            await search.hadith_by_arabic_words(db, phrase.split(), rest)
            if lookup is None
            else await lookup(db, phrase, rest)
        )
        found += [(method, r) for r in records]
    return found


def _rest(scope: search.HadithScope, found: Found) -> search.HadithScope:
    return search.HadithScope(scope.collection_id, [r.hadith_id for _, r in found], scope.most - len(found))


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
        language = "ar" if ARABIC.search(text) else "fr"
    found = await _tiers(info, text, language, search.HadithScope(collection_id, [], bound + 1))
    sources = await info.context.sources.load(info.context.db)
    note = NOTHING_FOUND if not found else (NO_FRENCH_COLLECTIONS if language == "fr" else None)
    return HadithSearchResult(
        results=[_hit(method, record, sources) for method, record in found[:bound]],
        truncated=len(found) > bound,
        capability_note=note,
    )
