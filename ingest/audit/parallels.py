"""The audit of parallels: the grouping of ingest/parallels.py measured against the hand-checked sample
`eval/parallels_sample.csv`, and the parallels per hadith.

The sample was drawn from the candidate pairs (two matns sharing at least two rare runs of words), 8 pairs in each
band of similarity ([0, 0.3), [0.3, 0.4) ... [0.9, 1]), each pair read in both matns and marked the same report or
not. Precision and recall are given two ways at each threshold: on the sample as drawn, and weighted by how many
candidate pairs each band holds in the built database (each band's share of same reports, read in its 8 pairs,
times its pairs), which is the estimate for the whole grouping. Pairs that are not candidates are not measured.
"""

import csv
from collections.abc import Sequence
from pathlib import Path

import asyncpg

from ingest import parallels
from ingest.audit.section import Rows, Section, query

SAMPLE = Path(__file__).resolve().parents[2] / "eval" / "parallels_sample.csv"
BANDS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)

MATNS = "SELECT hadith_id, matn_ar_normalized FROM hadith_matn"
# a hadith by its canonical reference, and by its place in the book («tirmidhi/48/54»), which its numbering leaves
IDS = """SELECT h.hadith_id, h.canonical_reference, c.code || '/' || h.in_book_reference AS in_book
           FROM hadith h JOIN collection c USING (collection_id)"""
PER_HADITH = """
SELECT count(DISTINCT hadith_id) AS hadith_with_parallels, count(*) / 2 AS pairs,
       max(parallel_rank) AS most_parallels_of_one_hadith,
       (SELECT count(*) FROM hadith_matn) AS hadith_with_a_matn, (SELECT count(*) FROM hadith) AS hadith
  FROM hadith_parallel
"""


def _band(score: float) -> int:
    return next(i for i in range(len(BANDS) - 1) if BANDS[i] <= score < BANDS[i + 1])


def _measures(
    threshold: float, sample: Sequence[tuple[float, bool]], pairs_per_band: Sequence[int]
) -> dict[str, object]:
    kept = [same for score, same in sample if score >= threshold]
    same = [score >= threshold for score, is_same in sample if is_same]
    weighted_same = [0.0] * len(pairs_per_band)
    weighted_kept = [0.0] * len(pairs_per_band)
    for score, is_same in sample:
        band = _band(score)
        drawn = sum(1 for other, _ in sample if _band(other) == band)
        weight = pairs_per_band[band] / drawn
        weighted_same[band] += weight * is_same
        weighted_kept[band] += weight * is_same * (score >= threshold)
    accepted = sum(pairs_per_band[_band(b)] for b in BANDS[:-1] if b >= threshold)
    return {
        "threshold": threshold,
        "sample_precision": round(sum(kept) / len(kept), 3) if kept else None,
        "sample_recall": round(sum(same) / len(same), 3) if same else None,
        "estimated_precision": round(sum(weighted_kept) / accepted, 3) if accepted else None,
        "estimated_recall": round(sum(weighted_kept) / sum(weighted_same), 3),
        "pairs_accepted": accepted,
    }


async def _grouping(conn: asyncpg.Connection) -> Rows:
    matns = {row["hadith_id"]: row["matn_ar_normalized"] for row in await conn.fetch(MATNS)}
    refs = await conn.fetch(IDS)
    ids = {ref: row["hadith_id"] for row in refs for ref in (row["in_book"], row["canonical_reference"])}
    words = parallels.content_words(matns)
    pairs_per_band = [0] * (len(BANDS) - 1)
    for a, b in parallels.candidates(words):
        pairs_per_band[_band(parallels.similarity(words[a], words[b]))] += 1
    with SAMPLE.open(encoding="utf-8", newline="") as file:
        marked = [
            (ids[row["hadith_a"]], ids[row["hadith_b"]], row["same_report"] == "1") for row in csv.DictReader(file)
        ]

    sample = [(parallels.similarity(words[a], words[b]), same) for a, b, same in marked]
    return [_measures(threshold, sample, pairs_per_band) for threshold in THRESHOLDS]


SECTIONS: tuple[Section, ...] = (
    Section("Parallels per hadith", query(PER_HADITH), "Only hadith with a matn split (the LK corpus) are compared."),
    Section(
        "Parallels: precision and recall on the hand-checked sample",
        _grouping,
        f"eval/parallels_sample.csv, {parallels.METHOD}; the import keeps pairs at {parallels.THRESHOLD} or above. "
        "sample_*: the 64 pairs as drawn (8 a band); estimated_*: each band weighted by its candidate pairs.",
    ),
)
