"""Reads a citation as a collection and the numbers it gives: «bukhari:1», «Sahih al-Bukhari 1»,
«Sahih Muslim 8a», «Abu Dawud n° 4625», «Muwatta Malik, Book 1, Hadith 2», «Nawawi 40 1»,
«صحيح البخاري ١», «رواه البخاري 1». The collection is named by its code, its usual names and their
transliterations (Boukhari, Tirmizi, Abou Daoud ...; compared through app.text.latin.name_key), with or
without «Sahih», «Sunan», «Jami'», «رواه» ...

One number names a hadith and its sub-numbers (Muslim 8 -> 8a, 8b ...; Tirmidhi 815 -> 815.2).
Two numbers (2:15, 2/15, «Book 2, Hadith 15») can be the number 2.15 or hadith 15 of book 2: both
readings stay candidates. Three numbers read as volume, book, hadith.
"""

import re
from dataclasses import dataclass

from app.text import arabic, latin

_LATIN_NAMES = {
    "bukhari": ("Bukhari", "Bokhari", "Bukhary", "Bukhri"),
    "muslim": ("Muslim", "Moslem", "Muslem"),
    "abudawud": ("Abu Dawud", "Abu Daud", "Abu Dawood", "Abudawud", "Dawud"),
    "tirmidhi": ("Tirmidhi", "Tirmizi", "Termidhi", "Termizi", "Tirmidi", "Tirmithi"),
    "nasai": ("Nasai", "Nesai", "Nasaai", "Nisai", "Nasa"),
    "ibnmajah": ("Ibn Majah", "Ibnmajah", "Ibn Madja", "Ibn Majjah", "Majah"),
    "malik": ("Malik", "Muwatta", "Muwatta Malik", "Malik Muwatta", "Muatta", "Muatta Malik"),
    "nawawi40": ("Nawawi", "Arbain Nawawi", "Nawawiyya", "Arbain Nawawiyya"),
    "qudsi40": ("Qudsi", "Ahadith Qudsiyya", "Qudsiyya"),
    "shahwaliullah40": ("Shah Waliullah", "Shah Waliullah Dehlawi", "Dehlawi", "Dihlawi", "Waliullah", "Shahwaliullah"),
}
_ARABIC_NAMES = {
    "bukhari": ("البخاري",),
    "muslim": ("مسلم",),
    "abudawud": ("أبي داود", "أبو داود", "أبي داوود"),
    "tirmidhi": ("الترمذي",),
    "nasai": ("النسائي", "النساءي"),
    "ibnmajah": ("ابن ماجه", "ابن ماجة"),
    "malik": ("مالك", "الموطأ", "موطأ مالك", "موطأ الإمام مالك"),
    "nawawi40": ("الأربعون النووية", "الأربعين النووية", "النووي", "النووية"),
    "qudsi40": ("الأحاديث القدسية", "القدسي", "القدسية", "الأحاديث القدسي"),
    "shahwaliullah40": ("الدهلوي", "شاه ولي الله"),
}
_LATIN_NOISE = frozenset(
    latin.name_key(word)
    for word in [
        "sahih",
        "saheeh",
        "sunan",
        "sounan",
        "jami",
        "jamia",
        "jaami",
        "jame",
        "hadith",
        "hadiths",
        "hadeeth",
        "no",
        "n",
        "nr",
        "num",
        "number",
        "numero",
        "nummer",
        "of",
        "de",
        "du",
        "d",
        "l",
        "le",
        "la",
        "les",
        "des",
        "the",
        "in",
        "by",
        "imam",
        "narrated",
        "reported",
        "recorded",
        "collected",
        "rapporte",
        "par",
        "selon",
        "according",
        "to",
        "riwayat",
        "rawahu",
        "book",
        "kitab",
        "livre",
        "vol",
        "volume",
        "tome",
        "chapter",
        "page",
        "p",
        "forty",
        "quarante",
        "arbain",
    ]
)
_ARABIC_NOISE = frozenset(
    arabic.name_key(word)
    for word in ["صحيح", "سنن", "جامع", "رواه", "أخرجه", "خرجه", "الإمام", "حديث", "رقم", "في", "كتاب"]
)
_NUMBER_WORDS = frozenset(
    [
        "no",
        "n",
        "nr",
        "num",
        "number",
        "numero",
        "nummer",
        "hadith",
        "hadiths",
        "hadeeth",
        "book",
        "kitab",
        "livre",
        "vol",
        "volume",
        "tome",
        "p",
        "page",
        "chapter",
    ]
) | frozenset(arabic.normalize(word) for word in ["رقم", "حديث", "كتاب", "ج", "جزء", "ص", "باب"])
_LEADING_FORTY = re.compile(r"^40\s+(?=\D)")
_FORTY_CODE = re.compile(r"(nawawi|qudsi|ullah|dehlawi)\s*40\b(?=\D*\d)")
_PARTS = re.compile(r"\d+[a-z]?|[^\W\d_]+")
_SPOKEN_LETTER = re.compile(r"(\d)\s+([a-z])\s*$")  # «Muslim 8 b», as a voice says 8b
_LETTERED = re.compile(r"\d+[a-z]")
MAX_BOOK = 120  # no collection has this many books: a larger first number is not a book number
SUB_NUMBERS = 9  # a bare number also names N.2 ... N.9 and Na ... Nz (the sub-numbered hadith)
MAX_NUMBERS = 3


def _latin_key(name: str) -> str:
    return "".join(word for word in latin.name_key(name).split() if word not in _LATIN_NOISE)


def _arabic_key(name: str) -> str:
    return "".join(word.removeprefix("ال") for word in arabic.name_key(name).split() if word not in _ARABIC_NOISE)


_LATIN_CODES = {_latin_key(name): code for code, names in _LATIN_NAMES.items() for name in (code, *names)}
_ARABIC_CODES = {_arabic_key(name): code for code, names in _ARABIC_NAMES.items() for name in names}
_LATIN_NAME_WORDS = (
    frozenset(word for names in _LATIN_NAMES.values() for name in names for word in latin.name_key(name).split())
    - _LATIN_NOISE
)
_ARABIC_NAME_WORDS = (
    frozenset(
        word.removeprefix("ال")
        for names in _ARABIC_NAMES.values()
        for name in names
        for word in arabic.name_key(name).split()
    )
    - _ARABIC_NOISE
)


@dataclass(frozen=True)
class Citation:
    """A collection and what the numbers may name: `number` (with its sub-numbers when it is bare), or
    hadith `in_book[1]` of book `in_book[0]`; both when the citation can be read either way."""

    code: str
    number: str | None
    in_book: tuple[str, str] | None

    def numbers(self) -> list[str]:
        """The canonical numbers the citation names: the number, and a bare number's sub-numbers."""
        if self.number is None:
            return []
        if not self.number.isdigit():
            return [self.number]
        letters = [self.number + chr(ord("a") + i) for i in range(26)]
        return [self.number, *letters, *(f"{self.number}.{part}" for part in range(2, SUB_NUMBERS + 1))]


def _numbers(rest: str) -> list[str] | None:
    """The numbers of a citation's tail, or None when the tail holds anything but numbers and number words."""
    parts = _PARTS.findall(_SPOKEN_LETTER.sub(r"\1\2", rest))
    numbers = [part for part in parts if part[0].isdigit()]
    if any(not part[0].isdigit() and part not in _NUMBER_WORDS for part in parts):
        return None
    if not 1 <= len(numbers) <= MAX_NUMBERS or any(_LETTERED.fullmatch(n) for n in numbers[:-1]):
        return None
    return numbers


def reading(code: str, numbers: list[str]) -> Citation | None:
    """What one to MAX_NUMBERS numbers of a collection can name (see the module docstring)."""
    if len(numbers) == 1:
        return Citation(code, numbers[0], None)
    book, hadith = numbers[-2:]
    dotted = f"{book}.{hadith}" if len(numbers) == 2 and hadith.isdigit() else None
    in_book = (book, hadith) if int(book) <= MAX_BOOK else None
    return Citation(code, dotted, in_book) if dotted or in_book else None


def collection_code(name: str, in_arabic: bool) -> str | None:
    """The collection a name (its words, without the numbers) names, or None."""
    return _ARABIC_CODES.get(_arabic_key(name)) if in_arabic else _LATIN_CODES.get(_latin_key(name))


def is_name_word(word: str, in_arabic: bool) -> bool:
    """Whether the word is one of a collection's names' words («Boukhari», «Dawud», «البخاري»)."""
    if in_arabic:
        return arabic.name_key(word).removeprefix("ال") in _ARABIC_NAME_WORDS
    return latin.name_key(word) in _LATIN_NAME_WORDS


def parse_citation(query: str) -> Citation | None:
    """The citation a query names, or None when it is not a citation."""
    in_arabic = arabic.is_arabic(query)
    text = arabic.normalize(query) if in_arabic else latin.fold(query).translate(arabic.DIGITS)
    text = _FORTY_CODE.sub(r"\1 ", _LEADING_FORTY.sub("", text))
    first_digit = re.search(r"\d", text)
    if first_digit is None:
        return None
    name, rest = text[: first_digit.start()], text[first_digit.start() :]
    code = collection_code(name, in_arabic)
    numbers = _numbers(rest) if code else None
    return reading(code, numbers) if code and numbers else None
