"""A narrator's teachers and his students, as his profile lists them (beyond the contract): the relations that
sources record with him on that side, each with the status its source gives."""

from app.data.records import TeachingRecord
from app.execution.context import Context
from app.limits import NARRATOR_RELATIONS


async def teachers_of_narrator(context: Context, narrator_id: int, limit: int | None) -> TeachingRecord:
    return await context.loaders.teachers_by_narrator_id.load((narrator_id, NARRATOR_RELATIONS.resolve(limit)))


async def students_of_narrator(context: Context, narrator_id: int, limit: int | None) -> TeachingRecord:
    return await context.loaders.students_by_narrator_id.load((narrator_id, NARRATOR_RELATIONS.resolve(limit)))
