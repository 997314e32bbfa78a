"""The narrator summary that navigation reaches (chain nodes, relations, search hits), and its hadith."""

from app.data.records import NarratorRecord
from app.limits import NAVIGATION
from resolvers.get_hadith import hadith_from_record
from schema.info import Info
from schema.narrator import HadithList, NarratorSummary


def summary_from_record(record: NarratorRecord) -> NarratorSummary:
    return NarratorSummary(
        narrator_id=record.narrator_id,
        name_ar=record.name_ar,
        name_fr=record.name_fr,
        canonical_display=record.canonical_display,
        generation=record.generation,
        grade_tier=record.grade_tier,
        region=record.region,
        death_year_hijri=record.death_year_hijri,
    )


async def load_narrator_summary(info: Info, narrator_id: int) -> NarratorSummary | None:
    record = await info.context.loaders.narrator_by_id.load(narrator_id)
    return None if record is None else summary_from_record(record)


async def hadiths_of_narrator(info: Info, narrator_id: int, limit: int | None) -> HadithList:
    """The first hadith (by id) in which the narrator is a confirmed chain node."""
    loaders = info.context.loaders
    page = await loaders.hadith_ids_by_narrator_id.load((narrator_id, NAVIGATION.resolve(limit)))
    records = await loaders.hadith_by_id.load_many(list(page.items))
    sources = await info.context.sources.load(info.context.db)
    hadiths = [hadith_from_record(record, sources) for record in records if record is not None]
    return HadithList(items=hadiths, truncated=page.truncated)
