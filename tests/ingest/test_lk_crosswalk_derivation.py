"""The LK crosswalk that the importer computes (ingest/lk_crosswalk.py): its rules on small cases; on the full data,
against the data scout's staged `lk_to_hadith_json.csv.gz`, its oracle, the agreement docs/data.md publishes and the
hand-checked disagreements of eval/lk_crosswalk_sample.csv still as they were checked; and on the tests' subset, the
same matches as on the full data."""

import csv
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from ingest import lk_crosswalk
from ingest.context import ImportContext
from ingest.hadith_sources import LK_BOOKS
from ingest.lk_crosswalk import AMBIGUOUS, IN_ORDER, MATCHED, NO_MATCH, SAME_OPENING, SAME_WORDS, LkRow, Match, Record
from tests.conftest import REPO, shared_data_dir

STAGED = "hadith/crosswalks/lk_to_hadith_json.csv.gz"
SAMPLE = REPO / "eval" / "lk_crosswalk_sample.csv"
KINDS = ("same", "staged_only", "computed_only", "different", "neither")
PUBLISHED = {  # docs/data.md, "Derivations": rows, same hadith, staged only, computed only, different, neither
    "bukhari": (7_345, 7_242, 0, 17, 86, 0),
    "muslim": (7_314, 6_931, 0, 332, 51, 0),
    "abudawud": (5_138, 5_104, 0, 13, 21, 0),
    "tirmidhi": (4_209, 4_136, 3, 42, 23, 5),
    "nasai": (5_680, 5_629, 0, 3, 48, 0),
    "ibnmajah": (4_402, 4_377, 1, 7, 15, 2),
}

needs_full_data = pytest.mark.skipif(not (shared_data_dir() / STAGED).exists(), reason="no full data folder")

Placed = tuple[str, int] | None  # the hadith-json (kitab, idInBook) of a matched row


@cache
def _both() -> tuple[list[Match], list[dict[str, str]]]:
    ctx = ImportContext(shared_data_dir())
    staged = [row for _, row in ctx.csv(STAGED, "the staged LK crosswalk, the oracle", "crosswalks", derived=True)]
    return lk_crosswalk.computed(ctx), staged


def _staged_placed(row: dict[str, str]) -> Placed:
    return (row["hj_kitab_chapterId"], int(row["hj_idInBook"])) if row["hj_idInBook"] else None


def _written(placed: Placed) -> str:
    return f"{placed[0]}/{placed[1]}" if placed else ""


def _kind(computed: Placed, staged: Placed) -> str:
    if computed == staged:
        return "same" if computed else "neither"
    return "staged_only" if computed is None else "computed_only" if staged is None else "different"


@needs_full_data
def test_the_computed_lk_crosswalk_agrees_with_the_staged_one_as_published() -> None:
    computed, staged = _both()
    tally: dict[str, Counter[str]] = {collection: Counter() for collection in LK_BOOKS}

    assert [(m.collection, *m.row.key[:2]) for m in computed] == [
        (r["collection"], r["lk_source_file"], r["lk_hadith_number"].removesuffix(".0")) for r in staged
    ]
    for match, row in zip(computed, staged, strict=True):
        tally[match.collection][_kind(match.target, _staged_placed(row))] += 1

    figures = {c: (sum(t.values()), *(t[kind] for kind in KINDS)) for c, t in tally.items()}
    assert figures == PUBLISHED


@needs_full_data
def test_each_hand_checked_disagreement_is_still_the_same() -> None:
    computed, staged = _both()
    at = {(m.row.key[0], m.row.key[1], str(m.row.key[2])): i for i, m in enumerate(computed)}
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        sample = list(csv.DictReader(f))

    assert len(sample) >= 30
    assert {row["collection"] for row in sample} == set(LK_BOOKS)
    for row in sample:
        i = at[(row["lk_file"], row["lk_number"], row["occurrence"])]
        ours, theirs = computed[i].target, _staged_placed(staged[i])
        seen = (computed[i].collection, _kind(ours, theirs), _written(theirs), _written(ours))
        assert seen == (row["collection"], row["kind"], row["staged"], row["computed"]), row
        assert row["right"] in {"computed", "staged", "neither", "both"}
    assert Counter(row["right"] for row in sample) == {"computed": 32, "staged": 1}


@needs_full_data
def test_the_subset_keeps_the_lk_rows_of_its_hadith_and_matches_them_as_the_full_data(subset_dir: Path) -> None:
    full = {m.row.key: m.target for m in _both()[0]}
    first = lk_crosswalk.computed(ImportContext(subset_dir))
    again = lk_crosswalk.computed(ImportContext(subset_dir))

    assert first == again
    assert Counter(m.collection for m in first) == Counter(
        {"bukhari": 36, "muslim": 78, "abudawud": 52, "tirmidhi": 50, "nasai": 48, "ibnmajah": 78}
    )
    assert {m.row.key: m.target for m in first} == {m.row.key: full[m.row.key] for m in first}


# the rules, on small cases --------------------------------------------------------------------------

ISNAD = "حدثنا قتيبة حدثنا الليث عن نافع عن ابن عمر"
MATN = "ان رسول الله صلى الله عليه وسلم نهى عن بيع الثمر حتى يبدو صلاحه"
OTHER = "ان النبي صلى الله عليه وسلم قال من صام رمضان ايمانا واحتسابا غفر له ما تقدم من ذنبه"


def _row(number: int, text: str, kitab: str = "1") -> LkRow:
    words = text.split()
    return LkRow((f"B/Chapter{kitab}.csv", str(number), 1), number, kitab, frozenset(words), tuple(words[:10]))


def _record(index: int, text: str, kitab: str = "1") -> Record:
    words = text.split()
    return Record((kitab, index), int(kitab) * 1000 + index, frozenset(words), tuple(words[:10]))


def _matched(rows: list[LkRow], records: list[Record]) -> list[tuple[Placed, str]]:
    return [(m.target, m.method) for m in lk_crosswalk.match("bukhari", rows, records)]


def test_a_row_goes_to_the_one_record_with_the_highest_containment_in_its_own_kitab() -> None:
    records = [_record(1, f"{ISNAD} {MATN}"), _record(2, f"{ISNAD} {OTHER}"), _record(1, f"{ISNAD} {MATN}", "2")]

    assert _matched([_row(1, f"{ISNAD} {MATN}")], records) == [(("1", 1), MATCHED)]
    assert _matched([_row(1, f"{ISNAD} {MATN}", "3")], records) == [(None, NO_MATCH)]


def test_of_records_that_hold_a_row_alike_the_one_where_it_stands_in_order_is_chosen_and_none_out_of_order() -> None:
    first, last = f"{ISNAD} {MATN}", f"حدثنا مسدد حدثنا يحيى عن عبيد الله {OTHER}"
    repeated = "حدثنا عبد الله بن يوسف اخبرنا مالك عن ابن شهاب عن سالم عن ابيه مثله سواء"
    records = [_record(1, first), _record(2, repeated), _record(3, last), _record(4, repeated)]
    rows = [_row(1, first), _row(2, repeated), _row(3, last)]

    assert _matched(rows, records) == [(("1", 1), MATCHED), (("1", 2), IN_ORDER), (("1", 3), MATCHED)]
    assert _matched([rows[1]], records) == [(None, AMBIGUOUS)]  # no row around it: the text names neither


def test_a_short_row_is_matched_only_where_it_stands() -> None:
    short = "حدثنا قتيبة حدثنا الليث بهذا الاسناد"
    rows = [_row(1, f"{ISNAD} {MATN}"), _row(2, short), _row(3, f"حدثنا مسدد {OTHER}")]
    in_place = [_record(1, f"{ISNAD} {MATN}"), _record(2, f"{short} نحوه"), _record(3, f"حدثنا مسدد {OTHER}")]
    out_of_place = [_record(1, f"{ISNAD} {MATN}"), _record(2, f"حدثنا مسدد {OTHER}"), _record(3, f"{short} نحوه")]

    assert _matched(rows, in_place)[1] == (("1", 2), IN_ORDER)
    assert _matched(rows, out_of_place)[1] == (None, AMBIGUOUS)


def test_of_several_records_in_place_the_one_with_the_rows_very_words_then_the_one_it_opens_with() -> None:
    whole, tail = f"{ISNAD} {MATN}", "قال ابن عمر فحدثت به ابا هريرة فقال صدق"
    records = [_record(1, whole), _record(2, f"{whole} {tail}"), _record(3, f"حدثنا مسدد {OTHER}")]

    assert _matched([_row(1, whole), _row(2, f"حدثنا مسدد {OTHER}")], records)[0] == (("1", 1), SAME_WORDS)
    joined = [_record(1, whole), _record(2, f"{tail} {OTHER}"), _record(3, f"حدثنا مسدد {OTHER}")]
    rows = [_row(1, f"{whole} {tail} {OTHER}"), _row(2, f"حدثنا مسدد {OTHER}")]
    assert _matched(rows, joined)[0] == (("1", 1), SAME_OPENING)
