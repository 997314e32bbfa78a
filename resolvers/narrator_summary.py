"""The narrator that navigation reaches (chain nodes, relations, search hits), and its hadith."""

from app.data.records import HadithRecord, NarratorRecord, Page
from app.execution.context import Context
from app.limits import NAVIGATION


async def load_narrator_summary(context: Context, narrator_id: int) -> NarratorRecord | None:
    return await context.loaders.narrator_by_id.load(narrator_id)


async def hadiths_of_narrator(context: Context, narrator_id: int, limit: int | None) -> Page[HadithRecord]:
    """The first hadith (by id) in which the narrator is a confirmed chain node."""
    loaders = context.loaders
    page = await loaders.hadith_ids_by_narrator_id.load((narrator_id, NAVIGATION.resolve(limit)))
    records = await loaders.hadith_by_id.load_many(list(page.items))
    return Page(items=tuple(record for record in records if record is not None), truncated=page.truncated)
