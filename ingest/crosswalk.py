"""The hadith-number crosswalk computed from the upstream copies, by the rule the data README gives for the staged
`hadith/crosswalks/hadith_json_to_fawaz_numbers.csv.gz`: each hadith-json record gets the fawazahmed0 record whose
normalised English is the same (`english_exact`; `english_exact_ambiguous` when that English is found more than
once, the first taken), else the record at its in-book reference (kitab, index in kitab) when their English
tokens agree (Jaccard >= 0.6, `inbook_ref+english_jaccard`), else none.

The importer still reads the staged file; this computation is measured against it (`agreement`, docs/data.md)
and its disagreements are checked by hand (eval/crosswalk_derivation_sample.csv)."""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ingest.context import ImportContext

COLLECTIONS = ("bukhari", "muslim", "abudawud", "tirmidhi", "nasai", "ibnmajah", "malik")
HADITH_JSON = "hadith/sunnah_hadith_json/{}.jsonl.gz"
FAWAZ_ENGLISH = "hadith/fawaz_hadith_csv/eng-{}.csv.gz"
STAGED = "hadith/crosswalks/hadith_json_to_fawaz_numbers.csv.gz"
JACCARD_MIN = 0.6
WORD = re.compile(r"[a-z]+")  # letters only: hadith-json writes cross-reference numbers into some English texts
PURPOSE = "the crosswalk computed from the upstream copies"

Key = tuple[str, str, str]  # (collection, kitab, index in kitab) of a hadith-json record


@dataclass(frozen=True)
class Number:
    hadithnumber: str
    arabicnumber: str
    method: str


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def jaccard(a: list[str], b: list[str]) -> float:
    left, right = set(a), set(b)
    return len(left & right) / len(left | right) if left | right else 0.0


@dataclass(frozen=True)
class FawazRecord:
    hadithnumber: str
    arabicnumber: str
    words: list[str]


def _fawaz(ctx: ImportContext, collection: str) -> list[tuple[FawazRecord, str, str]]:
    rows = ctx.csv(FAWAZ_ENGLISH.format(collection), PURPOSE, "fawaz-hadith")
    return [
        (FawazRecord(r["hadithnumber"], r["arabicnumber"], words(r["text"])), r["book"], r["hadith"]) for _, r in rows
    ]


def _numbers(ctx: ImportContext, collection: str) -> Iterator[tuple[Key, Number | None]]:
    fawaz = _fawaz(ctx, collection)
    by_text: dict[str, list[FawazRecord]] = {}
    by_place: dict[tuple[str, str], FawazRecord] = {}
    for record, book, hadith in fawaz:
        by_text.setdefault(" ".join(record.words), []).append(record)
        by_place.setdefault((book, hadith), record)
    seen: dict[str, int] = {}  # how many records with this English came before
    for _, obj in ctx.jsonl(HADITH_JSON.format(collection), PURPOSE, "hadith-json"):
        key = (collection, str(obj["chapterId"]), str(obj["idInBook"]))
        english = words(f"{obj.get('english_narrator') or ''} {obj.get('english_text') or ''}")
        text = " ".join(english)
        nth = seen[text] = seen.get(text, -1) + 1
        yield key, _match(english, by_text.get(text, []), nth, by_place.get(key[1:]))


def _match(english: list[str], same_text: list[FawazRecord], nth: int, at_place: FawazRecord | None) -> Number | None:
    """The n-th record with the same English pairs with the n-th fawaz record that has it (the two editions
    keep the same order), the last one when fawaz has fewer."""
    if english and same_text:
        method = "english_exact" if len(same_text) == 1 else "english_exact_ambiguous"
        record = same_text[min(nth, len(same_text) - 1)]
        return Number(record.hadithnumber, record.arabicnumber, method)
    if at_place is not None and jaccard(english, at_place.words) >= JACCARD_MIN:
        return Number(at_place.hadithnumber, at_place.arabicnumber, "inbook_ref+english_jaccard")
    return None


def computed_crosswalk(data_dir: Path) -> dict[Key, Number | None]:
    ctx = ImportContext(data_dir)
    return {key: number for collection in COLLECTIONS for key, number in _numbers(ctx, collection)}


def staged_crosswalk(data_dir: Path) -> dict[Key, str]:
    """The staged file's number for each record ('' where it gives none)."""
    ctx = ImportContext(data_dir)
    rows = ctx.csv(STAGED, "the staged crosswalk, as an oracle", "crosswalks", derived=True)
    return {(r["collection"], r["hj_kitab_chapterId"], r["hj_idInBook"]): r["fawaz_hadithnumber"] for _, r in rows}


@dataclass(frozen=True)
class Agreement:
    collection: str
    records: int
    same: int  # the same number, or none in both
    only_staged: int  # a number in the staged file only
    only_computed: int
    different: int  # two different numbers


def _same_number(a: str, b: str) -> bool:
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


def agreement(computed: dict[Key, Number | None], staged: dict[Key, str]) -> list[Agreement]:
    counts: dict[str, list[int]] = {c: [0, 0, 0, 0, 0] for c in COLLECTIONS}
    for key, number in computed.items():
        ours, theirs = (number.hadithnumber if number else ""), staged.get(key, "")
        tally = counts[key[0]]
        tally[0] += 1
        if (not ours and not theirs) or (ours and theirs and _same_number(ours, theirs)):
            tally[1] += 1
        else:
            tally[2 if not ours else 3 if not theirs else 4] += 1
    return [Agreement(c, *tally) for c, tally in counts.items()]
