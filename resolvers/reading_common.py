"""What the reader's resolvers share: a page asked of a loader, and a thing asked by its number."""

from dataclasses import dataclass
from typing import Generic, TypeVar

from strawberry.dataloader import DataLoader

from app.data.reading import NumberKey, PageKey
from app.data.records import Page
from app.errors import NotFound
from app.limits import ListBound
from resolvers.arguments import require_page, require_text

R = TypeVar("R")
NUMBER_LENGTH = 20  # the longest number a collection writes is a few characters ('35.2', '8a')


@dataclass(frozen=True, slots=True)
class NumberedPage(Generic[R]):
    """A page of a list, with the number it was asked by."""

    page: int
    found: Page[R]


async def load_page(
    loader: DataLoader[PageKey, Page[R]], parent_id: int, page: int | None, limit: int | None, bound: ListBound
) -> NumberedPage[R]:
    """That page of the parent's list, once the page and the limit are checked."""
    number = require_page(page)
    return NumberedPage(number, await loader.load((parent_id, number, bound.resolve(limit))))


async def load_numbered(loader: DataLoader[NumberKey, R | None], parent_id: int, number: str, missing: str) -> R:
    """The parent's thing of this number; NOT_FOUND (`missing`) when it has none."""
    found = await loader.load((parent_id, require_text(number, "number", NUMBER_LENGTH)))
    if found is None:
        raise NotFound(missing)
    return found
