"""get_narrator_profile: identity, legacy dataset fields, rijal entries and scholarly assertions, kept apart."""

from app.data.records import ProfileRecord
from app.errors import NotFound
from app.execution.context import Context
from app.limits import NAME_VARIANTS_MAX, NARRATOR_ENTRIES
from resolvers.arguments import require_id


async def get_narrator_profile(context: Context, narrator_id: int, entry_limit: int | None) -> ProfileRecord:
    bound = NARRATOR_ENTRIES.resolve(entry_limit)
    narrator_id = require_id(narrator_id, "narrator_id")
    profile = await context.loaders.profile_by_narrator_id.load((narrator_id, NAME_VARIANTS_MAX, bound))
    if profile is None:
        raise NotFound("No narrator has this id.")
    return profile
