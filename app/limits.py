"""Every list bound of the API, in the one place that every part of the code reads.

The contract's table (section D): `limit` null -> the default; below 1 -> INVALID_INPUT; above the
hard max -> LIMIT_EXCEEDED, never a silent cap.
"""

from dataclasses import dataclass

from app.errors import InvalidInput, LimitExceeded


@dataclass(frozen=True)
class ListBound:
    argument: str
    default: int
    maximum: int

    def resolve(self, value: int | None) -> int:
        """The limit to use for `value`, or the contract's error."""
        if value is None:
            return self.default
        if value < 1:
            raise InvalidInput(f"{self.argument} must be at least 1.")
        if value > self.maximum:
            raise LimitExceeded(f"{self.argument} must be at most {self.maximum}.")
        return value


SEARCH_HADITH = ListBound("limit", 5, 20)
HADITH_CHAINS = ListBound("limit", 5, 20)
SEARCH_NARRATOR = ListBound("limit", 5, 20)
NARRATOR_ENTRIES = ListBound("entry_limit", 10, 20)
NARRATOR_HADITHS = ListBound("limit", 10, 50)
TRANSMISSION_RELATION = ListBound("limit", 10, 20)
HADITH_COMMENTARY = ListBound("limit", 5, 20)
# A narrator's teachers, or his students, on his profile (beyond the contract).
NARRATOR_RELATIONS = ListBound("limit", 10, 50)
NAVIGATION = ListBound("limit", 5, 20)  # lists reached by navigating the graph, beyond the contract
# The reader's lists (beyond the contract): a collection's books and a book's chapters (Bukhari has 97 books, a
# book of Abu Dawud 258 chapters), and the hadith of a book or a chapter, a page at a time.
READING_LIST = ListBound("limit", 20, 100)
READING_HADITH = ListBound("limit", 10, 50)

NAME_VARIANTS_MAX = 100  # a narrator's name forms, listed with the profile; over it -> truncated
WORDING_DIFFERENCES_MAX = 20  # the differences listed per version of an isnad tree; over it -> truncated
