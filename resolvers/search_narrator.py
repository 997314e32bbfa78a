"""search_narrator: candidate narrators by any name form, tier by tier (exact, prefix, substring,
fulltext, fuzzy), with the filters. Every hit is an inference, never an identification.

An Arabic query is compared through app.text.arabic.name_key with the Arabic name forms; a Latin one
through app.text.latin.name_key with the Latin forms (the dataset's transliterations). The fuzzy tier also
compares consonant skeletons across scripts, so a Latin query can meet an Arabic form («Ibn Shihab»
and «ابن شهاب»). Each tier fills what the earlier ones left of `limit` (app/data/search.py runs them
all in one statement).
"""

from app.data import search
from app.data.records import NarratorHitRecord
from app.errors import InvalidInput, UnsupportedLanguage
from app.limits import SEARCH_NARRATOR
from app.text import arabic, latin
from resolvers.arguments import require_query, require_text
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources
from schema.info import Info
from schema.search import GRADE_TIERS, REGIONS, MatchTier, NarratorFilters, NarratorHit, NarratorSearchResult

LANGUAGES = ("ar", "latin", "auto")
GENERATIONS = range(1, 13)
FILTER_LENGTH = 100
REGION_KEYS = {latin.name_key(name): arabic.normalize(city) for city, names in REGIONS.items() for name in names}


def _hit(tier: MatchTier, record: NarratorHitRecord, sources: Sources) -> NarratorHit:
    narrator = record.narrator
    return NarratorHit(
        narrator_id=narrator.narrator_id,
        name_ar=narrator.name_ar,
        name_fr=narrator.name_fr,
        canonical_display=narrator.canonical_display,
        match_tier=tier,
        score=record.score,
        evidence_status=EvidenceStatus.inference,
        provenance=[
            Provenance.of(
                sources, narrator.narrator_id, ObjectType.narrator, narrator.source_id, source_key=narrator.source_key
            ),
            Provenance.of(
                sources,
                narrator.narrator_id,
                ObjectType.narrator,
                record.form_source_id,
                source_key=record.form_source_key,
                locator=f"name form: {record.matched_form}",
            ),
        ],
    )


def _generation(value: str | None) -> int | None:
    if value is None:
        return None
    text = value.strip()
    if not (text.isascii() and text.isdecimal()) or int(text) not in GENERATIONS:
        raise InvalidInput("filters.generation must be a tabaqa number from 1 to 12.")
    return int(text)


def _grade_tier(value: str | None) -> str | None:
    if value is not None and value.strip().lower() not in GRADE_TIERS:
        raise InvalidInput(f"filters.grade_tier must be one of: {', '.join(GRADE_TIERS)}.")
    return value.strip().lower() if value is not None else None


def _region(value: str | None) -> str | None:
    """The region's key: the Arabic name normalized, or the Arabic name of a Latin alias."""
    if value is None:
        return None
    city = require_text(value, "filters.region", FILTER_LENGTH)
    return arabic.normalize(city) if arabic.is_arabic(city) else REGION_KEYS.get(latin.name_key(city), city)


def _scope(filters: NarratorFilters | None, script: str, most: int) -> search.NarratorScope:
    given = filters or NarratorFilters()
    return search.NarratorScope(
        script=script,
        grade_tier=_grade_tier(given.grade_tier),
        region=_region(given.region),
        generation=_generation(given.generation),
        most=most,
    )


async def _tiers(
    info: Info, query: str, skeleton: str, scope: search.NarratorScope
) -> list[tuple[MatchTier, NarratorHitRecord]]:
    found = await search.narrators_by_name(info.context.db, query, skeleton, scope)
    return [(MatchTier[tier], record) for tier, record in found]


async def search_narrator(
    info: Info, query: str, query_language: str | None, filters: NarratorFilters | None, limit: int | None
) -> NarratorSearchResult:
    language = query_language or "auto"
    if language not in LANGUAGES:
        raise UnsupportedLanguage("query_language must be 'ar', 'latin' or 'auto'.")
    bound = SEARCH_NARRATOR.resolve(limit)
    text = require_query(query)
    script = ("ar" if arabic.is_arabic(text) else "latin") if language == "auto" else language
    names = arabic if script == "ar" else latin
    key, skeleton = names.name_key(text), names.skeleton(text)
    found = await _tiers(info, key, skeleton, _scope(filters, script, bound + 1)) if key else []
    sources = await info.context.sources.load(info.context.db)
    return NarratorSearchResult(
        results=[_hit(tier, record, sources) for tier, record in found[:bound]],
        truncated=len(found) > bound,
    )
