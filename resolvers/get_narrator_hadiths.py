"""get_narrator_hadiths: a page of a narrator's confirmed occurrences in chains, with the full counts."""

from dataclasses import dataclass

from app.data.records import OccurrencePageRecord
from app.errors import NotFound
from app.execution.context import Context
from app.limits import NARRATOR_HADITHS
from resolvers.arguments import require_id, require_page


@dataclass(frozen=True, slots=True)
class Occurrences:
    """The page asked for, by its number, of one narrator's occurrences."""

    narrator_id: int
    page: int
    found: OccurrencePageRecord


async def get_narrator_hadiths(context: Context, narrator_id: int, page: int | None, limit: int | None) -> Occurrences:
    bound = NARRATOR_HADITHS.resolve(limit)
    number = require_page(page)
    narrator_id = require_id(narrator_id, "narrator_id")
    found = await context.loaders.occurrence_page_by_narrator_id.load((narrator_id, number, bound))
    if found is None:
        raise NotFound("No narrator has this id.")
    return Occurrences(narrator_id, number, found)
