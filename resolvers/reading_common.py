"""What the reader's resolvers share: collections, books and chapters mapped from their records (a hadith's
place uses them too), a page asked of a loader, and a thing asked by its number."""

from typing import TypeVar

from strawberry.dataloader import DataLoader

from app.data.reading import NumberKey, PageKey
from app.data.records import BookRecord, ChapterRecord, CollectionRecord, Page
from app.errors import NotFound
from app.limits import ListBound
from resolvers.arguments import require_page, require_text
from schema.hadith import Book, Chapter, Collection

R = TypeVar("R")
NUMBER_LENGTH = 20  # the longest number a collection writes is a few characters ('35.2', '8a')


async def load_page(
    loader: DataLoader[PageKey, Page[R]], parent_id: int, page: int | None, limit: int | None, bound: ListBound
) -> tuple[int, Page[R]]:
    """The page number asked, and that page of the parent's list, once the page and the limit are checked."""
    number = require_page(page)
    return number, await loader.load((parent_id, number, bound.resolve(limit)))


async def load_numbered(loader: DataLoader[NumberKey, R | None], parent_id: int, number: str, missing: str) -> R:
    """The parent's thing of this number; NOT_FOUND (`missing`) when it has none."""
    found = await loader.load((parent_id, require_text(number, "number", NUMBER_LENGTH)))
    if found is None:
        raise NotFound(missing)
    return found


def collection_of(record: CollectionRecord) -> Collection:
    return Collection(
        id=record.collection_id,
        code=record.code,
        name=record.name_en,
        name_ar=record.name_ar,
        name_fr=record.name_fr,
        hadith_count=record.hadith_count,
    )


def book_of(record: BookRecord) -> Book:
    return Book(
        id=record.book_id,
        number=record.number,
        title=record.title_ar,
        title_en=record.title_en,
        title_fr=record.title_fr,
        hadith_count=record.hadith_count,
    )


def chapter_of(record: ChapterRecord) -> Chapter:
    return Chapter(
        id=record.chapter_id,
        number=record.number,
        title=record.title_ar,
        title_en=record.title_en,
        hadith_count=record.hadith_count,
    )
