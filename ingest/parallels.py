"""Parallels: the hadith whose matn is the same report, found by comparing the matns (never the isnads).

The matn is the LK corpus's (its isnad and matn split), normalized (ingest/seven_collections.py keeps it in
`hadith_matn`); a hadith without one has no parallels computed. Each matn is read as its content words: the stems
(app.arabic.stem) that are in at most COMMON_SHARE of the matns, so that the formulas every report shares
(«قال رسول الله صلى الله عليه وسلم», «عن», «أن») weigh nothing.

Two steps, so that ~35,000 matns are compared in seconds rather than as 600 million pairs:

1. candidates: two matns that share at least MIN_SHARED runs of SHINGLE content words, a run counted only
   where at most MAX_POSTING matns hold it (a longer list is a formula, not one report's words);
2. similarity: the content words the two matns share (as multisets), over the shorter one's count. A matn of
   fewer than MIN_WORDS content words is too short to tell one report from another and is left out.

A pair at THRESHOLD or above is a parallel; each hadith lists its parallels by similarity, then id. The
threshold was measured on the hand-checked sample `eval/parallels_sample.csv` (docs/data-quality.md,
"Parallels").
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from app.text.arabic import stem
from ingest.context import ImportContext

METHOD = "matn_content_word_containment"
SHINGLE = 3
COMMON_SHARE = 0.05
MAX_POSTING = 60
MIN_SHARED = 2
MIN_WORDS = 4
THRESHOLD = 0.5

Words = dict[int, list[str]]


def content_words(matns: Mapping[int, str]) -> Words:
    """Each matn's stems, the formulas (stems in more than COMMON_SHARE of the matns) left out."""
    stems = {hadith: [stem(word) for word in matn.split()] for hadith, matn in matns.items()}
    counts: Counter[str] = Counter()
    for words in stems.values():
        counts.update(set(words))
    common = {word for word, count in counts.items() if count > COMMON_SHARE * len(stems)}
    return {hadith: [word for word in words if word not in common] for hadith, words in stems.items()}


def _shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def candidates(words: Words) -> Iterable[tuple[int, int]]:
    """The pairs (lower id first) that share at least MIN_SHARED rare runs of words."""
    postings: defaultdict[tuple[str, ...], list[int]] = defaultdict(list)
    for hadith in sorted(words):
        if len(words[hadith]) >= MIN_WORDS:
            for shingle in _shingles(words[hadith]):
                postings[shingle].append(hadith)
    shared: Counter[tuple[int, int]] = Counter()
    for holders in postings.values():
        if 2 <= len(holders) <= MAX_POSTING:
            shared.update((a, b) for i, a in enumerate(holders) for b in holders[i + 1 :])
    return (pair for pair, count in shared.items() if count >= MIN_SHARED)


def similarity(a: list[str], b: list[str]) -> float:
    """The content words two matns share (as multisets), over the shorter one's count."""
    common = sum((Counter(a) & Counter(b)).values())
    return round(common / min(len(a), len(b)), 3)


def parallels(matns: Mapping[int, str]) -> list[tuple[int, int, float]]:
    """(hadith, parallel, similarity) for every pair at THRESHOLD or above, lower id first."""
    words = content_words(matns)
    scored = ((a, b, similarity(words[a], words[b])) for a, b in candidates(words))
    return sorted(pair for pair in scored if pair[2] >= THRESHOLD)


def build(ctx: ImportContext) -> None:
    """hadith_parallel: both directions of each pair, ranked within each hadith by similarity, then id."""
    matns = {row["hadith_id"]: row["matn_ar_normalized"] for row in ctx.tables["hadith_matn"]}
    listed: defaultdict[int, list[tuple[float, int]]] = defaultdict(list)
    for a, b, score in parallels(matns):
        listed[a].append((score, b))
        listed[b].append((score, a))
    for hadith, found in sorted(listed.items()):
        for rank, (score, other) in enumerate(sorted(found, key=lambda item: (-item[0], item[1])), start=1):
            ctx.add(
                "hadith_parallel",
                {"hadith_id": hadith, "parallel_rank": rank, "parallel_hadith_id": other, "similarity": score},
            )
