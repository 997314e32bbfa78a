"""One DataLoader per lookup, made for one request on its first use (a loader's cache never outlives it)."""

from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Generic, TypeVar

from strawberry.dataloader import DataLoader

from app.data import grades, hadith, narrators, reading, takhrij, teaching
from app.data.database import RequestDatabase

K = TypeVar("K")
V = TypeVar("V")


class _Loader(Generic[K, V]):
    """A `Loaders` attribute: the request's DataLoader over `lookup`, made when first read, then kept in
    the instance (which shadows this descriptor from then on)."""

    def __init__(self, lookup: Callable[[RequestDatabase, Sequence[K]], Awaitable[Sequence[V]]]) -> None:
        self.lookup = lookup
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, loaders: "Loaders", owner: Any = None) -> DataLoader[K, V]:
        loader: DataLoader[K, V] = DataLoader(load_fn=partial(self.lookup, loaders.db))
        loaders.__dict__[self.name] = loader
        return loader


class Loaders:
    """The loaders of one request, one per lookup, named `<thing>_by_<key>`."""

    hadith_by_id = _Loader(hadith.hadith_by_id)
    chains_by_hadith_id = _Loader(hadith.chains_by_hadith_id)
    passages_by_hadith_id = _Loader(hadith.passages_by_hadith_id)
    grades_by_hadith_id = _Loader(grades.grades_by_hadith_id)
    narrator_by_id = _Loader(narrators.narrator_by_id)
    profile_by_narrator_id = _Loader(narrators.profile_by_narrator_id)
    occurrence_page_by_narrator_id = _Loader(narrators.occurrence_page_by_narrator_id)
    hadith_ids_by_narrator_id = _Loader(narrators.hadith_ids_by_narrator_id)
    pair_by_narrator_ids = _Loader(narrators.pair_by_narrator_ids)
    teachers_by_narrator_id = _Loader(teaching.teachers_by_narrator_id)
    students_by_narrator_id = _Loader(teaching.students_by_narrator_id)
    parallels_by_hadith_id = _Loader(takhrij.parallels_by_hadith_id)
    isnad_tree_by_hadith_id = _Loader(takhrij.isnad_tree_by_hadith_id)
    # the reader's (app/data/reading.py)
    collections_by_code = _Loader(reading.collections_by_code)
    sources_by_collection_id = _Loader(reading.sources_by_collection_id)
    book_page_by_collection_id = _Loader(reading.book_page_by_collection_id)
    book_by_number = _Loader(reading.book_by_number)
    chapter_page_by_book_id = _Loader(reading.chapter_page_by_book_id)
    chapter_by_number = _Loader(reading.chapter_by_number)
    hadith_page_by_book_id = _Loader(reading.hadith_page_by_book_id)
    hadith_page_by_chapter_id = _Loader(reading.hadith_page_by_chapter_id)
    hadith_id_by_number = _Loader(reading.hadith_id_by_number)
    neighbours_by_hadith_id = _Loader(reading.neighbours_by_hadith_id)
    hadith_id_by_seed = _Loader(reading.hadith_id_by_seed)

    def __init__(self, db: RequestDatabase) -> None:
        self.db = db
