"""The reader's hadith: a page of them, a hadith's neighbours, a hadith by its number, and a hadith of the day.

The hadith of the day is picked by a seed, the first 63 bits of SHA-256 of the date and the collection asked:
the rank `seed mod (the hadith asked among)` in the collection's order (every collection's, by id, when none is
asked). The same date and collection give the same hadith as long as the data is the same, so that a cache may
keep the answer.
"""

import hashlib
from collections.abc import Sequence
from datetime import date

from strawberry.dataloader import DataLoader

from app.data.reading import PageKey
from app.data.records import Page as RecordPage
from app.errors import NotFound
from app.limits import READING_HADITH
from resolvers.arguments import require_id
from resolvers.get_hadith import hadith_from_record, load_hadith
from resolvers.reading_common import load_numbered, load_page
from schema.hadith import Hadith
from schema.info import Info
from schema.reading import Page


async def hadiths_of_ids(info: Info, ids: Sequence[int]) -> list[Hadith]:
    """The hadith of these ids, in their order (one batched statement for all those of a level)."""
    records = await info.context.loaders.hadith_by_id.load_many(list(ids))
    sources = await info.context.sources.load(info.context.db)
    return [hadith_from_record(record, sources) for record in records if record is not None]


async def hadith_page(
    info: Info, loader: DataLoader[PageKey, RecordPage[int]], parent_id: int, page: int | None, limit: int | None
) -> Page[Hadith]:
    number, found = await load_page(loader, parent_id, page, limit, READING_HADITH)
    return Page(page=number, items=await hadiths_of_ids(info, found.items), truncated=found.truncated)


async def neighbour(info: Info, hadith_id: int, *, following: bool) -> Hadith | None:
    found = await info.context.loaders.neighbours_by_hadith_id.load(hadith_id)
    other = None if found is None else found.next_id if following else found.previous_id
    return None if other is None else await load_hadith(info, other)


async def hadith_of_collection(info: Info, collection_id: int, number: str) -> Hadith:
    loader = info.context.loaders.hadith_id_by_number
    found = await load_numbered(loader, collection_id, number, "No hadith of this collection has this number.")
    return await load_hadith(info, found)


def seed_of(day: date, collection_id: int | None) -> int:
    digest = hashlib.sha256(f"{day.isoformat()}/{collection_id or '*'}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


async def random_hadith(info: Info, day: date, collection_id: int | None) -> Hadith:
    """The hadith of the day for this date, among the collection's (every collection's when null)."""
    if collection_id is not None:
        require_id(collection_id, "collection_id")
    found = await info.context.loaders.hadith_id_by_seed.load((seed_of(day, collection_id), collection_id))
    if found is None:
        raise NotFound("No collection has this id.")
    return await load_hadith(info, found)
