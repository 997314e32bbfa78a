"""The one Arabic normalizer, used alike when the importer indexes and when a query arrives.

Bump NORMALIZER_VERSION whenever a rule changes: the importer records it, and a database built
with another version must be rebuilt.
"""

import re
import unicodedata

NORMALIZER_VERSION = 1

_DIACRITICS = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed\u0640]")
_LETTERS = str.maketrans(
    {
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",
        "ى": "ي",
        "ة": "ه",
        "ؤ": "و",
        "ئ": "ي",
        "ک": "ك",
        "ی": "ي",
        "ہ": "ه",
        "ۃ": "ه",
        "ھ": "ه",
        "ڪ": "ك",
        "٠": "0",
        "١": "1",
        "٢": "2",
        "٣": "3",
        "٤": "4",
        "٥": "5",
        "٦": "6",
        "٧": "7",
        "٨": "8",
        "٩": "9",
        "۰": "0",
        "۱": "1",
        "۲": "2",
        "۳": "3",
        "۴": "4",
        "۵": "5",
        "۶": "6",
        "۷": "7",
        "۸": "8",
        "۹": "9",
    }
)
_NOT_WORD = re.compile(r"[^\w]+")


def normalize(text: str) -> str:
    """Strip tashkil, Quranic marks and tatweel, unify letter forms and digits, drop punctuation."""
    text = unicodedata.normalize("NFC", text)
    text = _DIACRITICS.sub("", text).translate(_LETTERS)
    return " ".join(_NOT_WORD.sub(" ", text).split())


def tokens(text: str) -> list[str]:
    """The normalized words of a text."""
    return normalize(text).split()
