"""get_hadith_chains: the observed chains of a hadith, each node keeping its own resolution status."""

from app.data.records import HadithChainsRecord
from app.errors import NotFound
from app.execution.context import Context
from app.limits import HADITH_CHAINS
from resolvers.arguments import require_id


async def chains_of_hadith(context: Context, hadith_id: int, limit: int | None) -> HadithChainsRecord:
    found = await context.loaders.chains_by_hadith_id.load((hadith_id, HADITH_CHAINS.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    return found


async def get_hadith_chains(context: Context, hadith_id: int, limit: int | None) -> HadithChainsRecord:
    return await chains_of_hadith(context, require_id(hadith_id, "hadith_id"), limit)
