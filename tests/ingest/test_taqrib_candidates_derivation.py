"""The Taqrib candidates of the dataset's narrators (ingest/taqrib_candidates.py) and the links of the AR-Sanad Lite
narrators (ingest/lite_links.py), computed from the upstream copies, against the data scout's staged
`narrator_to_taqrib_candidates.jsonl.gz` and `lite_to_taqrib_links.jsonl.gz`, on the full data: the agreement
docs/data.md publishes, and the hand-checked disagreements of eval/taqrib_candidates_sample.csv still as they were
checked."""

import csv
from collections import Counter
from dataclasses import dataclass
from functools import cache

import pytest

from ingest.context import ImportContext
from ingest.lite_links import LITE_FILE, LITE_PURPOSE, lite_links
from ingest.rijal_notices import TAQRIB, Library, _read_work
from ingest.taqrib_candidates import CHAINS_PURPOSE, Candidate, taqrib_candidates
from tests.conftest import REPO, shared_data_dir

STAGED_CANDIDATES = "narrators/kaggle_muslimscholars/narrator_to_taqrib_candidates.jsonl.gz"
STAGED_LITE = "narrators/ar_sanad_lite/lite_to_taqrib_links.jsonl.gz"
SAMPLE = REPO / "eval" / "taqrib_candidates_sample.csv"
KINDS = ("same", "staged_only", "computed_only", "different")
PUBLISHED = {  # docs/data.md, "Derivations": same notice, staged only, computed only, different notice
    "candidates": (2_494, 39, 578, 0),
    "lite": (1_117, 67, 210, 0),
}
METHODS = {  # docs/data.md: the computed candidates and links by method
    "candidates": {"name3": 1_855, "name3_namesakes": 1_166, "name2": 43, "name2_namesakes": 8},
    "lite": {
        "name3+rank+tabaqa": 498,
        "name3+rank": 104,
        "name3+tabaqa": 2,
        "name3_namesakes+rank+tabaqa": 597,
        "name3_namesakes+rank": 67,
        "name2+rank+tabaqa": 17,
        "name2+rank": 8,
        "name2_namesakes+rank+tabaqa": 27,
        "name2_namesakes+rank": 7,
    },
}
VERDICTS = {"computed": 25, "staged": 4}  # eval/taqrib_candidates_sample.csv

needs_full_data = pytest.mark.skipif(not (shared_data_dir() / STAGED_CANDIDATES).exists(), reason="no full data folder")


@dataclass(frozen=True)
class Both:
    """Each derivation's entry numbers by id (scholar_indx, Lite id), computed and staged, and the computed methods."""

    computed: dict[str, dict[int, str]]
    staged: dict[str, dict[int, str]]
    methods: dict[str, Counter[str]]


@cache
def _both() -> Both:
    ctx = ImportContext(shared_data_dir())
    library = Library()
    _read_work(ctx, library, TAQRIB)
    number = {notice: row["entry_number"] for notice, row in library.notices.items()}
    candidates: list[Candidate] = taqrib_candidates(ctx, library)
    records = [record for _, record in ctx.csv(LITE_FILE, LITE_PURPOSE, "ar-sanad-lite")]
    links = lite_links(records, library)
    staged = {
        name: {obj[key]: str(obj["taqrib_entry_no"]) for _, obj in ctx.jsonl(path, "the oracle", "test", derived=True)}
        for name, path, key in (
            ("candidates", STAGED_CANDIDATES, "scholar_indx"),
            ("lite", STAGED_LITE, "lite_id"),
        )
    }
    return Both(
        {
            "candidates": {c.narrator: number[c.notice] for c in candidates},
            "lite": {link.lite_id: number[link.notice] for link in links},
        },
        staged,
        {"candidates": Counter(c.method for c in candidates), "lite": Counter(link.method for link in links)},
    )


def _kind(computed: str | None, staged: str | None) -> str:
    if computed == staged:
        return "same"
    return "staged_only" if computed is None else "computed_only" if staged is None else "different"


@needs_full_data
def test_the_computed_candidates_and_lite_links_agree_with_the_staged_ones_as_published() -> None:
    both = _both()
    figures = {}
    for name, computed in both.computed.items():
        staged = both.staged[name]
        tally = Counter(_kind(computed.get(i), staged.get(i)) for i in computed.keys() | staged.keys())
        figures[name] = tuple(tally[kind] for kind in KINDS)

    assert figures == PUBLISHED
    assert both.methods == METHODS


@needs_full_data
def test_the_chains_are_read_for_which_narrators_occur_and_how_often() -> None:
    ctx = ImportContext(shared_data_dir())
    library = Library()
    _read_work(ctx, library, TAQRIB)

    candidates = {c.narrator: c for c in taqrib_candidates(ctx, library)}

    assert ctx.files["narrators/kaggle_muslimscholars/all_hadiths_chain.json.gz"].purpose == CHAINS_PURPOSE
    assert candidates[13].occurrences == 4_395  # Abu Hurayra
    assert candidates[13].method == "name2"


@needs_full_data
def test_each_hand_checked_disagreement_is_still_the_same() -> None:
    both = _both()
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        sample = list(csv.DictReader(f))

    assert len(sample) >= 20
    assert {row["derivation"] for row in sample} == {"candidates", "lite"}
    for row in sample:
        name, found = row["derivation"], int(row["id"])
        computed, staged = both.computed[name].get(found), both.staged[name].get(found)
        seen = (_kind(computed, staged), staged or "", computed or "")
        assert seen == (row["kind"], row["staged"], row["computed"]), (name, found)
        assert row["right"] in {"computed", "staged", "neither"}
    assert Counter(row["right"] for row in sample) == VERDICTS
