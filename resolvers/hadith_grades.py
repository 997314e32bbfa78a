"""A hadith's grades, as its sources attribute them to graders (schema/grade.py says how sure each attribution is)."""

from app.data.records import HadithGradesRecord
from app.errors import NotFound
from app.execution.context import Context
from app.limits import NAVIGATION


async def grades_of_hadith(context: Context, hadith_id: int, limit: int | None) -> HadithGradesRecord:
    found = await context.loaders.grades_by_hadith_id.load((hadith_id, NAVIGATION.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    return found
