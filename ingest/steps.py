"""The import's reading steps, in the order they depend on each other."""

from collections.abc import Callable

from ingest import chains, commentary, hadith, narrators, parallels, rijal, search_index
from ingest.context import ImportContext

STEPS: tuple[tuple[str, Callable[[ImportContext], None]], ...] = (
    ("hadith, books, chapters, grades", hadith.build),
    ("narrators, name variants, relations", narrators.build),
    ("rijal notices, links, assertions", rijal.build),
    ("chains and nodes", chains.build),
    ("commentary passages", commentary.build),
    ("search keys and vocabulary", search_index.build),
    ("parallels (matn similarity)", parallels.build),
)
