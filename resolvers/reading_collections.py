"""The reader's collections: the web's entry points (`collections`, `collection`), a collection's sources and
books."""

from app.data.records import BookRecord, CollectionRecord, CollectionSourceRecord
from app.errors import NotFound
from app.execution.context import Context
from app.limits import READING_LIST
from resolvers.arguments import require_text
from resolvers.reading_common import NUMBER_LENGTH, NumberedPage, load_numbered, load_page


async def collections(context: Context) -> list[CollectionRecord]:
    """Every collection, by id."""
    return await context.loaders.collections_by_code.load(None)


async def collection(context: Context, code: str) -> CollectionRecord:
    """The collection of this code; NOT_FOUND when none has it."""
    found = await context.loaders.collections_by_code.load(require_text(code, "code", NUMBER_LENGTH))
    if not found:
        raise NotFound("No collection has this code.")
    return found[0]


async def sources_of_collection(context: Context, collection_id: int) -> list[CollectionSourceRecord]:
    return await context.loaders.sources_by_collection_id.load(collection_id)


async def books_of_collection(
    context: Context, collection_id: int, page: int | None, limit: int | None
) -> NumberedPage[BookRecord]:
    return await load_page(context.loaders.book_page_by_collection_id, collection_id, page, limit, READING_LIST)


async def book_of_collection(context: Context, collection_id: int, number: str) -> BookRecord:
    missing = "No book of this collection has this number."
    return await load_numbered(context.loaders.book_by_number, collection_id, number, missing)
