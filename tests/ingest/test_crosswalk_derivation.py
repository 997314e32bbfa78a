"""The hadith-number crosswalk computed from the upstream copies (ingest/crosswalk.py), against the staged file it
is to replace, on the full data: the agreement docs/data.md publishes, and the hand-checked disagreements of
eval/crosswalk_derivation_sample.csv still as they were checked."""

import csv
from functools import cache

from ingest.crosswalk import Agreement, Key, Number, agreement, computed_crosswalk, staged_crosswalk
from tests.conftest import REPO, shared_data_dir

SAMPLE = REPO / "eval" / "crosswalk_derivation_sample.csv"
PUBLISHED = {  # docs/data.md, "Derivations": records, same, only staged, only computed, different
    "bukhari": (7_277, 7_276, 1, 0, 0),
    "muslim": (7_459, 7_456, 1, 0, 2),
    "abudawud": (5_276, 5_276, 0, 0, 0),
    "tirmidhi": (4_053, 4_051, 1, 0, 1),
    "nasai": (5_768, 5_768, 0, 0, 0),
    "ibnmajah": (4_345, 4_344, 1, 0, 0),
    "malik": (1_985, 1_920, 58, 7, 0),
}


@cache
def _both() -> tuple[dict[Key, Number | None], dict[Key, str]]:
    data = shared_data_dir()
    return computed_crosswalk(data), staged_crosswalk(data)


def _tally(a: Agreement) -> tuple[int, ...]:
    return a.records, a.same, a.only_staged, a.only_computed, a.different


def test_the_computed_crosswalk_agrees_with_the_staged_one_as_published() -> None:
    computed, staged = _both()

    assert {a.collection: _tally(a) for a in agreement(computed, staged)} == PUBLISHED


def test_each_hand_checked_disagreement_is_still_the_same() -> None:
    computed, staged = _both()
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        sample = list(csv.DictReader(f))

    assert len(sample) >= 9
    for row in sample:
        key = (row["collection"], row["kitab"], row["index_in_kitab"])
        number = computed[key]
        assert (number.hadithnumber if number else "", staged[key]) == (row["computed"], row["staged"]), key
        assert row["right"] in {"computed", "staged", "neither", "undecided"}
