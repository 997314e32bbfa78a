"""The three forties (ingest.hadith): the hadith-api Arabic and French, and hadith-json's English where
its Arabic agrees.
"""

from dataclasses import dataclass
from typing import Any

from app.text.arabic import normalize
from ingest import ids
from ingest.context import ImportContext
from ingest.hadith_rows import _add_collection, _record
from ingest.hadith_sources import API_ROWS, FORTIES_IN_HADITH_JSON, HADITH_JSON, Ref, _read_api, _same_text, _text


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
