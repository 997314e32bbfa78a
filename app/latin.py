"""The one Latin-script name folding, used alike when the importer indexes and when a query arrives."""

import re
import unicodedata

_APOSTROPHES = re.compile("['’‘`´ʿʾʻʼ]")


def fold(name: str) -> str:
    """Lower-cased, diacritics and apostrophes folded, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", name)
    folded = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(_APOSTROPHES.sub("", folded).lower().split())
