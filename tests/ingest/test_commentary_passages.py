"""The commentary passages computed from the OpenITI texts (ingest/commentary_passages.py), against the data scout's
staged passages of the same texts, and the hand-checked disagreements of eval/commentary_derivation_sample.csv
still as they were checked."""

import csv
import gzip
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ingest.commentary import WORKS, QuoteRarity, Work, _Passages
from ingest.commentary_passages import Passage, marked_passages, numbered_passages
from ingest.context import ImportContext
from ingest.openiti import UNNUMBERED_PAGE
from tests.conftest import REPO, shared_data_dir

SAMPLE = REPO / "eval" / "commentary_derivation_sample.csv"
STAGED = {
    "openiti-sindi-nasai": "sindi_hashiya_nasai",
    "openiti-suyuti-nasai": "suyuti_zahr_ruba_nasai",
    "openiti-suyuti-muslim": "suyuti_dibaj_muslim",
    "openiti-suyuti-ibnmajah": "suyuti_misbah_zujaja_ibnmajah",
    "openiti-suyuti-tirmidhi": "suyuti_qut_mughtadhi_tirmidhi",
    "openiti-suyuti-malik": "suyuti_tanwir_hawalik_muwatta",
    "openiti-ibn-daqiq-nawawi": "ibn_daqiq_sharh_arbain_nawawi",
}
# The passages whose text differs, per work: where the staged file cut «قوله» out of «وقوله», «بقوله», «لقوله»
# and left the particle; and Ibn Daqiq's hadith 1, whose opening words the staged file lost.
STUBS = {"openiti-sindi-nasai": 6, "openiti-suyuti-nasai": 3, "openiti-suyuti-ibnmajah": 12}
# The pages the passages' milestones put apart: the staged file took the milestone before the passage (closing the
# page before it), the computed one the milestone after (closing the page it starts on).
PAGES_APART = {
    "openiti-sindi-nasai": 2193,
    "openiti-suyuti-nasai": 953,
    "openiti-suyuti-muslim": 2108,
    "openiti-suyuti-ibnmajah": 2078,
    "openiti-suyuti-tirmidhi": 613,
    "openiti-suyuti-malik": 838,
    "openiti-ibn-daqiq-nawawi": 42,
}

Staged = dict[int, dict[str, Any]]


@cache
def _read(work: Work) -> tuple[dict[int, Passage], Staged]:
    ctx = ImportContext(shared_data_dir())
    computed = work.split(ctx.text(work.path, "the text", "test"))
    path = f"commentary/{STAGED[work.source_id]}.jsonl.gz"
    staged = {entry["seq"]: entry for _, entry in ctx.jsonl(path, "the oracle", "test")}
    return {passage.seq: passage for passage in computed}, staged


def _number(work: Work, entry: dict[str, Any]) -> int:
    return int(entry["marker_no"] if work.marked else entry["best_text_match_hadithnumber"])


def _heading(work: Work, entry: dict[str, Any]) -> str | None:
    return (entry["heading"] if work.marked else entry["title"]) or None


@pytest.mark.parametrize("work", WORKS, ids=[work.source_id for work in WORKS])
def test_the_computed_passages_are_the_staged_ones_but_where_the_staged_ones_left_a_particle_or_took_a_page_before(
    work: Work,
) -> None:
    computed, staged = _read(work)

    assert computed.keys() <= staged.keys()
    assert all(not staged[seq]["text"].strip() for seq in staged.keys() - computed.keys())  # empty between markers
    assert all(passage.number == _number(work, staged[seq]) for seq, passage in computed.items())
    differing = {seq for seq, passage in computed.items() if passage.text != staged[seq]["text"]}
    stubs = {seq for seq in differing if staged[seq]["text"][: len(computed[seq].text)] == computed[seq].text}
    assert all(len(staged[seq]["text"].split()[-1]) == 1 for seq in stubs)  # «و», «ب», «ل» left of «قوله»
    assert len(stubs) == STUBS.get(work.source_id, 0)
    assert differing - stubs == ({1} if work.source_id == "openiti-ibn-daqiq-nawawi" else set())
    apart = {seq for seq, p in computed.items() if p.page != _page(staged[seq]["page_start"])}
    assert len(apart) == PAGES_APART[work.source_id]


def _page(milestone: str) -> str | None:
    return None if milestone == UNNUMBERED_PAGE else milestone


def test_a_heading_is_the_staged_one_but_where_the_staged_one_kept_a_milestone() -> None:
    kept_milestones = {}
    for work in WORKS:
        computed, staged = _read(work)
        for seq, passage in computed.items():
            if passage.heading != _heading(work, staged[seq]):
                kept_milestones[(work.source_id, seq)] = (_heading(work, staged[seq]), passage.heading)

    assert kept_milestones == {
        ("openiti-suyuti-tirmidhi", 113): ("116 ms053 -", "116 -"),
        ("openiti-suyuti-tirmidhi", 540): ("559 ms128 -", "559 -"),
        ("openiti-suyuti-tirmidhi", 683): ("714 ms164 -", "714 -"),
        ("openiti-suyuti-tirmidhi", 883): ("924 ms233 -", "924 -"),
    }


def test_markers_open_passages_in_a_paragraph_or_as_a_heading_and_a_trailing_introduction_is_left_out() -> None:
    text = "\n".join(
        [
            "#META#Header#End#",
            "### | كتاب الطهارة",
            "# [1] قوله إذا استيقظ أحدكم وقوله",
            "~~[2] يشوص فاه PageV01P007 الحديث أعلمقوله",
            "### | [3]",
            "# وهو يستن",
        ]
    )
    assert [(p.number, p.seq, p.heading, p.text, p.page, p.line) for p in marked_passages(text)] == [
        (1, 1, "كتاب الطهارة", "قوله إذا استيقظ أحدكم", "PageV01P007", 3),
        (2, 2, "كتاب الطهارة", "يشوص فاه الحديث أعلم", "PageV01P007", 3),
        (3, 3, "كتاب الطهارة", "وهو يستن", None, 5),
    ]


def test_the_forty_are_divided_by_their_numbers_each_titled_by_the_line_before_it() -> None:
    text = "\n".join(
        [
            "#META#Header#End#",
            "# إنما الأعمال بالنيات",
            "### | 1 -",
            "# عن عمر قال",
            "### | إنما الأعمال بالنيات",
            "# وإنما لكل امرئ ما نوى",
            "### | بيان الإسلام",
            "### | 2 -",
            "# عن عمر أيضا",
        ]
    )
    assert [(p.number, p.heading, p.text) for p in numbered_passages(text)] == [
        (1, "إنما الأعمال بالنيات", "عن عمر قال إنما الأعمال بالنيات وإنما لكل امرئ ما نوى"),
        (2, "بيان الإسلام", "عن عمر أيضا"),
    ]


def _field(work: Work, field: str, seq: int) -> tuple[str, str]:
    computed, staged = _read(work)
    passage, entry = computed[seq], staged[seq]
    values = {
        "text": (passage.text[-60:], entry["text"][-60:]),
        "opening": (passage.text[:60], entry["text"][:60]),
        "page": (passage.page or "", _page(entry["page_start"]) or ""),
        "heading": (passage.heading or "", _heading(work, entry) or ""),
    }
    return values[field]


def test_each_hand_checked_disagreement_is_still_the_same() -> None:
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        sample = list(csv.DictReader(f))
    works = {work.source_id: work for work in WORKS}

    assert len(sample) == 18
    for row in sample:
        work = works[row["source_id"]]
        assert _field(work, row["field"], int(row["seq"])) == (row["computed"], row["staged"]), row
        assert row["right"] in {"computed", "staged", "neither"}


def test_a_passage_read_from_a_line_whose_bytes_are_not_utf8_is_left_out_and_reported(tmp_path: Path) -> None:
    sindi, line = WORKS[0], 84  # the line of al-Sindi's marker [2]
    lines = gzip.decompress((shared_data_dir() / sindi.path).read_bytes()).split(b"\n")
    lines[line - 1] = lines[line - 1][:6] + b"\xff" + lines[line - 1][6:]  # after «# [2] »
    (tmp_path / sindi.path).parent.mkdir(parents=True)
    (tmp_path / sindi.path).write_bytes(gzip.compress(b"\n".join(lines)))
    ctx = ImportContext(tmp_path)

    _Passages(ctx, sindi, {}, QuoteRarity([], set())).read()

    seqs = {row["seq"] for row in ctx.tables["commentary_passage"]}
    assert 2 not in seqs and {1, 3} <= seqs
    assert ctx.bad_rows() == [f"{sindi.path}:{line}: bytes that are not UTF-8 at offset 6 of the line"]
