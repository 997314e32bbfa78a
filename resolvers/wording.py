"""Wording differences between two matns: the words one adds, drops or changes against the other, aligned on the
normalized Arabic (a longest matching alignment of their words, difflib's)."""

from dataclasses import dataclass
from difflib import SequenceMatcher

KINDS = {"insert": "added", "delete": "dropped", "replace": "changed"}


@dataclass(frozen=True)
class Difference:
    """One place where the other matn differs: its words there, and the hadith's (empty where it has none)."""

    kind: str  # 'added', 'dropped', 'changed'
    words_hadith: str
    words_other: str


def differences(matn: str, other: str) -> list[Difference]:
    """Where `other` differs from `matn`, in the order of the text."""
    ours, theirs = matn.split(), other.split()
    opcodes = SequenceMatcher(None, ours, theirs, autojunk=False).get_opcodes()
    return [
        Difference(KINDS[tag], " ".join(ours[i1:i2]), " ".join(theirs[j1:j2]))
        for tag, i1, i2, j1, j2 in opcodes
        if tag in KINDS
    ]
