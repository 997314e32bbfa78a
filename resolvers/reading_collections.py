"""The reader's collections: the web's entry points (`collections`, `collection`), a collection's sources and
books."""

from app.data.records import CollectionSourceRecord
from app.errors import NotFound
from app.limits import READING_LIST
from resolvers.arguments import require_text
from resolvers.provenance import Sources, citation
from resolvers.reading_common import NUMBER_LENGTH, book_of, collection_of, load_numbered, load_page
from schema.hadith import Book, Collection
from schema.info import Info
from schema.reading import CollectionSource, Page


async def collections(info: Info) -> list[Collection]:
    """Every collection, by id."""
    return [collection_of(record) for record in await info.context.loaders.collections_by_code.load(None)]


async def collection(info: Info, code: str) -> Collection:
    """The collection of this code; NOT_FOUND when none has it."""
    found = await info.context.loaders.collections_by_code.load(require_text(code, "code", NUMBER_LENGTH))
    if not found:
        raise NotFound("No collection has this code.")
    return collection_of(found[0])


def _source(record: CollectionSourceRecord, sources: Sources) -> CollectionSource:
    source = sources.get(record.source_id)
    return CollectionSource(
        role=record.role,
        source_id=record.source_id,
        edition_id=record.edition_id,
        language=record.language,
        source_title=source.title if source else None,
        citation=citation(source) if source else None,
        hadith_count=record.hadith_count,
    )


async def sources_of_collection(info: Info, collection_id: int) -> list[CollectionSource]:
    found = await info.context.loaders.sources_by_collection_id.load(collection_id)
    sources = await info.context.sources.load(info.context.db)
    return [_source(record, sources) for record in found]


async def books_of_collection(info: Info, collection_id: int, page: int | None, limit: int | None) -> Page[Book]:
    loader = info.context.loaders.book_page_by_collection_id
    number, found = await load_page(loader, collection_id, page, limit, READING_LIST)
    return Page(page=number, items=[book_of(record) for record in found.items], truncated=found.truncated)


async def book_of_collection(info: Info, collection_id: int, number: str) -> Book:
    loader = info.context.loaders.book_by_number
    return book_of(await load_numbered(loader, collection_id, number, "No book of this collection has this number."))
