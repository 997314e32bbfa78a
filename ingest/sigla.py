"""The book sigla that the rijal works print with a notice, and the collections they name.

Taqrib and al-Kashif print them after the notice («خت م 4»); the al-Mughni edition prints them on
the line before the name («د ت ق», «ع /»). Only the sigla of the six books (and «ع» = all six, «4» =
the four Sunan) name collections whose chains this project holds; «خت» (Bukhari's ta'liq), «بخ»
(al-Adab al-Mufrad) and the others name other books.
"""

import re

SIGLA = frozenset(
    {"خ", "م", "د", "ت", "س", "ق", "ع", "4", "بخ", "خت", "مد", "عس", "قد", "فق", "عخ", "تم", "ر", "ل", "كن"}
    | {"خد", "كد", "ص", "سي", "مق", "عه", "دق", "دس", "ز", "ست", "تس", "ن", "تق", "ي"}
)
_SUNAN = frozenset({"abudawud", "tirmidhi", "nasai", "ibnmajah"})
COLLECTIONS_OF_SIGLUM: dict[str, frozenset[str]] = {
    "خ": frozenset({"bukhari"}),
    "م": frozenset({"muslim"}),
    "د": frozenset({"abudawud"}),
    "ت": frozenset({"tirmidhi"}),
    "س": frozenset({"nasai"}),
    "ق": frozenset({"ibnmajah"}),
    "4": _SUNAN,
    "ع": _SUNAN | {"bukhari", "muslim"},
}
LEADING_SIGLA = re.compile(r"^(?:\s*(?:" + "|".join(sorted(SIGLA, key=len, reverse=True)) + r"|/)(?=\s))+")


def collections_of(words: list[str]) -> frozenset[str]:
    """The collections named by the sigla among these words."""
    return frozenset().union(*(COLLECTIONS_OF_SIGLUM.get(word, frozenset()) for word in words))


def notice_collections(text: str) -> frozenset[str]:
    """The six-book collections a notice's sigla name: those before its name line and those at the end
    of its own text (before any cross-reference «[]»)."""
    own = text.split("[]", 1)[0]
    leading = LEADING_SIGLA.match(own)
    words = own.split()
    trailing: list[str] = []
    while words and words[-1] in SIGLA:
        trailing.append(words.pop())
    return collections_of(trailing + (leading.group(0).split() if leading else []))
