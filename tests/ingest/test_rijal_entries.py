"""The rijal notices computed from the OpenITI texts (ingest/rijal_entries.py, read by ingest/openiti.py), against
the data scout's staged notices of the same texts, and the hand-checked disagreements of
eval/rijal_derivation_sample.csv still as they were checked."""

import bisect
import csv
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from ingest.context import ImportContext
from ingest.narrators import name_key
from ingest.openiti import Piece, pieces
from ingest.rijal_entries import Notice, headword, notices
from ingest.rijal_notices import TAQRIB, WORKS, Work
from ingest.verdicts import stated_tabaqa
from tests.conftest import REPO, shared_data_dir

SAMPLE = REPO / "eval" / "rijal_derivation_sample.csv"
STAGED = {
    "taqrib": "rijal/taqrib_entries.jsonl.gz",
    "kashif": "rijal/kashif_entries.jsonl.gz",
    "mughni": "rijal/mughni_duafa_entries.jsonl.gz",
}
# Numbers printed as a paragraph after a stray number heading («### | 4», «# 860-»), and one notice marked as a
# biography on its own line («### $ 5561- ...»): the staged file lost them.
ONLY_COMPUTED = {"taqrib": set(), "kashif": {860, 862, 969, 1173, 1555, 1859, 2085, 2438, 2545, 5561}, "mughni": set()}
# The pages a notice's milestones put apart: the staged file took the milestone before the notice (which closes the
# page before it), the computed one the milestone after (which closes the page it starts on); most are unnumbered.
PAGES_APART = {"taqrib": 43, "kashif": 81, "mughni": 76}

T = TypeVar("T")
Key = tuple[int, int]  # the notice's number, and its rank among the notices of that number


def _keyed(items: list[T], number: Callable[[T], int]) -> dict[Key, T]:
    seen: Counter[int] = Counter()
    keyed: dict[Key, T] = {}
    for item in items:
        seen[number(item)] += 1
        keyed[(number(item), seen[number(item)])] = item
    return keyed


def _read(work: Work) -> tuple[str, dict[Key, Notice], dict[Key, dict[str, Any]]]:
    ctx = ImportContext(shared_data_dir())
    text = ctx.text(work.path, "the text", "test")
    staged = [entry for _, entry in ctx.jsonl(STAGED[work.prefix], "the oracle", "test")]
    return text, _keyed(notices(text), lambda n: n.entry_no), _keyed(staged, lambda e: e["entry_no"])


def _milestone_before(page_pieces: list[Piece], notice: Notice) -> str | None:
    place = bisect.bisect_left([piece.line for piece in page_pieces], notice.lines.start)
    return page_pieces[place - 1].text if place else None


def _page(milestone: str | None) -> str | None:
    return None if milestone == "PageV00P000" else milestone


@pytest.mark.parametrize("work", WORKS, ids=[work.prefix for work in WORKS])
def test_the_computed_notices_are_the_staged_ones_with_their_texts_but_for_the_notices_and_pages_they_lost(
    work: Work,
) -> None:
    text, computed, staged = _read(work)

    assert staged.keys() <= computed.keys()
    assert {number for number, _ in computed.keys() - staged.keys()} == ONLY_COMPUTED[work.prefix]
    assert all(computed[key].text == staged[key]["text"] for key in staged)
    page_pieces = [piece for piece in pieces(text) if piece.kind == "page"]
    assert all(staged[key]["page_start"] == _milestone_before(page_pieces, computed[key]) for key in staged)
    apart = [key for key in staged if computed[key].page != _page(staged[key]["page_start"])]
    assert len(apart) == PAGES_APART[work.prefix]


def test_a_taqrib_tabaqa_is_the_staged_one_but_where_the_staged_file_missed_a_form_or_read_a_cross_reference() -> None:
    _, computed, staged = _read(TAQRIB)

    differing = {key[0]: (staged[key].get("tabaqa"), stated_tabaqa(computed[key].text)) for key in staged}
    differing = {number: pair for number, pair in differing.items() if pair[0] != pair[1]}
    missed = {number for number, (was, now) in differing.items() if was is None and now is not None}
    assert len(missed) == 22  # «وهو رأس الطبقة العاشرة», «من الطبقة السابعة», «من السادسه» ...
    assert differing.keys() - missed == {7870}  # a Companion: «من الثامنة» is said of the notice «[]» refers to
    assert differing[7870] == (8, None)


def test_a_taqrib_headword_stops_at_the_verdict_and_names_the_same_narrator_key_as_the_staged_one() -> None:
    _, computed, staged = _read(TAQRIB)

    words = {key: headword(computed[key].text) for key in staged}
    same = [key for key in staged if words[key] == staged[key]["name_ar"]]
    same_key = [key for key in staged if name_key(words[key] or computed[key].text) == name_key(staged[key]["name_ar"])]
    assert (len(same), len(same_key), sum(word is None for word in words.values())) == (7958, 8818, 210)


def test_the_reader_skips_the_header_joins_lines_drops_milestones_and_gives_pages_after_their_paragraph() -> None:
    text = "\n".join(
        [
            "######OpenITI#",
            "#META# 020.BookTITLE :: title",
            "#META#Header#End#",
            "### | حرف الألف",
            "### | 1- ",
            "# أحمد ابن إبراهيم ms001 صدوق",
            "~~من العاشرة PageV01P076",
            "# PageV00P000",
            "### $ 2- خالد",
        ]
    )
    assert [(piece.kind, piece.text, piece.line) for piece in pieces(text)] == [
        ("heading", "حرف الألف", 4),
        ("heading", "1-", 5),
        ("paragraph", "أحمد ابن إبراهيم صدوق من العاشرة", 6),
        ("page", "PageV01P076", 7),
        ("page", "PageV00P000", 8),
        ("heading", "2- خالد", 9),
    ]
    assert [(n.entry_no, n.text, n.page, n.lines) for n in notices(text)] == [
        (1, "أحمد ابن إبراهيم صدوق من العاشرة", "PageV01P076", range(5, 9)),
        (2, "خالد", None, range(9, 10)),
    ]


def _field(field: str, notice: Notice | None, entry: dict[str, Any] | None) -> tuple[str, str]:
    """A field of a sampled notice as the sample writes it, computed and staged ('' for none)."""
    if field == "notice":
        return (notice.text.split("\n")[0] if notice else ""), ("" if entry is None else entry["text"])
    assert notice and entry
    computed, staged = {
        "page": (notice.page, _page(entry["page_start"])),
        "tabaqa": (stated_tabaqa(notice.text), entry.get("tabaqa")),
        "headword": (headword(notice.text), entry.get("name_ar")),
    }[field]
    return ("" if computed is None else str(computed)), ("" if staged is None else str(staged))


def test_each_hand_checked_disagreement_is_still_the_same() -> None:
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        sample = list(csv.DictReader(f))
    read = {work.prefix: _read(work)[1:] for work in WORKS}

    assert Counter(row["work"] for row in sample) == {"taqrib": 15, "kashif": 13, "mughni": 10}
    for row in sample:
        computed, staged = read[row["work"]]
        number, _, rank = row["entry_id"].split(":")[1].partition("#")
        key = (int(number), int(rank or 1))
        assert _field(row["field"], computed.get(key), staged.get(key)) == (row["computed"], row["staged"]), row
        assert row["right"] in {"computed", "staged", "neither"}
