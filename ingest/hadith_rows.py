"""The rows that the seven collections and the forties both write: a collection and its editions, a
hadith's source record, a grade.
"""

from typing import Any

from ingest import ids
from ingest.context import ImportContext
from ingest.grades import grade_class
from ingest.hadith_sources import API_SECTIONS, ARABIC_GAPS, FRENCH_NOTES, HADITH_JSON_NOTE, NO_FRENCH, Ref


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
