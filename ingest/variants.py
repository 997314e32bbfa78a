"""Which forms a narrator's name variants keep: name forms, never a lone common word.

A form of two words or more is a name form. A form of one word is kept only when it is a word of the
narrator's own name in the dataset (Shu'ba's isnad forms include «سعيد», «أبي»: words of the chains
around him, not his name), when it is not a bare kunya or relational word (RELATIONAL_WORDS: «أبي»,
«ابن», «بنت», «مولى» ...), and when it is not a common given name: one that starts the Arabic names of
COMMON_NAME_NARRATORS narrators or more in the dataset («سعيد» 347, «الحسن» 189, «مالك» 164,
«سفيان» 60). A lone «شعبة» (11), «قتادة» (16) or «الزهري» (0) is how the chains name one man and is kept.
"""

from collections import Counter
from collections.abc import Iterable

from app.text.arabic import normalize

COMMON_NAME_NARRATORS = 50
RELATIONAL_WORDS = frozenset(
    normalize(word)
    for word in ("أبو", "أبي", "أبا", "أم", "ابن", "بن", "بنت", "ابنة", "أخو", "أخي", "مولى", "ذو", "ذي", "عن")
)


def common_words(names: Iterable[str]) -> frozenset[str]:
    """The given names that start COMMON_NAME_NARRATORS or more of these names."""
    first = Counter(words[0] for name in names if (words := normalize(name).split()))
    return frozenset(word for word, count in first.items() if count >= COMMON_NAME_NARRATORS)


def is_name_form(form: str, own_name: str | None, common: frozenset[str]) -> bool:
    """A form worth keeping as a variant of the narrator named `own_name` (see the module docstring)."""
    words = normalize(form).split()
    if len(words) != 1:
        return bool(words)
    word = words[0]
    own = normalize(own_name or "").split()
    return word in own and word not in RELATIONAL_WORDS and word not in common
