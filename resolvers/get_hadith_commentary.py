"""get_hadith_commentary: the published, validated commentary passages on a hadith (the public view only)."""

from dataclasses import dataclass

from app.data.records import Page, PassageRecord
from app.errors import NotFound, UnsupportedLanguage
from app.execution.context import Context
from app.limits import HADITH_COMMENTARY
from resolvers.arguments import require_id

LANGUAGES = (None, "ar", "fr")
NO_FRENCH = (
    "No source gives a French translation of any commentary; the Arabic passages are returned with "
    "language 'ar' or null."
)
NO_PASSAGE = (
    "No published, validated commentary passage is aligned to this hadith. The sources cover Nasa'i, "
    "Muslim, Ibn Majah, Tirmidhi and the Nawawi forty only; absence is not evidence that no commentary exists."
)


@dataclass(frozen=True, slots=True)
class Commentary:
    """The passages a request gets, and what the answer must say of them."""

    hadith_id: int
    passages: Page[PassageRecord]
    capability_note: str | None


async def get_hadith_commentary(
    context: Context, hadith_id: int, language: str | None, limit: int | None
) -> Commentary:
    if language not in LANGUAGES:
        raise UnsupportedLanguage("language must be 'fr', 'ar' or null.")
    bound = HADITH_COMMENTARY.resolve(limit)
    hadith_id = require_id(hadith_id, "hadith_id")
    page = await context.loaders.passages_by_hadith_id.load((hadith_id, bound))
    if page is None:
        raise NotFound("No hadith has this id.")
    if language == "fr":
        return Commentary(hadith_id, Page(items=(), truncated=False), NO_FRENCH)
    return Commentary(hadith_id, page, None if page.items else NO_PASSAGE)
