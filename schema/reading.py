"""The reader's shapes beside its navigation fields (schema/hadith.py): the fields' arguments, a page of a list in
the collection's order, and the records of one role that a collection's hadith rows come from."""

from typing import Annotated, Generic, Self, TypeVar

import strawberry

from app.data.records import CollectionSourceRecord
from app.data.records import Page as RecordPage
from resolvers.reading_common import NumberedPage
from schema.common import Sources, citation

T = TypeVar("T")
R = TypeVar("R")
PageNumber = Annotated[int | None, strawberry.argument(description="The page, from 1.")]
ListLimit = Annotated[int | None, strawberry.argument(description="How many at most (20, max 100).")]
HadithLimit = Annotated[int | None, strawberry.argument(description="How many hadith at most (10, max 50).")]
Number = Annotated[str, strawberry.argument(description="Its number, as its collection writes it.")]
# The navigation fields' own bounds (app/limits.py)
ChainLimit = Annotated[int | None, strawberry.argument(description="How many chains at most (5, max 20).")]
GradeLimit = Annotated[int | None, strawberry.argument(description="How many grades at most (5, max 20).")]
ParallelLimit = Annotated[int | None, strawberry.argument(description="How many parallels at most (5, max 20).")]
TreeLimit = Annotated[
    int | None, strawberry.argument(description="How many parallels' chains to merge at most (5, max 20).")
]
NarratorHadithLimit = Annotated[int | None, strawberry.argument(description="How many hadith at most (5, max 20).")]


@strawberry.type(description="A page of a list in its collection's order.")
class Page(Generic[T]):
    page: int = strawberry.field(description="This page, from 1.")
    items: list[T] = strawberry.field(description="This page's items, at most `limit`.")
    truncated: bool = strawberry.field(description="True when later pages exist.")


def page_of(asked: NumberedPage[R], items: list[T]) -> Page[T]:
    """The page asked, its records mapped to `items`."""
    found: RecordPage[R] = asked.found
    return Page(page=asked.page, items=items, truncated=found.truncated)


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

    @classmethod
    def from_record(cls, record: CollectionSourceRecord, sources: Sources) -> Self:
        source = sources.get(record.source_id)
        return cls(
            role=record.role,
            source_id=record.source_id,
            edition_id=record.edition_id,
            language=record.language,
            source_title=source.title if source else None,
            citation=citation(source) if source else None,
            hadith_count=record.hadith_count,
        )
