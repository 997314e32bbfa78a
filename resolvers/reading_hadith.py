"""The reader's hadith: a page of them, a hadith's neighbours, a hadith by its number, and a hadith of the day.

The hadith of the day is picked by a seed, the first 63 bits of SHA-256 of the date and the collection asked:
the rank `seed mod (the hadith asked among)` in the collection's order (every collection's, by id, when none is
asked). The same date and collection give the same hadith as long as the data is the same, so that a cache may
keep the answer.
"""

import hashlib
from datetime import date

from strawberry.dataloader import DataLoader

from app.data.reading import PageKey
from app.data.records import HadithRecord, Page
from app.errors import NotFound
from app.execution.context import Context
from app.limits import READING_HADITH
from resolvers.arguments import require_id
from resolvers.get_hadith import load_hadith
from resolvers.reading_common import NumberedPage, load_numbered, load_page


async def hadith_page(
    context: Context, loader: DataLoader[PageKey, Page[int]], parent_id: int, page: int | None, limit: int | None
) -> NumberedPage[HadithRecord]:
    """A page of the parent's hadith: their ids in one statement, then the hadith in one more."""
    ids = await load_page(loader, parent_id, page, limit, READING_HADITH)
    records = await context.loaders.hadith_by_id.load_many(list(ids.found.items))
    found = tuple(record for record in records if record is not None)
    return NumberedPage(ids.page, Page(found, ids.found.truncated))


async def neighbour(context: Context, hadith_id: int, *, following: bool) -> HadithRecord | None:
    found = await context.loaders.neighbours_by_hadith_id.load(hadith_id)
    other = None if found is None else found.next_id if following else found.previous_id
    return None if other is None else await load_hadith(context, other)


async def hadith_of_collection(context: Context, collection_id: int, number: str) -> HadithRecord:
    missing = "No hadith of this collection has this number."
    found = await load_numbered(context.loaders.hadith_id_by_number, collection_id, number, missing)
    return await load_hadith(context, found)


def seed_of(day: date, collection_id: int | None) -> int:
    digest = hashlib.sha256(f"{day.isoformat()}/{collection_id or '*'}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


async def random_hadith(context: Context, day: date, collection_id: int | None) -> HadithRecord:
    """The hadith of the day for this date, among the collection's (every collection's when null)."""
    if collection_id is not None:
        require_id(collection_id, "collection_id")
    found = await context.loaders.hadith_id_by_seed.load((seed_of(day, collection_id), collection_id))
    if found is None:
        raise NotFound("No collection has this id.")
    return await load_hadith(context, found)
