"""Hadith.parallels and Hadith.isnad_tree: a hadith's parallels (the hadith whose matn is the same report), and
for the tree their chains and its own (schema/hadith.py merges them, schema/takhrij.py maps the parts,
resolvers/tree_graph.py says how)."""

from strawberry.dataloader import DataLoader

from app.data.hadith import BoundedKey
from app.data.records import TakhrijRecord
from app.errors import NotFound
from app.execution.context import Context
from app.limits import NAVIGATION


async def _found(
    loader: DataLoader[BoundedKey, TakhrijRecord | None], hadith_id: int, limit: int | None
) -> TakhrijRecord:
    found = await loader.load((hadith_id, NAVIGATION.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    return found


async def parallels_of_hadith(context: Context, hadith_id: int, limit: int | None) -> TakhrijRecord:
    return await _found(context.loaders.parallels_by_hadith_id, hadith_id, limit)


async def isnad_tree_of_hadith(context: Context, hadith_id: int, limit: int | None) -> TakhrijRecord:
    return await _found(context.loaders.isnad_tree_by_hadith_id, hadith_id, limit)
