"""The one Latin-script folding, used alike when the importer indexes and when a query arrives.

- `fold`: lower case, diacritics and the ʿ ʾ ' ` marks removed, spaces collapsed.
- `name_key`: a transliterated name as the narrator search compares it: folded, hyphens and dots
  apart, the article dropped (al-, el-, an-, ash-, as-, ad-, az-, ez- ...) and titles (Imam, Shaykh),
  ibn / bin / ben / b. -> ibn,
  abu / abou / abi -> abu, the glued forms split (Abdullah = Abd Allah, Abdur Rahman = Abd Rahman),
  and the common spelling variants unified (ou / oo / o -> u, ee / ie / y -> i, ay / ei -> ai,
  dh -> z, th -> s, ch -> sh, dj -> j, q -> k, a final -ah -> -a, doubled letters once), so that
  Hurayra, Hurairah, Huraira and Hourayra are all «huraira».
- `skeleton`: the consonants of `name_key`, in the alphabet of app.text.arabic.skeleton.
- `words`: the words of a French text, lower case and without accents, as the French vocabulary of
  the search holds them (PostgreSQL's unaccent folds the same letters).

Rules change the index: bump app.text.arabic.NORMALIZER_VERSION with them.
"""

import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"[a-z0-9]+")
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_MARKS = re.compile("['’‘`´ʿʾʻʼ]")
_APART = re.compile(r"[^a-z0-9 ]+")
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ø": "o", "đ": "d", "ł": "l", "ı": "i"})

_ARTICLES = frozenset(
    {"al", "el", "il", "ul", "an", "ar", "as", "ash", "at", "ath", "ad", "adh", "az"}
    | {"en", "er", "es", "ech", "et", "eth", "ed", "edh", "ez"}  # the French transliterations' el-, ez- ...
)
_TITLES = frozenset({"imam", "hazrat", "sayyiduna", "sayyidina", "shaykh", "sheikh"})
_WORDS = {
    **dict.fromkeys(("ibn", "bin", "ben", "bn", "b", "ibnu", "ibni", "bnu"), "ibn"),
    **dict.fromkeys(("bint", "binti", "bintu"), "bint"),
    **dict.fromkeys(("abu", "abou", "aboo", "abo", "abi", "aby", "aba"), "abu"),
    **dict.fromkeys(("umm", "um", "oum", "oumm", "omm"), "umm"),
}
NAME_PARTICLES = frozenset(_WORDS.values())  # a name's words of kinship, as `name_key` writes them
# (pattern, replacement) applied in order to each word.
_SPELLINGS = (
    (re.compile(r"ou|oo|o"), "u"),
    (re.compile(r"ee|ie$"), "i"),
    (re.compile(r"(\w{2,}?)[aeiu]?llah$"), r"\1 allah"),  # Abdullah, Ubaydullah -> Abd Allah, Ubayd Allah
    (re.compile(r"^abd[aeiu](?:l|([rsdtzn])\1)(?=\w)"), r"abd \1"),  # Abdulaziz, Abdurrahman
    (re.compile(r"^abd[aeiu](?:l|r|s|d|t|z|n|sh|th|dh)$"), "abd"),  # Abdul Aziz, Abdur Rahman
    (re.compile(r"ay|ey|ei"), "ai"),
    (re.compile(r"(?<=[aiu])wu"), "u"),  # Dawud, Tawus -> Daud, Taus
    (re.compile(r"(?<=\w)y"), "i"),
    (re.compile(r"dh"), "z"),
    (re.compile(r"th"), "s"),
    (re.compile(r"ch"), "sh"),
    (re.compile(r"dj"), "j"),
    (re.compile(r"q"), "k"),
    (re.compile(r"ed$"), "ad"),  # Ahmed, Mohammed
    (re.compile(r"ane$"), "an"),  # Soufyane, Othmane
    (re.compile(r"(?<=[aiu])h$"), ""),  # Hurairah, Aishah, Talhah
    (re.compile(r"([a-z])\1+"), r"\1"),
)
_SKELETON = (
    (re.compile(r"sh"), "s"),
    (re.compile(r"kh"), "k"),
    (re.compile(r"gh"), "g"),
    (re.compile(r"[aeiouyw]"), ""),
    (re.compile(r"c"), "k"),
    (re.compile(r"p"), "b"),
    (re.compile(r"v"), "f"),
    (re.compile(r"x"), "ks"),
)
_DOUBLED = re.compile(r"(.)\1+")


def _unaccented(text: str) -> str:
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text.lower().translate(_LIGATURES)))


def fold(name: str) -> str:
    """Lower-cased, diacritics and apostrophes folded, spaces collapsed."""
    return " ".join(_MARKS.sub("", _unaccented(name)).split())


def words(text: str) -> list[str]:
    """The words of a text, lower case and without accents; an apostrophe separates words (l'intention)."""
    return _WORD.findall(_unaccented(text))


@lru_cache(maxsize=1 << 16)
def _spelled(word: str) -> str:
    for pattern, replacement in _SPELLINGS:
        word = pattern.sub(replacement, word)
    return word


@lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """A transliterated name as the narrator search compares it (see the module docstring)."""
    words = _APART.sub(" ", fold(name)).split()
    kept = [_WORDS.get(word, word) for word in words if word not in _ARTICLES and word not in _TITLES]
    return " ".join(" ".join(_spelled(word) for word in kept).split())


@lru_cache(maxsize=1 << 16)
def _consonants(word: str) -> str:
    for pattern, replacement in _SKELETON:
        word = pattern.sub(replacement, word)
    return word


def skeleton(name: str) -> str:
    """The consonants of a name's key, doubled letters once, without spaces."""
    return _DOUBLED.sub(r"\1", "".join(_consonants(word) for word in name_key(name).split()))
