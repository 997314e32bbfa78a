"""The reader's books and chapters: a book's chapters, a chapter by its number, the hadith of each."""

from app.limits import READING_LIST
from resolvers.reading_common import chapter_of, load_numbered, load_page
from resolvers.reading_hadith import hadith_page
from schema.hadith import Chapter, Hadith
from schema.info import Info
from schema.reading import Page


async def chapters_of_book(info: Info, book_id: int, page: int | None, limit: int | None) -> Page[Chapter]:
    number, found = await load_page(info.context.loaders.chapter_page_by_book_id, book_id, page, limit, READING_LIST)
    return Page(page=number, items=[chapter_of(record) for record in found.items], truncated=found.truncated)


async def chapter_of_book(info: Info, book_id: int, number: str) -> Chapter:
    loader = info.context.loaders.chapter_by_number
    return chapter_of(await load_numbered(loader, book_id, number, "No chapter of this book has this number."))


async def hadiths_of_book(info: Info, book_id: int, page: int | None, limit: int | None) -> Page[Hadith]:
    return await hadith_page(info, info.context.loaders.hadith_page_by_book_id, book_id, page, limit)


async def hadiths_of_chapter(info: Info, chapter_id: int, page: int | None, limit: int | None) -> Page[Hadith]:
    return await hadith_page(info, info.context.loaders.hadith_page_by_chapter_id, chapter_id, page, limit)
