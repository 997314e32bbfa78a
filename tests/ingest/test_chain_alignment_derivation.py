"""The alignment of the chains to the hadith computed from the upstream copies (ingest/chain_alignment.py), against
the data scout's staged `kaggle_chains_aligned.csv.gz`, on the full data: the agreement docs/data.md publishes, and
the hand-checked disagreements of eval/chain_alignment_sample.csv still as they were checked; and the tests'
subset, which places its chains as the full data does."""

import csv
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from ingest import chain_alignment
from ingest.chain_alignment import (
    ALIGNED,
    CHAINS_FILE,
    COLLECTIONS,
    Alignment,
    UpstreamChain,
    collection_blocks,
    computed_alignment,
    unit_keys,
)
from ingest.context import ImportContext
from tests.conftest import REPO, shared_data_dir
from tests.subset import whole_alignment

STAGED = "narrators/kaggle_muslimscholars/kaggle_chains_aligned.csv.gz"
SAMPLE = REPO / "eval" / "chain_alignment_sample.csv"
KINDS = ("same", "staged_only", "computed_only", "different", "neither")
PUBLISHED = {  # docs/data.md, "Derivations": chains, same hadith, staged only, computed only, different, neither
    "bukhari": (7_471, 6_371, 76, 798, 32, 194),
    "muslim": (7_495, 6_805, 80, 492, 56, 62),
    "abudawud": (5_260, 4_934, 116, 159, 8, 43),
    "tirmidhi": (4_214, 3_864, 68, 222, 21, 39),
    "nasai": (5_774, 5_365, 56, 298, 17, 38),
    "ibnmajah": (4_227, 3_936, 49, 208, 5, 29),
}

MUSLIM_2564A = 13_956  # the chain of Muslim 2564a (kitab 45, 40): see the subset test

needs_full_data = pytest.mark.skipif(not (shared_data_dir() / CHAINS_FILE).exists(), reason="no full data folder")

Placed = tuple[str, str] | None  # (kitab, index in kitab) of an aligned chain's hadith


@cache
def _both() -> tuple[list[Alignment], list[dict[str, str]]]:
    ctx = ImportContext(shared_data_dir())
    staged = [row for _, row in ctx.csv(STAGED, "the staged alignment, as an oracle", "test", derived=True)]
    return whole_alignment(shared_data_dir()), staged


def _placed(alignment: Alignment) -> Placed:
    return alignment.key if alignment.status == ALIGNED else None


def _staged_placed(row: dict[str, str]) -> Placed:
    return (row["hj_kitab_chapterId"], row["hj_idInBook"]) if row["status"] == ALIGNED else None


def _written(placed: Placed) -> str:
    return "/".join(placed) if placed else ""


def _kind(computed: Placed, staged: Placed) -> str:
    if computed == staged:
        return "same" if computed else "neither"
    return "staged_only" if computed is None else "computed_only" if staged is None else "different"


@needs_full_data
def test_the_computed_alignment_agrees_with_the_staged_one_as_published() -> None:
    computed, staged = _both()
    tally: dict[str, Counter[str]] = {collection: Counter() for collection in COLLECTIONS}

    assert [(a.row, a.collection) for a in computed] == [(int(r["kaggle_row"]), r["collection"]) for r in staged]
    for alignment, row in zip(computed, staged, strict=True):
        tally[alignment.collection][_kind(_placed(alignment), _staged_placed(row))] += 1

    figures = {c: (sum(t.values()), *(t[kind] for kind in KINDS)) for c, t in tally.items()}
    assert figures == PUBLISHED


@needs_full_data
def test_each_hand_checked_disagreement_is_still_the_same() -> None:
    computed, staged = _both()
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        sample = list(csv.DictReader(f))

    assert len(sample) >= 20
    assert len({row["collection"] for row in sample}) == len(COLLECTIONS)
    for row in sample:
        chain = int(row["chain_row"])
        computed_key, staged_key = _placed(computed[chain]), _staged_placed(staged[chain])
        seen = (
            computed[chain].collection,
            _kind(computed_key, staged_key),
            _written(staged_key),
            _written(computed_key),
        )
        assert seen == (row["collection"], row["kind"], row["staged"], row["computed"]), chain
        assert row["right"] in {"computed", "staged", "neither", "both"}
    assert Counter(row["right"] for row in sample) == {"staged": 12, "computed": 12}


@needs_full_data
def test_the_subset_places_its_chains_where_the_full_data_places_them(subset_dir: Path) -> None:
    """The subset keeps the narrators only of the chains placed on a kept hadith in the full data (tests/subset.py):
    each lands on its own and none on a kept hadith that is not its own. A chain's id predicts its place from the
    offset (place less id) of the chain placed before it: Muslim 2564a's (16,607) lands on its own since the subset
    keeps Muslim 37/7's chain before it (row 12,791); with a chain of kitab 2 before it, the offset was -22 where the
    full data's is -136, and its hadith lay beyond the window."""
    whole, _ = _both()
    subset = computed_alignment(ImportContext(subset_dir))
    kept = {chain.row: whole[chain.row] for chain in subset if chain.scholars}
    placed = {chain.row: chain.key for chain in subset if chain.status == ALIGNED}

    assert len(kept) > 250
    assert all(chain.status == ALIGNED for chain in kept.values())
    assert {row: kept[row].key for row in placed} == placed
    assert kept.keys() == placed.keys()
    assert MUSLIM_2564A in placed


def test_two_units_a_letter_apart_share_a_key_and_short_ones_only_themselves() -> None:
    assert unit_keys("خيثمه") & unit_keys("خثيمه")
    assert unit_keys("سلمان") & unit_keys("سلمن")
    assert unit_keys("بكر") == {"بكر"}
    assert not unit_keys("بكر") & unit_keys("بشر")


def test_a_placeholder_id_keeps_the_block_of_the_row_before_it_and_a_new_block_starts_a_collection() -> None:
    ids = [1, 2, 1, 10_102, 45, 2, 10_103, 20_001, 1]  # Bukhari 1, 2, a placeholder; Muslim, two placeholders; ...
    chains = [UpstreamChain(row, hadith_id, (1,)) for row, hadith_id in enumerate(ids)]

    assert [block for _, block in collection_blocks(chains)] == [0, 0, 0, 1, 1, 1, 1, 2, 2]


def test_an_import_computes_the_alignment_once_for_the_steps_that_read_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    computed: list[ImportContext] = []

    def compute(ctx: ImportContext) -> list[Alignment]:
        computed.append(ctx)
        return []

    monkeypatch.setattr(chain_alignment, "computed_alignment", compute)
    first, second = ImportContext(tmp_path), ImportContext(tmp_path)

    assert chain_alignment.alignment(first) is chain_alignment.alignment(first)
    assert chain_alignment.alignment(second) == []
    assert computed == [first, second]
