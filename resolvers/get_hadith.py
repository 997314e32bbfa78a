"""get_hadith: one canonical hadith with its collection, book, chapter, texts and provenance."""

from app.data.records import HadithRecord
from app.errors import NotFound
from app.execution.context import Context
from resolvers.arguments import require_id


async def load_hadith(context: Context, hadith_id: int) -> HadithRecord:
    record = await context.loaders.hadith_by_id.load(hadith_id)
    if record is None:
        raise NotFound("No hadith has this id.")
    return record


async def get_hadith(context: Context, hadith_id: int) -> HadithRecord:
    return await load_hadith(context, require_id(hadith_id, "hadith_id"))
