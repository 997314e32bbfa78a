"""Checks the crosswalk's hadith-api numbers against the texts, so that a number names one hadith.

The crosswalk (data README 1.6) numbers a hadith-json record by matching its English, which repeats
across chains ("Another chain with similar meaning"): a number is a claim. It is kept only where the
numbered record is in the hadith's own kitab (the crosswalk's in-book reference of that number) and
where the numbered record's Arabic holds this hadith's Arabic (token containment, SAME_TEXT). Where
two hadith of a collection still claim one number, the one whose Arabic matches best keeps it (the
first in the collection on a tie); the others are refused. Each refusal keeps its reason.
"""

from collections import defaultdict
from dataclasses import dataclass

from app.text.arabic import tokens

# Token containment of the shorter text in the longer at which two Arabic texts are the same hadith
# (data README 4.1). On the full import every crosswalk number whose kitab agrees has a containment of
# 0.95 or more; the refused ones whose Arabic differs fall at 0.22-0.67 (docs/data-quality.md).
SAME_TEXT = 0.8

NO_KITAB = "no_kitab_to_compare"  # the crosswalk gives the numbered record no in-book reference
KITAB_DIFFERS = "kitab_differs"  # the numbered record is in another kitab
ARABIC_DIFFERS = "arabic_differs"  # its Arabic is not this hadith's
NO_ARABIC = "no_arabic_to_compare"  # this hadith or the numbered record has no Arabic to compare
NUMBER_TAKEN = "number_taken"  # another hadith's Arabic matches the number better


@dataclass(frozen=True)
class Claim:
    """A hadith's claim on a number: its kitab and Arabic beside the numbered record's."""

    seq: int  # the hadith's seq_in_collection
    number: str  # the hadith-api hadith_number
    kitab: str
    numbered_kitab: str | None  # None: the crosswalk gives no in-book reference for the number
    arabic: str | None
    numbered_arabic: str | None


@dataclass(frozen=True)
class Verdict:
    """Whether a claim keeps its number, and the evidence it was judged on."""

    containment: float | None
    refusal: str | None  # None: the number is kept


def containment(first: str, second: str) -> float | None:
    """The share of the shorter text's distinct normalized words that the other holds; None when one is empty."""
    a, b = set(tokens(first)), set(tokens(second))
    shorter = min(len(a), len(b))
    return len(a & b) / shorter if shorter else None


def _judge(claim: Claim) -> Verdict:
    if claim.arabic is None or claim.numbered_arabic is None:
        share = None
    else:
        share = containment(claim.arabic, claim.numbered_arabic)
    if claim.numbered_kitab is None:
        return Verdict(share, NO_KITAB)
    if claim.numbered_kitab != claim.kitab:
        return Verdict(share, KITAB_DIFFERS)
    if share is None:
        return Verdict(share, NO_ARABIC)
    return Verdict(share, None if share >= SAME_TEXT else ARABIC_DIFFERS)


def judge(claims: list[Claim]) -> dict[int, Verdict]:
    """Each claim's verdict, by seq: checked alone, then one holder kept per number."""
    verdicts = {claim.seq: _judge(claim) for claim in claims}
    holders: dict[str, list[int]] = defaultdict(list)
    for claim in claims:
        if verdicts[claim.seq].refusal is None:
            holders[claim.number].append(claim.seq)
    for seqs in holders.values():
        best = max(seqs, key=lambda seq: (verdicts[seq].containment or 0.0, -seq))
        for seq in seqs:
            if seq != best:
                verdicts[seq] = Verdict(verdicts[seq].containment, NUMBER_TAKEN)
    return verdicts
