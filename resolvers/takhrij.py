"""Hadith.parallels and Hadith.isnad_tree: a hadith's parallels (the hadith whose matn is the same report), and
for the tree their chains and its own (schema/takhrij.py merges them, resolvers/tree_graph.py says how)."""

from app.data.records import TakhrijRecord
from app.errors import NotFound
from app.execution.context import Context
from app.limits import NAVIGATION


async def parallels_of_hadith(context: Context, hadith_id: int, limit: int | None) -> TakhrijRecord:
    found = await context.loaders.parallels_by_hadith_id.load((hadith_id, NAVIGATION.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    return found


async def isnad_tree_of_hadith(context: Context, hadith_id: int, limit: int | None) -> TakhrijRecord:
    found = await context.loaders.isnad_tree_by_hadith_id.load((hadith_id, NAVIGATION.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    return found
