"""The hadith-number crosswalk that the importer computes (ingest/crosswalk.py), on the full data, against the data
scout's staged `hadith_json_to_fawaz_numbers.csv.gz`, its oracle: the agreement docs/data.md publishes, how many
numbers of each the hadith-api Arabic bears out, and the hand-checked disagreements of
eval/crosswalk_derivation_sample.csv still as they were checked."""

import csv
from collections import Counter
from dataclasses import dataclass
from functools import cache

from ingest.context import ImportContext
from ingest.hadith_sources import SEVEN, _read_api, _read_fawaz_arabic, number_key, read_hadith_json, read_numbers
from ingest.numbering import SAME_TEXT, containment
from tests.conftest import REPO, shared_data_dir

STAGED = "hadith/crosswalks/hadith_json_to_fawaz_numbers.csv.gz"
SAMPLE = REPO / "eval" / "crosswalk_derivation_sample.csv"
VERDICTS = {"computed", "staged", "both", "neither", "undecided"}
Key = tuple[str, str, str]  # (collection, kitab, index in kitab)

PUBLISHED = {  # docs/data.md, "Derivations": records, same, only staged, only computed, different
    "bukhari": (7_277, 7_275, 1, 0, 1),
    "muslim": (7_459, 7_453, 3, 3, 0),
    "abudawud": (5_276, 5_276, 0, 0, 0),
    "tirmidhi": (4_053, 4_037, 6, 10, 0),
    "nasai": (5_768, 5_724, 0, 42, 2),
    "ibnmajah": (4_345, 4_343, 1, 1, 0),
    "malik": (1_985, 1_833, 68, 84, 0),
}
BORNE_OUT = {  # docs/data.md: numbers given, and those whose hadith-api Arabic holds the hadith's (staged, computed)
    "bukhari": ((7_276, 7_007), (7_275, 7_007)),
    "muslim": ((7_288, 7_186), (7_288, 7_189)),
    "abudawud": ((5_272, 5_272), (5_272, 5_272)),
    "tirmidhi": ((3_915, 3_908), (3_919, 3_917)),
    "nasai": ((5_623, 5_622), (5_665, 5_665)),
    "ibnmajah": ((4_339, 4_337), (4_339, 4_337)),
    "malik": ((1_797, 1_729), (1_813, 1_813)),
}


@dataclass(frozen=True)
class Both:
    computed: dict[Key, str]  # '' where the record has no number
    staged: dict[Key, str]
    arabic: dict[Key, str]  # the hadith-json Arabic of each record


@cache
def _both() -> Both:
    ctx = ImportContext(shared_data_dir())
    computed: dict[Key, str] = {}
    arabic: dict[Key, str] = {}
    for code in SEVEN:
        records = read_hadith_json(ctx, code)
        numbers = read_numbers(ctx, code, records)
        for record in records:
            key = (code, record.kitab, str(record.id_in_book))
            computed[key] = numbers[record.seq].api_number or "" if record.seq in numbers else ""
            arabic[key] = record.arabic or ""
    rows = ctx.csv(STAGED, "the staged crosswalk, the oracle", "crosswalks", derived=True)
    staged = {
        (r["collection"], number_key(r["hj_kitab_chapterId"]) or "", r["hj_idInBook"]): number_key(
            r["fawaz_hadithnumber"]
        )
        or ""
        for _, r in rows
    }
    return Both(computed, staged, arabic)


def _agreement(both: Both) -> dict[str, tuple[int, ...]]:
    counts: dict[str, Counter[str]] = {code: Counter() for code in SEVEN}
    for key, ours in both.computed.items():
        theirs = both.staged[key]
        kind = "same" if ours == theirs else "only_staged" if not ours else "only_computed" if not theirs else "other"
        counts[key[0]].update(["records", kind])
    fields = ("records", "same", "only_staged", "only_computed", "other")
    return {code: tuple(tally[field] for field in fields) for code, tally in counts.items()}


def test_the_computed_crosswalk_agrees_with_the_staged_one_as_published() -> None:
    assert _agreement(_both()) == PUBLISHED


def _borne_out(numbers: dict[Key, str], arabic: dict[Key, str], texts: dict[str, str]) -> tuple[int, int]:
    given = [(arabic[key], texts.get(number)) for key, number in numbers.items() if number]
    held = [share for ours, theirs in given if ours and theirs and (share := containment(ours, theirs)) is not None]
    return len(given), sum(share >= SAME_TEXT for share in held)


def test_more_computed_numbers_than_staged_ones_are_borne_out_by_the_hadith_api_arabic() -> None:
    """A number is borne out where the Arabic of that hadith-api number (or, where hadith-api lacks it, of the older
    fawaz Arabic edition) holds the hadith's Arabic, as ingest/numbering.py checks it at import."""
    both, ctx = _both(), ImportContext(shared_data_dir())
    found = {}
    for code in SEVEN:
        texts = {n: r.text for n, r in _read_api(ctx, f"ara-{code}", "the oracle's check").items() if r.text}
        texts = _read_fawaz_arabic(ctx, code) | texts
        mine = {
            name: _borne_out({k: v for k, v in numbers.items() if k[0] == code}, both.arabic, texts)
            for name, numbers in (("staged", both.staged), ("computed", both.computed))
        }
        found[code] = (mine["staged"], mine["computed"])

    assert found == BORNE_OUT


def test_each_hand_checked_case_is_still_the_same() -> None:
    both = _both()
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        sample = list(csv.DictReader(f))

    assert len(sample) >= 40
    for row in sample:
        key = (row["collection"], row["kitab"], row["index_in_kitab"])
        assert (both.computed[key], both.staged[key]) == (row["computed"], row["staged"]), key
        assert row["right"] in VERDICTS and (row["right"] == "both") == (row["computed"] == row["staged"]), key
