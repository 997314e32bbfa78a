"""Builds the corpus: edition, collection, book (kitab), chapter (bab), hadith, hadith_source_record
and hadith_grade.

The seven collections take one hadith row per hadith-json record (sunnah.com Arabic with isnad, and
English). The crosswalk to the hadith-api numbers proposes the canonical number; where the numbered
record's kitab and Arabic agree (ingest/numbering.py), the number is kept, and through it the hadith-api
French and grades; a refused number is recorded with its reason, and the hadith keeps its in-book
reference. The LK corpus, joined by Arabic text containment, gives the bab, its
own grade annotation, and the length of its matn (isnad and matn split), which the search's scores
measure a hadith by. The three forties come from the hadith-api editions, with the hadith-json
English where its record of the same number has the same Arabic.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass
from string import ascii_lowercase, whitespace
from typing import Any

from app.text.arabic import normalize
from ingest import ids, numbering
from ingest.context import ImportContext, Row
from ingest.grades import grade_class

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
NUMBERS = "hadith/crosswalks/hadith_json_to_fawaz_numbers.csv.gz"
LK_LINKS = "hadith/crosswalks/lk_to_hadith_json.csv.gz"
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

LK_MATCH = 0.7  # Arabic token containment that the data README counts as a match
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
    """One line of the hadith-json -> hadith-api number crosswalk."""

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


def _grade(ctx: ImportContext, hadith: int, grader: str, grade: str, ref: Ref) -> None:
    ctx.add(
        "hadith_grade",
        {
            "hadith_id": hadith,
            "grader": grader,
            "grade": grade,
            "grade_class": grade_class(grade),
            "source_id": ref.source,
            "edition_id": ref.edition,
            "source_key": ref.key,
        },
    )


def _record(ctx: ImportContext, hadith: int, role: str, ref: Ref) -> None:
    ctx.add(
        "hadith_source_record",
        {
            "hadith_id": hadith,
            "role": role,
            "source_id": ref.source,
            "edition_id": ref.edition,
            "source_key": ref.key,
        },
    )


# reading ----------------------------------------------------------------------------------------


def _read_numbers(ctx: ImportContext) -> dict[str, dict[int, Numbering]]:
    """The crosswalk lines, per collection, by hadith-json seq_in_collection."""
    numbers: dict[str, dict[int, Numbering]] = defaultdict(dict)
    rows = ctx.csv(NUMBERS, "canonical hadith numbers", "crosswalks", derived=True)
    for line, row in rows:
        try:
            api_number = number_key(row["fawaz_hadithnumber"])
            muslim = row["collection"] == "muslim"
            canonical = muslim_number(row["fawaz_arabicnumber"]) if muslim else api_number
            seq = int(row["hj_seq_in_collection"])
            placed = (number_key(row["fawaz_ref_book"]), number_key(row["fawaz_ref_hadith"])) != ("0", "0")
        except ValueError as exc:
            ctx.skip(NUMBERS, line, f"unreadable number ({exc})")
            continue
        ref = Ref("crosswalks", None, f"{NUMBERS.rsplit('/', 1)[-1]}:{line}")
        kitab = number_key(row["fawaz_ref_book"]) if placed else None
        numbers[row["collection"]][seq] = Numbering(ref, api_number, canonical, row["method"], kitab)
    return numbers


def _lk_target(row: dict[str, str]) -> tuple[str, int] | None:
    """The hadith-json (kitab, idInBook) that an LK crosswalk line points to, if any."""
    kitab = number_key(row["hj_kitab_chapterId"])
    return (kitab, int(row["hj_idInBook"])) if kitab is not None and row["hj_idInBook"] else None


def _read_lk_links(ctx: ImportContext) -> dict[str, dict[tuple[str, int], LkLink]]:
    """Per collection, hadith-json (kitab, idInBook) -> the LK row that matches it best."""
    links: dict[str, dict[tuple[str, int], LkLink]] = defaultdict(dict)
    seen: Counter[tuple[str, str]] = Counter()
    rows = ctx.csv(LK_LINKS, "LK corpus rows of each hadith (bab, grade)", "crosswalks", derived=True)
    for line, row in rows:
        pair = (row["lk_source_file"], row["lk_hadith_number"].removesuffix(".0"))
        seen[pair] += 1
        try:
            containment, target = float(row["arabic_token_containment"]), _lk_target(row)
        except ValueError as exc:
            ctx.skip(LK_LINKS, line, f"unreadable number ({exc})")
            continue
        best = links[row["collection"]].get(target) if target else None
        if target and containment >= LK_MATCH and (best is None or containment > best.containment):
            links[row["collection"]][target] = LkLink((*pair, seen[pair]), containment)
    return links


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


def _add_collection(ctx: ImportContext, code: str, api: str, *, hadith_json: bool) -> tuple[Any, Any]:
    """The collection row and its editions; returns the hadith-api Arabic and French sections documents."""
    arabic = ctx.json(API_SECTIONS.format(f"ara-{api}"), "collection and book names", "hadith-api")
    french = None
    if code not in NO_FRENCH:
        french = ctx.json(API_SECTIONS.format(f"fra-{api}"), "French collection and book names", "hadith-api")
    name_en, name_ar = str(arabic["book_info"][0]), str(arabic["book_info"][1])
    name_fr = str(french["book_info"][1]) if french else None
    ctx.add(
        "collection",
        {
            "collection_id": ids.COLLECTIONS[code],
            "code": code,
            "name_en": name_en,
            "name_ar": name_ar,
            "name_fr": name_fr,
        },
    )
    gap = f"; {ARABIC_GAPS[code]}" if code in ARABIC_GAPS else ""
    editions: list[tuple[str, str, str, str | None, str]] = [
        (f"ara-{api}", "hadith-api", "ar", name_ar, f"hadith-api Arabic edition{gap}")
    ]
    if french:
        editions.append((f"fra-{api}", "hadith-api", "fr", name_fr, FRENCH_NOTES.get(code, "translator not stated")))
    if hadith_json:
        editions.append((f"hadith-json-{code}", "hadith-json", "ar", name_en, HADITH_JSON_NOTE))
    for edition, source, language, title, note in editions:
        ctx.add(
            "edition",
            {
                "edition_id": edition,
                "source_id": source,
                "language": language,
                "title": title,
                "note": note,
            },
        )
    return arabic, french


# the seven collections --------------------------------------------------------------------------


class _Collection:
    """One of the seven collections: hadith-json rows joined to the crosswalks, hadith-api and LK."""

    def __init__(
        self,
        ctx: ImportContext,
        code: str,
        numbers: dict[int, Numbering],
        lk_links: dict[tuple[str, int], LkLink],
    ) -> None:
        self.ctx, self.code, self.numbers, self.lk_links = ctx, code, numbers, lk_links
        self.arabic = _read_api(ctx, f"ara-{code}", "grades, and the Arabic that checks a crosswalk number")
        self.fawaz_arabic = _read_fawaz_arabic(ctx, code)
        self.french = {} if code in NO_FRENCH else _read_api(ctx, f"fra-{code}", "French text")
        wanted = {link.lk_row for link in lk_links.values()}
        self.lk = _read_lk(ctx, code, wanted) if code in LK_BOOKS else {}
        self.kitabs: dict[str, HadithJson] = {}
        self.french_sections: dict[str, Counter[tuple[str | None, str | None]]] = defaultdict(Counter)
        self.bab_titles: dict[Bab, Counter[BabTitle]] = defaultdict(Counter)
        self.bab_members: list[tuple[Row, Bab, BabTitle, Ref]] = []
        self.rows: list[Row] = []

    def build(self) -> None:
        path = HADITH_JSON.format(self.code)
        records: list[HadithJson] = []
        for line, obj in self.ctx.jsonl(path, "hadith Arabic and English, kitabs", "hadith-json"):
            try:
                records.append(_parse_hadith_json(self.code, obj))
            except (KeyError, TypeError, ValueError) as exc:
                self.ctx.skip(path, line, f"not a usable hadith record ({exc!r})")
        verdicts = numbering.judge([claim for record in records if (claim := self._claim(record))])
        for record in records:
            self._add_hadith(record, verdicts.get(record.seq))
        self._add_books()
        self._add_chapters()
        for row in self.rows:
            self.ctx.add("hadith", row)

    def _claim(self, record: HadithJson) -> numbering.Claim | None:
        """The hadith's claim on its crosswalk number, beside the numbered record's kitab and Arabic."""
        line = self.numbers.get(record.seq)
        if line is None or line.api_number is None:
            return None
        api = self.arabic.get(line.api_number)
        numbered = api.text if api and api.text else self.fawaz_arabic.get(line.api_number)
        return numbering.Claim(record.seq, line.api_number, record.kitab, line.kitab, record.arabic, numbered)

    def _add_hadith(self, record: HadithJson, verdict: numbering.Verdict | None) -> None:
        hadith = ids.hadith_id(self.code, record.seq)
        book = ids.book_id(self.code, _kitab_id_number(record.kitab))
        self.kitabs.setdefault(record.kitab, record)
        line = self.numbers.get(record.seq)
        kept = line if line and verdict and verdict.refusal is None else None
        api_number = kept.api_number if kept else None
        french = self.french.get(api_number or "")
        if french:
            self.french_sections[record.kitab][french.section] += 1
        if record.arabic:
            _record(self.ctx, hadith, "text_ar", record.ref)
        canonical = kept.canonical if kept else None
        in_book = f"{record.kitab_key}/{record.id_in_book}"
        self._sources(hadith, record, line, verdict, french)
        self._grades(hadith, api_number)
        row: Row = {
            "hadith_id": hadith,
            "collection_id": ids.COLLECTIONS[self.code],
            "book_id": book,
            "chapter_id": None,
            "canonical_number": canonical,
            "canonical_reference": f"{self.code}:{canonical}" if canonical else f"{self.code}/{in_book}",
            "in_book_reference": in_book,
            "seq_in_collection": record.seq,
            "text_ar": record.arabic,
            "text_ar_normalized": normalize(record.arabic) if record.arabic else None,
            "text_fr": french.text if french else None,
            "text_fr_edition_id": f"fra-{self.code}" if french and french.text else None,
            "text_en": record.english,
            "numbering_method": kept.method if kept else None,
            "refused_number": line.api_number if line and verdict and verdict.refusal else None,
            "numbering_refusal": verdict.refusal if verdict else None,
            "source_id": "hadith-json",
            "edition_id": record.ref.edition,
            "source_key": record.ref.key,
        }
        self._lk_row(row, record)
        self.rows.append(row)

    def _sources(
        self,
        hadith: int,
        record: HadithJson,
        line: Numbering | None,
        verdict: numbering.Verdict | None,
        french: ApiRecord | None,
    ) -> None:
        """The records of the hadith's English, French and number; a refused number's crosswalk line is
        kept as the record of what was refused."""
        if record.english:
            _record(self.ctx, hadith, "text_en", record.ref)
        if line and verdict:
            _record(self.ctx, hadith, "numbering_refused" if verdict.refusal else "numbering", line.ref)
        if french and french.text:
            _record(self.ctx, hadith, "text_fr", french.ref)

    def _grades(self, hadith: int, api_number: str | None) -> None:
        graded = self.arabic.get(api_number or "")
        if graded is None or not graded.grades:
            return
        _record(self.ctx, hadith, "grades", graded.ref)
        graders: set[str] = set()
        for grader, grade in graded.grades:
            value = _text(grade)
            if value and grader not in graders:
                graders.add(grader)
                _grade(self.ctx, hadith, grader, value, graded.ref)

    def _lk_row(self, row: Row, record: HadithJson) -> None:
        """The LK row matched to this hadith: its grade and matn length now, its bab once every bab title is
        counted."""
        link = self.lk_links.get((record.kitab, record.id_in_book))
        lk = self.lk.get(link.lk_row) if link else None
        if lk is None:
            return
        row["matn_length"] = lk.matn_length
        if lk.matn:
            matn = {"hadith_id": row["hadith_id"], "matn_ar_normalized": lk.matn, "source_key": lk.ref.key}
            self.ctx.add("hadith_matn", matn | {"source_id": lk.ref.source})
        if lk.grade:
            _record(self.ctx, row["hadith_id"], "grades", lk.ref)
            _grade(self.ctx, row["hadith_id"], LK_GRADER, lk.grade, lk.ref)
        if lk.section is None or not (lk.title_ar or lk.title_en):
            return
        bab = (row["book_id"], lk.section)
        title = (lk.title_ar, lk.title_en, f"{lk.source_file}#bab{lk.section}")
        self.bab_titles[bab][title] += 1
        self.bab_members.append((row, bab, title, lk.ref))

    def _add_books(self) -> None:
        for kitab, first in self.kitabs.items():
            self.ctx.add(
                "book",
                {
                    "book_id": ids.book_id(self.code, _kitab_id_number(kitab)),
                    "collection_id": ids.COLLECTIONS[self.code],
                    "number": kitab,
                    "title_ar": first.kitab_title_ar,
                    "title_en": first.kitab_title_en,
                    "title_fr": _french_title(first.kitab_title_en, self.french_sections.get(kitab)),
                    "source_id": "hadith-json",
                    "source_key": first.source_file,
                },
            )

    def _add_chapters(self) -> None:
        """LK numbers a few babs twice: the bab takes its most frequent title, and only the hadith that
        LK files under that title are placed in it."""
        chosen = {bab: _majority(votes) for bab, votes in self.bab_titles.items()}
        for row, bab, title, ref in self.bab_members:
            if chosen[bab] == title:
                row["chapter_id"] = ids.chapter_id(*bab)
                _record(self.ctx, row["hadith_id"], "chapter", ref)
        for (book, section), (title_ar, title_en, key) in chosen.items():
            self.ctx.add(
                "chapter",
                {
                    "chapter_id": ids.chapter_id(book, section),
                    "book_id": book,
                    "number": str(section),
                    "title_ar": title_ar,
                    "title_en": title_en,
                    "source_id": "lk-corpus",
                    "source_key": key,
                },
            )


# the forties ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FortyEnglish:
    """hadith-json's record of a hadith of a forty: its Arabic (to check the match) and its English."""

    ref: Ref
    arabic: str
    english: str | None


def _read_forty_english(ctx: ImportContext, code: str) -> dict[int, FortyEnglish]:
    """hadith-json's records of a forty, by their number in the book."""
    path = HADITH_JSON.format(code)
    records: dict[int, FortyEnglish] = {}
    for line, obj in ctx.jsonl(path, "English of the forties", "hadith-json"):
        number, arabic = obj.get("idInBook"), _text(obj.get("arabic"))
        if not isinstance(number, int) or arabic is None:
            ctx.skip(path, line, "no integer idInBook or no Arabic")
            continue
        english = _text(f"{obj.get('english_narrator') or ''} {obj.get('english_text') or ''}")
        ref = Ref("hadith-json", f"hadith-json-{code}", f"db/by_book/forties/{code}.json#{number}")
        records[number] = FortyEnglish(ref, arabic, english)
    return records


def _add_forty_books(ctx: ImportContext, code: str, api: str, arabic: Any, french: Any) -> None:
    french_names = {s["id"]: s["section_name_native"] for s in french["sections"]}
    for section in arabic["sections"]:
        ctx.add(
            "book",
            {
                "book_id": ids.book_id(code, int(section["id"])),
                "collection_id": ids.COLLECTIONS[code],
                "number": str(section["id"]),
                "title_ar": _text(section["section_name_native"]),
                "title_en": _text(section["section_name"]),
                "title_fr": _text(french_names.get(section["id"])),
                "source_id": "hadith-api",
                "source_key": f"ara-{api}.sections.json#{section['id']}",
            },
        )


class _Forty:
    """A forty: the hadith-api Arabic and French, and hadith-json's English where its Arabic agrees."""

    def __init__(self, ctx: ImportContext, code: str, api: str) -> None:
        self.ctx, self.code, self.api = ctx, code, api
        in_hadith_json = code in FORTIES_IN_HADITH_JSON
        arabic, french = _add_collection(ctx, code, api, hadith_json=in_hadith_json)
        _add_forty_books(ctx, code, api, arabic, french)
        self.english = _read_forty_english(ctx, code) if in_hadith_json else {}
        self.french = _read_api(ctx, f"fra-{api}", "French text")

    def build(self) -> None:
        path = API_ROWS.format(f"ara-{self.api}")
        for line, obj in self.ctx.jsonl(path, "Arabic of the forties", "hadith-api"):
            number, section = obj.get("hadith_number"), obj.get("section_id")
            if not isinstance(number, int) or not isinstance(section, int):
                self.ctx.skip(path, line, "hadith_number or section_id is not an integer")
                continue
            self._add_hadith(number, section, _text(obj.get("text")))

    def _english(self, number: int, arabic: str | None) -> FortyEnglish | None:
        """hadith-json's record of the same number, when it has English and the same Arabic."""
        english = self.english.get(number)
        if english and english.english and arabic and _same_text(english.arabic, arabic):
            return english
        return None

    def _add_hadith(self, number: int, section: int, arabic: str | None) -> None:
        hadith = ids.hadith_id(self.code, number)
        ref = Ref("hadith-api", f"ara-{self.api}", f"ara-{self.api}#{number}")
        if arabic:
            _record(self.ctx, hadith, "text_ar", ref)
        english = self._english(number, arabic)
        if english:
            _record(self.ctx, hadith, "text_en", english.ref)
        french = self.french.get(str(number))
        if french and french.text:
            _record(self.ctx, hadith, "text_fr", french.ref)
        self.ctx.add(
            "hadith",
            {
                "hadith_id": hadith,
                "collection_id": ids.COLLECTIONS[self.code],
                "book_id": ids.book_id(self.code, section),
                "canonical_number": str(number),
                "canonical_reference": f"{self.code}:{number}",
                "seq_in_collection": number,
                "text_ar": arabic,
                "text_ar_normalized": normalize(arabic) if arabic else None,
                "text_fr": french.text if french else None,
                "text_fr_edition_id": f"fra-{self.api}" if french and french.text else None,
                "text_en": english.english if english else None,
                "numbering_method": "hadith-api hadith_number",
                "source_id": "hadith-api",
                "edition_id": ref.edition,
                "source_key": ref.key,
            },
        )


def build(ctx: ImportContext) -> None:
    numbers = _read_numbers(ctx)
    lk_links = _read_lk_links(ctx)
    for code in SEVEN:
        _add_collection(ctx, code, code, hadith_json=True)
        _Collection(ctx, code, numbers.get(code, {}), lk_links.get(code, {})).build()
    for code, api in FORTIES.items():
        _Forty(ctx, code, api).build()
