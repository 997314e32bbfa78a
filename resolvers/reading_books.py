"""The reader's books and chapters: a book's chapters, a chapter by its number, the hadith of each."""

from app.data.records import ChapterRecord, HadithRecord
from app.execution.context import Context
from app.limits import READING_LIST
from resolvers.reading_common import NumberedPage, load_numbered, load_page
from resolvers.reading_hadith import hadith_page


async def chapters_of_book(
    context: Context, book_id: int, page: int | None, limit: int | None
) -> NumberedPage[ChapterRecord]:
    return await load_page(context.loaders.chapter_page_by_book_id, book_id, page, limit, READING_LIST)


async def chapter_of_book(context: Context, book_id: int, number: str) -> ChapterRecord:
    missing = "No chapter of this book has this number."
    return await load_numbered(context.loaders.chapter_by_number, book_id, number, missing)


async def hadiths_of_book(
    context: Context, book_id: int, page: int | None, limit: int | None
) -> NumberedPage[HadithRecord]:
    return await hadith_page(context, context.loaders.hadith_page_by_book_id, book_id, page, limit)


async def hadiths_of_chapter(
    context: Context, chapter_id: int, page: int | None, limit: int | None
) -> NumberedPage[HadithRecord]:
    return await hadith_page(context, context.loaders.hadith_page_by_chapter_id, chapter_id, page, limit)
