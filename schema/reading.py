"""The reader's navigation, for web pages beside the eight tools: a collection's sources, books and hadith by
number, a book's chapters and hadith, a chapter's hadith, a hadith's neighbours, all in the collection's order.

`Collection`, `Book`, `Chapter` and `Hadith` (schema/hadith.py) take these fields from the classes below.
"""

from typing import TYPE_CHECKING, Annotated, Generic, TypeVar

import strawberry

from schema.info import Info

if TYPE_CHECKING:
    from schema.hadith import Book, Chapter, Hadith

T = TypeVar("T")
PageNumber = Annotated[int | None, strawberry.argument(description="The page, from 1.")]
ListLimit = Annotated[int | None, strawberry.argument(description="How many at most (20, max 100).")]
HadithLimit = Annotated[int | None, strawberry.argument(description="How many hadith at most (10, max 50).")]
Number = Annotated[str, strawberry.argument(description="Its number, as its collection writes it.")]
LazyBook = Annotated["Book", strawberry.lazy("schema.hadith")]
LazyChapter = Annotated["Chapter", strawberry.lazy("schema.hadith")]
LazyHadith = Annotated["Hadith", strawberry.lazy("schema.hadith")]


@strawberry.type(description="A page of a list in its collection's order.")
class Page(Generic[T]):
    page: int = strawberry.field(description="This page, from 1.")
    items: list[T] = strawberry.field(description="This page's items, at most `limit`.")
    truncated: bool = strawberry.field(description="True when later pages exist.")


@strawberry.type(description="Records of one role that a collection's hadith rows come from.")
class CollectionSource:
    role: str = strawberry.field(
        description="What they give: text_ar, text_en, text_fr, numbering, numbering_refused (a number the "
        "import refused), chapter, grades."
    )
    source_id: str = strawberry.field(description="The source.")
    edition_id: str | None = strawberry.field(description="The edition, where the source has editions.")
    language: str | None = strawberry.field(description="The edition's language (ar, fr, en); null without one.")
    source_title: str | None = strawberry.field(description="The source's title.")
    citation: str | None = strawberry.field(description="The source, cited: author, title, repository@commit.")
    hadith_count: int = strawberry.field(description="How many of the collection's hadith have such a record.")


@strawberry.type(description="A collection's navigation (the reader's).")
class CollectionReading:
    id: strawberry.Private[int]

    @strawberry.field(description="The records its hadith rows come from, by role, source and edition.")
    async def sources(self, info: Info) -> list[CollectionSource]:
        from resolvers.reading_collections import sources_of_collection

        return await sources_of_collection(info, self.id)

    @strawberry.field(description="Its books, in the collection's order (that of their first hadith).")
    async def books(self, info: Info, page: PageNumber = 1, limit: ListLimit = None) -> Page[LazyBook]:
        from resolvers.reading_collections import books_of_collection

        return await books_of_collection(info, self.id, page, limit)

    @strawberry.field(description="Its book of this kitab number ('0' = introduction); NOT_FOUND when none.")
    async def book(self, info: Info, number: Number) -> LazyBook:
        from resolvers.reading_collections import book_of_collection

        return await book_of_collection(info, self.id, number)

    @strawberry.field(
        description="Its hadith of this canonical number ('1'; Muslim's '8a'); NOT_FOUND when none has it."
    )
    async def hadith(self, info: Info, number: Number) -> LazyHadith:
        from resolvers.reading_hadith import hadith_of_collection

        return await hadith_of_collection(info, self.id, number)


@strawberry.type(description="A book's navigation (the reader's).")
class BookReading:
    id: strawberry.Private[int]

    @strawberry.field(description="Its chapters, in the collection's order; empty where no source gives them.")
    async def chapters(self, info: Info, page: PageNumber = 1, limit: ListLimit = None) -> Page[LazyChapter]:
        from resolvers.reading_books import chapters_of_book

        return await chapters_of_book(info, self.id, page, limit)

    @strawberry.field(description="Its chapter of this bab number; NOT_FOUND when none.")
    async def chapter(self, info: Info, number: Number) -> LazyChapter:
        from resolvers.reading_books import chapter_of_book

        return await chapter_of_book(info, self.id, number)

    @strawberry.field(description="Its hadith, in the collection's order, with or without chapters.")
    async def hadiths(self, info: Info, page: PageNumber = 1, limit: HadithLimit = None) -> Page[LazyHadith]:
        from resolvers.reading_books import hadiths_of_book

        return await hadiths_of_book(info, self.id, page, limit)


@strawberry.type(description="A chapter's navigation (the reader's).")
class ChapterReading:
    id: strawberry.Private[int]

    @strawberry.field(description="Its hadith, in the collection's order.")
    async def hadiths(self, info: Info, page: PageNumber = 1, limit: HadithLimit = None) -> Page[LazyHadith]:
        from resolvers.reading_books import hadiths_of_chapter

        return await hadiths_of_chapter(info, self.id, page, limit)


@strawberry.type(description="A hadith's neighbours (the reader's).")
class HadithReading:
    hadith_id: strawberry.Private[int]

    @strawberry.field(description="The hadith just before it in its collection's order; null for the first.")
    async def previous(self, info: Info) -> LazyHadith | None:
        from resolvers.reading_hadith import neighbour

        return await neighbour(info, self.hadith_id, following=False)

    @strawberry.field(description="The hadith just after it in its collection's order; null for the last.")
    async def next(self, info: Info) -> LazyHadith | None:
        from resolvers.reading_hadith import neighbour

        return await neighbour(info, self.hadith_id, following=True)
