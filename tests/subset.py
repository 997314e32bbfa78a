"""A small real subset of the data folder: the first hadith of the first kitabs of each collection,
and every row that joins to them.

Every file is either filtered (the same rows, fewer of them) or linked unchanged, so the importer
reads the subset exactly as it reads the full folder; the upstream chains keep every row in its place, the
narrators only of the chains placed on a kept hadith (`_chains`). Nothing here is committed data: it is cut
from ../shared/data at test time.
"""

import csv
import gzip
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ingest import lk_crosswalk
from ingest.chain_alignment import ALIGNED, Alignment, computed_alignment
from ingest.context import ImportContext
from ingest.hadith_sources import read_hadith_json, read_numbers
from ingest.manifest import write_derived_manifest

KITABS = 2  # kitab 0 (an introduction, where there is one), 1 and 2
HADITH_PER_KITAB = 25
HOW = (
    f"tests/subset.py: the first {HADITH_PER_KITAB} hadith of kitabs 0 to {KITABS} of each collection, "
    "and every row that joins to them"
)
COLLECTIONS = ("bukhari", "muslim", "abudawud", "tirmidhi", "nasai", "ibnmajah", "malik")
FAWAZ_FILES = {
    "abudawud1": "abudawud",
    "nasai1": "nasai",
    "tirmidhi1": "tirmidhi",
}

STAGED_NUMBERS = "hadith/crosswalks/hadith_json_to_fawaz_numbers.csv.gz"  # not read by the importer: kept short
STAGED_LK = "hadith/crosswalks/lk_to_hadith_json.csv.gz"  # likewise

Keep = Callable[[dict[str, Any]], bool]


def gzip_lines(path: Path) -> list[str]:
    """The non-empty lines of a gzip'd data file."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line for line in f if line.strip()]


def number_key(value: object) -> str:
    """'1', 1, 1.0 and '1.0' are the same hadith number; a range such as '408-409' stays as it is."""
    try:
        return str(float(str(value)))
    except ValueError:
        return str(value).strip()


@dataclass
class Kept:
    """The keys of the kept hadith, per collection."""

    in_book: set[tuple[str, str, str]] = field(default_factory=set)
    numbers: dict[str, set[str]] = field(default_factory=lambda: {c: set() for c in COLLECTIONS})
    lk_rows: set[tuple[str, str]] = field(default_factory=set)
    chains: set[int] = field(default_factory=set)  # rows of the upstream chains placed on a kept hadith


def _filter_jsonl(src: Path, dst: Path, keep: Keep) -> None:
    with gzip.open(src, "rt", encoding="utf-8") as fin, gzip.open(dst, "wt", encoding="utf-8") as fout:
        for line in fin:
            if line.strip() and keep(json.loads(line)):
                fout.write(line)


def _filter_csv(src: Path, dst: Path, keep: Keep) -> list[dict[str, str]]:
    with gzip.open(src, "rt", encoding="utf-8", newline="") as fin:
        reader = csv.DictReader(fin)
        fields = list(reader.fieldnames or [])
        kept = [row for row in reader if keep(row)]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(kept)
    with gzip.open(dst, "wt", encoding="utf-8", newline="") as fout:
        fout.write(out.getvalue())
    return kept


# Hadith kept beyond the first kitabs, each for the tests that name it: (collection, kitab, index in kitab).
EXTRA_HADITH: frozenset[tuple[str, str, str]] = frozenset(
    {
        ("bukhari", "10", "193"),  # Bukhari 798, the qunut with the matn of Bukhari 1004
        ("bukhari", "14", "15"),  # Bukhari 1004 itself
        ("bukhari", "65", "40"),  # numbered 4513, which no numbered source places or gives in Arabic: refused
        ("nasai", "48", "187"),  # Nasa'i 15 (kitab 1) repeated in kitab 48 as Nasa'i 5226
        ("ibnmajah", "15", "46"),  # the crosswalk's 2435 is placed in kitab 10 by fawaz: refused
        ("muslim", "45", "40"),  # Muslim 2564a, cited as people say it (test_spoken_search)
        ("abudawud", "42", "12"),  # Abu Dawud 4607, likewise
        ("ibnmajah", "13", "33"),  # Ibn Majah 2340, «la darara wa la dirar» in Latin letters
        # the chains of the narrators that tests/ingest/test_rijal.py and the narrator search filters name:
        ("muslim", "37", "7"),  # al-Layth b. Abi Sulaym
        ("abudawud", "1", "116"),  # Abu Hayya b. Qays
        ("muslim", "1", "54"),  # 'Umar b. Yunus al-Yamami
        ("bukhari", "24", "73"),  # al-Zubayr b. al-'Awwam
        ("ibnmajah", "5", "53"),  # 'Ammar b. Khalid al-Wasiti
        ("bukhari", "10", "93"),  # Yahya b. Sa'id (11191), of the fifth generation
    }
)


def in_subset(collection: str, kitab: object, index_in_kitab: object) -> bool:
    if (collection, str(kitab), str(index_in_kitab)) in EXTRA_HADITH:
        return True
    return float(str(kitab)) <= KITABS and int(str(index_in_kitab)) <= HADITH_PER_KITAB


@cache
def whole_alignment(data_dir: Path) -> list[Alignment]:
    """The importer's alignment of the chains on the whole data (a minute or two: computed once per session)."""
    return computed_alignment(ImportContext(data_dir))


def _numbers(data_dir: Path, kept: Kept) -> None:
    """The hadith of the subset, and what the importer gives them on the whole data: the numbers of its crosswalk,
    the LK rows its LK crosswalk matches to them, the chains its alignment places on them."""
    ctx = ImportContext(data_dir)
    for coll in COLLECTIONS:
        records = read_hadith_json(ctx, coll)
        numbers = read_numbers(ctx, coll, records)
        for record in (r for r in records if in_subset(coll, r.kitab, r.id_in_book)):
            kept.in_book.add((coll, record.kitab, str(record.id_in_book)))
            numbering = numbers.get(record.seq)
            if numbering and numbering.api_number:
                kept.numbers[coll].add(number_key(numbering.api_number))
    for match in lk_crosswalk.computed(ctx):
        if match.target and (match.collection, match.target[0], str(match.target[1])) in kept.in_book:
            kept.lk_rows.add((match.row.key[0], number_key(match.row.key[1])))
    for chain in whole_alignment(data_dir):
        if chain.status == ALIGNED and (chain.collection, *(chain.key or ())) in kept.in_book:
            kept.chains.add(chain.row)


def _chains(src: Path, dst: Path, kept: Kept) -> None:
    """Every row of the upstream chains in its place (a chain's row is its id), and the hadith id that predicts
    where its hadith is; the narrators only of the chains that the importer's alignment places on a kept hadith
    in the whole data: the others, emptied, cannot land on a kept hadith they would not land on there."""
    with gzip.open(src, "rt", encoding="utf-8") as fin:
        chains = json.load(fin)
    for row, chain in enumerate(chains["info"]):
        if row not in kept.chains:
            chain["chain_indx"] = []
    with gzip.open(dst, "wt", encoding="utf-8") as fout:
        json.dump(chains, fout)


def _in_book(collection: str) -> Keep:
    return lambda row: in_subset(collection, row["chapterId"], row["idInBook"])


def _by_number(collection: str, kept: Kept, key: str = "hadith_number") -> Keep:
    numbers = kept.numbers[collection]
    return lambda row: number_key(row[key]) in numbers


def _filters(kept: Kept) -> dict[str, Keep]:
    filters: dict[str, Keep] = {
        STAGED_NUMBERS: lambda row: in_subset(row["collection"], row["hj_kitab_chapterId"], row["hj_idInBook"]),
        STAGED_LK: lambda row: (row["lk_source_file"], number_key(row["lk_hadith_number"])) in kept.lk_rows,
    }
    for coll in COLLECTIONS:
        filters[f"hadith/sunnah_hadith_json/{coll}.jsonl.gz"] = _in_book(coll)
        for lang in ("ara", "fra"):
            filters[f"hadith/hadith_api_sqlite_export/{lang}-{coll}.jsonl.gz"] = _by_number(coll, kept)
        for prefix in ("ara", "fra"):  # the English is kept whole: the crosswalk counts how often a text is found
            fawaz = f"hadith/fawaz_hadith_csv/{prefix}-{coll}.csv.gz"
            filters[fawaz] = _by_number(coll, kept, "hadithnumber")
    for name, coll in FAWAZ_FILES.items():
        filters[f"hadith/fawaz_hadith_csv/ara-{name}.csv.gz"] = _by_number(coll, kept, "hadithnumber")
    return filters


def _lk_keep(kept: Kept) -> Keep:
    return lambda row: (row["source_file"], number_key(row["Hadith_number"])) in kept.lk_rows


def build_subset(data_dir: Path, out: Path) -> Path:
    """Write the subset of `data_dir` into `out`, with its own manifest derived from the committed one (the
    importer checks the subset against it), and return `out`."""
    kept = Kept()
    _numbers(data_dir, kept)
    ordered: list[tuple[str, Callable[[Path, Path, Kept], None]]] = [
        ("narrators/kaggle_muslimscholars/all_hadiths_chain.json.gz", _chains),
    ]
    for rel, action in ordered:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        action(data_dir / rel, out / rel, kept)
    done = {rel for rel, _ in ordered}
    filters = _filters(kept)
    for src in sorted(p for p in data_dir.rglob("*") if p.is_file()):
        rel = src.relative_to(data_dir).as_posix()
        if rel in done:
            continue
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if rel in filters:
            (_filter_jsonl if rel.endswith(".jsonl.gz") else _filter_csv)(src, dst, filters[rel])
        elif rel.startswith("hadith/lk_hadith_corpus/"):
            _filter_csv(src, dst, _lk_keep(kept))
        else:
            dst.symlink_to(src.resolve())
    write_derived_manifest(out, HOW)
    return out
