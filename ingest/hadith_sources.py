"""The hadith sources that ingest.hadith reads: their paths, their records, and the readers of
hadith-json and its hadith-number crosswalk (computed, ingest/crosswalk.py), the LK corpus (joined through
the LK crosswalk, computed, ingest/lk_crosswalk.py), hadith-api and the older fawaz Arabic.
"""

from collections import Counter
from dataclasses import dataclass
from string import ascii_lowercase, whitespace
from typing import Any

from app.text.arabic import normalize
from ingest import crosswalk, numbering
from ingest.context import ImportContext

SEVEN = ("bukhari", "muslim", "abudawud", "tirmidhi", "nasai", "ibnmajah", "malik")
FORTIES = {"nawawi40": "nawawi", "qudsi40": "qudsi", "shahwaliullah40": "dehlawi"}
FORTIES_IN_HADITH_JSON = frozenset({"nawawi40", "qudsi40"})
NO_FRENCH = frozenset({"tirmidhi"})
LK_BOOKS = {
    "bukhari": "Bukhari",
    "muslim": "Muslim",
    "abudawud": "AbuDaud",
    "tirmidhi": "Tirmizi",
    "nasai": "Nesai",
    "ibnmajah": "IbnMaja",
}

HADITH_JSON = "hadith/sunnah_hadith_json/{}.jsonl.gz"
API_ROWS = "hadith/hadith_api_sqlite_export/{}.jsonl.gz"
API_SECTIONS = "hadith/hadith_api_sqlite_export/{}.sections.json"
LK_CORPUS = "hadith/lk_hadith_corpus/{}.csv.gz"
FAWAZ_ARABIC = "hadith/fawaz_hadith_csv/{}.csv.gz"
# The older fawaz Arabic editions, read where hadith-api lacks a number (Ibn Majah's section 0).
FAWAZ_EDITIONS = {
    "abudawud": "ara-abudawud1",
    "ibnmajah": "ara-ibnmajah",
    "malik": "ara-malik",
    "nasai": "ara-nasai1",
    "tirmidhi": "ara-tirmidhi1",
}

SUB_KITAB_STEP = 100  # kitab 'N.P' (Nasa'i 35.2) is numbered N + 100 x (P - 1) in its book id
LK_GRADER = "LK corpus annotation"
TRIMMED = whitespace + "\u200f"  # LK titles end in right-to-left marks
FRENCH_NOTES = {
    **{code: "translation of the sunnah.com English; translator not stated" for code in SEVEN},
    "malik": "older independent French translation; translator not stated",
}
HADITH_JSON_NOTE = "sunnah.com Arabic (with isnad and diacritics) and English, as scraped by hadith-json"
ARABIC_GAPS = {
    "muslim": "this export lacks the Introduction (hadith 1-92)",
    "ibnmajah": "this export lacks section 0, The Book of the Sunnah (hadith 1-266)",
}


@dataclass(frozen=True)
class Ref:
    """A source record that a value came from."""

    source: str
    edition: str | None
    key: str


@dataclass(frozen=True)
class Numbering:
    """A hadith-json record's hadith-api number, found by the crosswalk."""

    ref: Ref
    api_number: str | None
    canonical: str | None
    method: str
    kitab: str | None  # the kitab of the numbered record's in-book reference; None where it has none (0/0)


@dataclass(frozen=True)
class ApiRecord:
    """One hadith-api row, by its hadith_number."""

    ref: Ref
    text: str | None
    section: tuple[str | None, str | None]  # the section's English and native names
    grades: list[tuple[str, str]]


@dataclass(frozen=True)
class LkRecord:
    """The LK corpus row chosen for a hadith: its bab and its grade."""

    ref: Ref
    source_file: str
    section: int | None
    title_ar: str | None
    title_en: str | None
    grade: str | None
    matn_length: int | None  # characters of the normalized matn: the search's measure of the text
    matn: str  # the normalized matn (ingest/parallels.py compares them)


@dataclass(frozen=True)
class HadithJson:
    """One hadith-json record."""

    ref: Ref
    seq: int
    kitab: str
    kitab_key: str
    id_in_book: int
    source_file: str
    kitab_title_ar: str | None
    kitab_title_en: str | None
    arabic: str | None
    english: str | None


LkKey = tuple[str, str, int]  # LK file, LK hadith number, occurrence of that pair in the file
Bab = tuple[int, int]  # book id, LK section number
BabTitle = tuple[str | None, str | None, str]  # Arabic, English, the bab's key in LK


@dataclass(frozen=True)
class LkLink:
    """The LK row matched to a hadith-json record, and how much of the Arabic they share."""

    lk_row: LkKey
    containment: float


def number_key(raw: Any) -> str | None:
    """A number as text, whatever its JSON or CSV form: 1, '1', 1.0 -> '1'; 384.2 -> '384.2'."""
    if raw is None or raw == "":
        return None
    value = float(raw)
    return str(int(value)) if value.is_integer() else str(value)


def muslim_number(arabic_number: str) -> str | None:
    """The sunnah.com form of Muslim's Abd al-Baqi number: '12.01' -> '12a', '8' or '8.0' -> '8'."""
    if not arabic_number:
        return None
    whole, _, part = arabic_number.partition(".")
    variant = int(part or "0")
    if variant > len(ascii_lowercase):
        raise ValueError(f"variant {part} of {whole} is beyond 'z'")
    return whole + (ascii_lowercase[variant - 1] if variant else "")


def _kitab_id_number(kitab: str) -> int:
    """The kitab number that its book id is built from (see SUB_KITAB_STEP)."""
    whole, _, part = kitab.partition(".")
    return int(whole) + SUB_KITAB_STEP * (int(part) - 1 if part else 0)


def _text(raw: Any) -> str | None:
    """A text field without the spaces and right-to-left marks around it; None when it is missing, empty
    or the 'nan' of a spreadsheet export."""
    text = str(raw or "").strip(TRIMMED)
    return None if text in ("", "nan") else text


def _same_text(a: str, b: str) -> bool:
    """Token containment of the shorter normalized text in the longer one (data README)."""
    share = numbering.containment(a, b)
    return share is not None and share >= numbering.SAME_TEXT


def _majority(votes: Counter[Any]) -> Any:
    """The most frequent vote; the first one cast wins a tie."""
    return votes.most_common(1)[0][0]


def _french_title(title_en: str | None, sections: Counter[tuple[str | None, str | None]] | None) -> str | None:
    """The French name of the hadith-api section that most of a kitab's hadith fall in, provided that the
    section's English name is the kitab's own (hadith-api gives one Nasa'i section its neighbour's name)."""
    if not sections or title_en is None:
        return None
    section_en, section_fr = _majority(sections)
    kitab, section = title_en.casefold(), (section_en or "").casefold()
    return section_fr if section and (kitab.startswith(section) or section.startswith(kitab)) else None


# reading ----------------------------------------------------------------------------------------


def read_hadith_json(ctx: ImportContext, code: str) -> list[HadithJson]:
    """The hadith-json records of a collection; a record that lacks what a hadith row needs is skipped."""
    path = HADITH_JSON.format(code)
    records: list[HadithJson] = []
    for line, obj in ctx.jsonl(path, "hadith Arabic and English, kitabs", "hadith-json"):
        try:
            records.append(_parse_hadith_json(code, obj))
        except (KeyError, TypeError, ValueError) as exc:
            ctx.skip(path, line, f"not a usable hadith record ({exc!r})")
    return records


def read_numbers(ctx: ImportContext, code: str, records: list[HadithJson]) -> dict[int, Numbering]:
    """The crosswalk's number of each record that has one (ingest/crosswalk.py), by seq_in_collection."""
    english = [
        crosswalk.Record((r.kitab, str(r.id_in_book)), r.seq, crosswalk.words(r.english or ""), r.arabic is not None)
        for r in records
    ]
    numbers: dict[int, Numbering] = {}
    for record, number in crosswalk.pair(ctx, code, english):
        if number is None:
            continue
        try:
            numbers[record.seq] = _numbering(code, number)
        except ValueError as exc:
            ctx.skip(crosswalk.FAWAZ_ENGLISH.format(code), number.record.line, f"unreadable number ({exc})")
    return numbers


def _numbering(code: str, number: crosswalk.Number) -> Numbering:
    fawaz = number.record
    api_number = number_key(fawaz.hadithnumber)
    canonical = muslim_number(fawaz.arabicnumber) if code == "muslim" else api_number
    kitab = None if fawaz.place == crosswalk.NO_REFERENCE else number_key(fawaz.place[0])
    ref = Ref("fawaz-hadith", None, f"eng-{code}#{api_number}")
    return Numbering(ref, api_number, canonical, number.method, kitab)


def _read_lk(ctx: ImportContext, code: str, wanted: set[LkKey]) -> dict[LkKey, LkRecord]:
    """The LK corpus rows that a hadith of `code` was matched to."""
    path = LK_CORPUS.format(LK_BOOKS[code])
    found: dict[LkKey, LkRecord] = {}
    seen: Counter[tuple[str, str]] = Counter()
    for _line, row in ctx.csv(path, "bab titles and grade annotations", "lk-corpus"):
        number = row["Hadith_number"].removesuffix(".0")
        pair = (row["source_file"], number)
        seen[pair] += 1
        if (*pair, seen[pair]) not in wanted:
            continue
        section = row["Section_Number"].removesuffix(".0")
        matn = normalize(row["Arabic_Matn"])
        found[(*pair, seen[pair])] = LkRecord(
            ref=Ref("lk-corpus", None, f"{row['source_file']}#{number}"),
            source_file=row["source_file"],
            section=int(section) if section.isdigit() else None,
            title_ar=_text(row["Section_Arabic"]),
            title_en=_text(row["Section_English"]),
            grade=_text(row["Arabic_Grade"]) or _text(row["English_Grade"]),
            matn_length=len(matn) or None,
            matn=matn,
        )
    return found


def _read_api(ctx: ImportContext, edition: str, purpose: str) -> dict[str, ApiRecord]:
    """A hadith-api edition, by hadith_number."""
    path = API_ROWS.format(edition)
    records: dict[str, ApiRecord] = {}
    for line, obj in ctx.jsonl(path, purpose, "hadith-api"):
        try:
            number = number_key(obj["hadith_number"])
            grades = [(str(g["name"]), str(g["grade"])) for g in obj.get("grades") or []]
        except (KeyError, TypeError, ValueError) as exc:
            ctx.skip(path, line, f"no readable hadith_number or grades ({exc!r})")
            continue
        if number is None:
            ctx.skip(path, line, "no hadith_number")
            continue
        ref = Ref("hadith-api", edition, f"{edition}#{number}")
        section = (_text(obj.get("section_name")), _text(obj.get("section_name_native")))
        records[number] = ApiRecord(ref, _text(obj.get("text")), section, grades)
    return records


def _read_fawaz_arabic(ctx: ImportContext, code: str) -> dict[str, str]:
    """The older fawaz Arabic of a collection, by hadithnumber; empty for a collection that has none."""
    if code not in FAWAZ_EDITIONS:
        return {}
    path = FAWAZ_ARABIC.format(FAWAZ_EDITIONS[code])
    texts: dict[str, str] = {}
    for line, row in ctx.csv(path, "Arabic that checks a crosswalk number hadith-api lacks", "fawaz-hadith"):
        try:
            number = number_key(row["hadithnumber"])
        except ValueError as exc:
            ctx.skip(path, line, f"unreadable hadithnumber ({exc})")
            continue
        text = _text(row["text"])
        if number is not None and text is not None:
            texts[number] = text
    return texts


def _parse_hadith_json(code: str, obj: dict[str, Any]) -> HadithJson:
    """Raises KeyError, TypeError or ValueError for a record that lacks what a hadith row needs."""
    id_in_book, seq = obj["idInBook"], obj["seq_in_collection"]
    kitab = number_key(obj["chapterId"])
    if not isinstance(id_in_book, int) or not isinstance(seq, int) or kitab is None:
        raise ValueError("idInBook, seq_in_collection or chapterId is not a number")
    english = f"{obj.get('english_narrator') or ''} {obj.get('english_text') or ''}"
    return HadithJson(
        ref=Ref("hadith-json", f"hadith-json-{code}", f"{obj['source_file']}#{id_in_book}"),
        seq=seq,
        kitab=kitab,
        kitab_key=str(obj["kitab_key"]),
        id_in_book=id_in_book,
        source_file=str(obj["source_file"]),
        kitab_title_ar=_text(obj.get("kitab_title_ar")),
        kitab_title_en=_text(obj.get("kitab_title_en")),
        arabic=_text(obj.get("arabic")),
        english=_text(english),
    )


# collections and editions -------------------------------------------------------------------------
