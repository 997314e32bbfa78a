"""search_narrator: candidate narrators by any name form, tier by tier (exact, prefix, substring,
fulltext, fuzzy), with the filters. Every hit is an inference, never an identification.

An Arabic query is compared through app.text.arabic.name_key with the Arabic name forms; a Latin one
through app.text.latin.name_key with the Latin forms (the dataset's transliterations). The fuzzy tier also
compares consonant skeletons across scripts, so a Latin query can meet an Arabic form («Ibn Shihab»
and «ابن شهاب»); reads the forms similar to a query that no form is or starts with (a name as written is no
misspelling); and, when no other tier finds anyone, a word no name holds is read one letter off («عائششة»).
Each tier fills what the earlier ones left of `limit` (app/data/search/names.py runs them all in one statement,
then that last reading when it is needed).
"""

from dataclasses import dataclass
from typing import Protocol

from app.data import search
from app.data.records import NarratorHitRecord
from app.errors import InvalidInput, UnsupportedLanguage
from app.execution.context import Context
from app.limits import SEARCH_NARRATOR
from app.text import arabic, latin
from resolvers.arguments import require_query, require_text

# The values of search_narrator's filters (listed in their descriptions).
GRADE_TIERS = ("companion", "thiqa", "saduq", "maqbul", "daif", "matruk", "majhul")
# The regions most narrators have (AR-Sanad's living city, in Arabic), with the Latin names also accepted.
REGIONS = {
    "الكوفة": ("Kufa", "Koufa", "al-Kufa"),
    "البصرة": ("Basra", "Bassora", "al-Basra"),
    "بغداد": ("Baghdad",),
    "مصر": ("Egypt", "Misr", "Egypte"),
    "المدينة": ("Medina", "Madina", "Madinah", "Medine"),
    "مكة": ("Mecca", "Makka", "Makkah", "La Mecque"),
    "دمشق": ("Damascus", "Dimashq", "Damas"),
    "الشام": ("Sham", "Syria", "Levant", "Syrie"),
    "نيسابور": ("Nishapur", "Naysabur", "Nichapur"),
    "حمص": ("Homs", "Hims"),
    "طرسوس": ("Tarsus",),
    "أصبهان": ("Isfahan", "Asbahan", "Ispahan"),
    "مرو": ("Merv", "Marw"),
    "الري": ("Rayy", "Ray"),
    "العراق": ("Iraq", "Irak"),
    "واسط": ("Wasit",),
    "بلخ": ("Balkh",),
    "اليمن": ("Yemen",),
}
LANGUAGES = ("ar", "latin", "auto")
GENERATIONS = range(1, 13)
FILTER_LENGTH = 100
REGION_KEYS = {latin.name_key(name): arabic.normalize(city) for city, names in REGIONS.items() for name in names}
Found = list[tuple[str, NarratorHitRecord]]  # (the match tier, the hit)


class Filters(Protocol):
    """search_narrator's filters, as the schema's input gives them; None means no filter."""

    grade_tier: str | None
    region: str | None
    generation: str | None


@dataclass(frozen=True, slots=True)
class NarratorCandidates:
    """The hits, best first, at most `limit`, and whether more exist."""

    hits: Found
    truncated: bool


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


def _scope(filters: Filters | None, script: str, most: int) -> search.NarratorScope:
    grade_tier, region, generation = (
        (filters.grade_tier, filters.region, filters.generation) if filters else (None,) * 3
    )
    return search.NarratorScope(
        script=script,
        grade_tier=_grade_tier(grade_tier),
        region=_region(region),
        generation=_generation(generation),
        most=most,
    )


async def search_narrator(
    context: Context, query: str, query_language: str | None, filters: Filters | None, limit: int | None
) -> NarratorCandidates:
    language = query_language or "auto"
    if language not in LANGUAGES:
        raise UnsupportedLanguage("query_language must be 'ar', 'latin' or 'auto'.")
    bound = SEARCH_NARRATOR.resolve(limit)
    text = require_query(query)
    script = ("ar" if arabic.is_arabic(text) else "latin") if language == "auto" else language
    names = arabic if script == "ar" else latin
    key, skeleton = names.name_key(text), names.skeleton(text)
    scope = _scope(filters, script, bound + 1)
    found = list(await search.narrators_by_name(context.db, key, skeleton, scope, context.names)) if key else []
    return NarratorCandidates(found[:bound], len(found) > bound)
