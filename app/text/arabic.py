"""The one Arabic normalizer, used alike when the importer indexes and when a query arrives.

Bump NORMALIZER_VERSION whenever a rule changes (of `normalize`, `stem`, `name_key` or `skeleton`):
the importer records it, and a database built with another version must be rebuilt.

- `normalize`: the text as the search compares it (tashkil, Quranic marks, tatweel, the superscript
  alef and invisible format characters removed; alef forms, ى ة ؤ ئ, Persian and Urdu letter forms
  and Eastern Arabic digits unified; punctuation and quotation marks dropped).
- `stem`: a normalized word without its attached prefixes (و ف, then ب ك ل, then ال, and لل), so
  that «بالنيات», «النيات» and «نيات» meet.
- `name_key`: a name as the narrator search compares it («أبي هريرة» = «أبو هريرة», «ابن» = «بن»,
  «عبدالله» = «عبد الله»).
- `word_pairs`: the words of a normalized text and every two that stand together, which the exact
  search's index holds; `phrase_pairs`: what it looks up there for a phrase.
- `skeleton`: the consonants of a name in a Latin alphabet shared with app.text.latin.skeleton, so that a
  Latin query can meet an Arabic name form («ابن شهاب» and «Ibn Shihab» are both «bnshb»).
"""

import itertools
import re
import unicodedata
from functools import lru_cache

NORMALIZER_VERSION = 3

ARABIC_LETTERS = re.compile(
    "[\u0620-\u064a\u066e-\u06d3\u06d5\u06fa-\u06ff\u0750-\u077f\u08a0-\u08c9\ufb50-\ufdf9\ufe70-\ufefc]"
)
LATIN_LETTERS = re.compile(r"[^\W\d_\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")
_DIGITS: dict[str, str] = {digit: str(value % 10) for value, digit in enumerate("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹")}
DIGITS = str.maketrans(_DIGITS)  # Eastern Arabic and Persian digits -> 0-9
_REMOVED = re.compile(
    "[\u0610-\u061a\u061c\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed\u08d3-\u08e1"
    "\u08e3-\u08ff\u0640\u00ad\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]"
)
_LETTERS = str.maketrans(
    _DIGITS
    | {
        **dict.fromkeys("أإآٱٲٳٵ", "ا"),
        **dict.fromkeys("ىیےۓ", "ي"),
        **dict.fromkeys("ةۀہۃھ", "ه"),
        **dict.fromkeys("ؤٶ", "و"),
        **dict.fromkeys("ئٸ", "ي"),
        **dict.fromkeys("کڪگ", "ك"),
    }
)
_NOT_WORD = re.compile(r"[\W_]+")

# stem: the prefixes a word may carry, longest first; what is left keeps at least MIN_STEM letters.
_PREFIXES = sorted(
    {c + p + a for c in ("", "و", "ف") for p in ("", "ب", "ك", "ل") for a in ("", "ال")}
    | {c + "لل" for c in ("", "و", "ف")},
    key=len,
    reverse=True,
)[:-1]
MIN_STEM = 3

# name_key: the case forms of ابو and ذو (the isnad writes «عن أبي هريرة»), ابن written بن, and عبد
# written apart from the name it governs.
_NAME_WORDS = {"ابي": "ابو", "ابا": "ابو", "ذي": "ذو", "ذا": "ذو", "ابن": "بن"}
NAME_PARTICLES = frozenset({"بن", "ابو", "ام", "بنت", "ذو"})  # a name's words of kinship, each in its one case
_ACCUSATIVE_ALIF = re.compile(r"(?:\u064b\u0651?ا|ا\u064b)(?=\s|$)")  # «أنسًا», «عليًّا» either mark first
_JOINED_ABD = re.compile(r"(?<!\S)عبد(?=ال\S)")

# skeleton: each consonant as Latin transliterations commonly write it; vowels, weak letters and
# ʿayn and hamza carry nothing (Latin spellings disagree on them).
_SKELETON = str.maketrans(
    {
        "ب": "b",
        "ت": "t",
        "ط": "t",
        "ث": "s",
        "س": "s",
        "ص": "s",
        "ش": "s",
        "ج": "j",
        "ح": "h",
        "ه": "h",
        "خ": "k",
        "ق": "k",
        "ك": "k",
        "د": "d",
        "ض": "d",
        "ذ": "z",
        "ز": "z",
        "ظ": "z",
        "ر": "r",
        "غ": "g",
        "ف": "f",
        "ل": "l",
        "م": "m",
        "ن": "n",
        **dict.fromkeys("اويعء", ""),
    }
)
_DOUBLED = re.compile(r"(.)\1+")


def normalize(text: str) -> str:
    """Strip tashkil, Quranic marks and tatweel, unify letter forms and digits, drop punctuation."""
    text = unicodedata.normalize("NFKC", text)
    text = _REMOVED.sub("", text).translate(_LETTERS)
    return " ".join(_NOT_WORD.sub(" ", text).split())


def tokens(text: str) -> list[str]:
    """The normalized words of a text."""
    return normalize(text).split()


@lru_cache(maxsize=1 << 18)
def stem(word: str) -> str:
    """A normalized word without its attached prefixes, when enough of it is left."""
    for prefix in _PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= MIN_STEM:
            return word[len(prefix) :]
    return word


def _pairs(words: list[str]) -> set[str]:
    return {f"{first} {second}" for first, second in itertools.pairwise(words)}


def word_pairs(normalized: str) -> list[str]:
    """The words of a normalized text and every two words that stand together in it («w1 w2»), once each,
    sorted: what the exact search's index holds of a text (a text holds a phrase only when it holds every pair
    of the phrase's words)."""
    words = normalized.split()
    return sorted({*words, *_pairs(words)})


def phrase_pairs(normalized: str) -> list[str]:
    """What the exact search looks up in the index of `word_pairs` for a normalized phrase: every two of its words
    that stand together, sorted; a phrase of one word, that word. A text that holds a pair holds its two words, so
    the phrase's words would find no other text, and the most common («عن», «الله») are in most texts: the index
    would read their long lists for nothing."""
    words = normalized.split()
    return sorted(_pairs(words) or set(words))


def stems(text: str) -> list[str]:
    """The stems of the words of a text, in order."""
    return [stem(word) for word in tokens(text)]


def is_arabic(text: str) -> bool:
    """Whether the text is written in Arabic: more Arabic letters than other letters («Le Prophète (ﷺ)» is
    French, «Bukhari ١» Latin)."""
    return len(ARABIC_LETTERS.findall(text)) > len(LATIN_LETTERS.findall(text))


def name_word(word: str) -> str:
    """A normalized word of a name in one case: «أبي», «أبا» -> ابو, «ذي», «ذا» -> ذو, «ابن» -> بن."""
    return _NAME_WORDS.get(word, word)


def name_words(name: str) -> list[str]:
    """The normalized words of a name, each in one case, an accusative tanwin's alif dropped («بلالًا»)."""
    return [name_word(word) for word in normalize(_ACCUSATIVE_ALIF.sub("", name)).split()]


@lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """A name as the narrator search compares it."""
    return _JOINED_ABD.sub("عبد ", " ".join(name_words(name)))


@lru_cache(maxsize=1 << 16)
def _consonants(word: str) -> str:
    """A word's consonants, without the article and without a final ه (a ta marbuta's or Allah's)."""
    if word.startswith("ال") and len(word) > len("ال") + 1:
        word = word[2:]
    return word.removesuffix("ه").translate(_SKELETON)


def skeleton(name: str) -> str:
    """The consonants of a name (see the module docstring), doubled letters once, without spaces."""
    return _DOUBLED.sub(r"\1", "".join(_consonants(word) for word in name_key(name).split()))
