"""The mention of each dataset chain node, read from the Arabic of its hadith by the importer (ingest/dataset_chains.py,
ingest/chain_reading.py), against the data scout's staged `chain_nodes_derived.jsonl.gz` (spans cut at the first
comma), on the full data: the agreement docs/data.md publishes, for the chains that both place on the same hadith,
and the hand-checked disagreements of eval/chain_mentions_sample.csv still as they were checked.

The importer's nodes are read in memory by its first four reading steps, with the alignment that the subset and
the alignment's test compute once per session (tests/subset.py): three minutes for this file alone on the full data
(the alignment included), less in the whole suite."""

import csv
from collections import Counter
from functools import cache
from typing import Any

import pytest

from app.text.arabic import normalize
from ingest import chain_alignment, chains, hadith, ids, narrators, rijal
from ingest.chain_alignment import ALIGNED, CHAINS_FILE, COLLECTIONS
from ingest.context import ImportContext
from tests.conftest import REPO, shared_data_dir
from tests.subset import whole_alignment

STAGED = "narrators/kaggle_muslimscholars/chain_nodes_derived.jsonl.gz"
LOCATED = "resolved_by_dataset_id"  # the staged status of a located node; `id_only_not_found_in_text` otherwise
SAMPLE = REPO / "eval" / "chain_mentions_sample.csv"
KINDS = ("same", "same_start", "different", "importer_only", "staged_only", "neither")
PUBLISHED = {  # docs/data.md, "Derivations": chains, nodes, then one figure per kind, in the order of KINDS
    "bukhari": (6_371, 31_837, 24_345, 3_581, 675, 3_017, 87, 132),
    "muslim": (6_805, 37_288, 25_207, 5_140, 2_109, 4_549, 76, 207),
    "abudawud": (4_934, 24_509, 19_529, 1_914, 654, 2_201, 86, 125),
    "tirmidhi": (3_864, 19_655, 16_036, 1_101, 529, 1_857, 52, 80),
    "nasai": (5_365, 28_329, 23_143, 1_674, 623, 2_656, 83, 150),
    "ibnmajah": (3_936, 20_457, 16_208, 1_268, 688, 2_153, 64, 76),
}

RIGHT = {"importer": 21, "staged": 1}  # the verdicts of the sample

needs_full_data = pytest.mark.skipif(not (shared_data_dir() / CHAINS_FILE).exists(), reason="no full data folder")

NodeKey = tuple[int, int]  # (upstream chain row, position)


@cache
def _both() -> tuple[dict[NodeKey, str | None], list[dict[str, Any]]]:
    """The importer's mention of each node of the chains that it and the staged file place on the same hadith (None
    where it locates none), and the staged chains of those."""
    data = shared_data_dir()
    ctx = ImportContext(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chain_alignment, "computed_alignment", lambda _: whole_alignment(data))
        for build in (hadith.build, narrators.build, rijal.build, chains.build):
            build(ctx)
    staged = [row for _, row in ctx.jsonl(STAGED, "the staged node mentions, as an oracle", "test", derived=True)]
    placed = {chain.row: chain.key for chain in whole_alignment(data) if chain.status == ALIGNED}
    same = [row for row in staged if placed.get(row["kaggle_row"]) == _staged_key(row)]
    rows = {ids.dataset_chain_id(row["kaggle_row"]): row["kaggle_row"] for row in same}
    mentions = {
        (rows[node["chain_id"]], node["position"]): node["mention_ar"]
        for node in ctx.tables["chain_node"]
        if node["chain_id"] in rows
    }
    return mentions, same


def _staged_key(row: dict[str, Any]) -> tuple[str, str]:
    return str(row["hj_kitab_chapterId"]), str(row["hj_idInBook"])


def _staged_mention(node: dict[str, Any]) -> str | None:
    return str(node["mention_ar"]) if node["status"] == LOCATED and node["mention_ar"] else None


def _kind(importer: str | None, staged: str | None) -> str:
    if importer and staged:
        ours, theirs = normalize(importer), normalize(staged)
        if ours == theirs:
            return "same"
        return "same_start" if ours.split()[:1] == theirs.split()[:1] else "different"
    return "importer_only" if importer else "staged_only" if staged else "neither"


@needs_full_data
def test_the_importers_mentions_agree_with_the_staged_ones_as_published() -> None:
    mentions, staged = _both()
    tally: dict[str, Counter[str]] = {collection: Counter() for collection in COLLECTIONS}

    for row in staged:
        tally[row["collection"]]["chains"] += 1
        for node in row["nodes"]:
            importer = mentions[row["kaggle_row"], node["position"]]
            tally[row["collection"]][_kind(importer, _staged_mention(node))] += 1

    figures = {c: (t["chains"], t.total() - t["chains"], *(t[kind] for kind in KINDS)) for c, t in tally.items()}
    assert figures == PUBLISHED


@needs_full_data
def test_each_hand_checked_disagreement_is_still_the_same() -> None:
    mentions, staged = _both()
    nodes = {(row["kaggle_row"], node["position"]): (row, node) for row in staged for node in row["nodes"]}
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        sample = list(csv.DictReader(f))

    assert len(sample) >= 20
    assert len({row["collection"] for row in sample}) == len(COLLECTIONS)
    for case in sample:
        key = int(case["chain_row"]), int(case["position"])
        row, node = nodes[key]
        importer, staged_mention = mentions[key], _staged_mention(node)
        seen = (
            row["collection"],
            f"{row['hj_kitab_chapterId']}/{row['hj_idInBook']}",
            node["scholar_indx"],
            _kind(importer, staged_mention),
            staged_mention or "",
            importer or "",
        )
        expected = (case["collection"], case["hadith"], int(case["scholar"]), case["kind"], case["staged"])
        assert seen == (*expected, case["importer"]), key
        assert case["right"] in {"importer", "staged", "neither", "both"}
    assert Counter(case["right"] for case in sample) == RIGHT
