"""The seven collections (ingest.hadith): hadith-json rows joined to their numbers, hadith-api and LK."""

from collections import Counter, defaultdict

from app.text.arabic import normalize
from ingest import ids, numbering
from ingest.context import ImportContext, Row
from ingest.hadith_rows import _grade, _record
from ingest.hadith_sources import (
    LK_BOOKS,
    LK_GRADER,
    NO_FRENCH,
    ApiRecord,
    Bab,
    BabTitle,
    HadithJson,
    LkLink,
    Numbering,
    Ref,
    _french_title,
    _kitab_id_number,
    _majority,
    _read_api,
    _read_fawaz_arabic,
    _read_lk,
    _text,
    read_hadith_json,
    read_numbers,
)


class _Collection:
    """One of the seven collections: hadith-json rows joined to their numbers, hadith-api and LK."""

    def __init__(self, ctx: ImportContext, code: str, lk_links: dict[tuple[str, int], LkLink]) -> None:
        self.ctx, self.code, self.lk_links = ctx, code, lk_links
        self.numbers: dict[int, Numbering] = {}
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
        records = read_hadith_json(self.ctx, self.code)
        self.numbers = read_numbers(self.ctx, self.code, records)
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
        """The records of the hadith's English, French and number; a refused number's fawaz record is kept
        as the record of what was refused."""
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
