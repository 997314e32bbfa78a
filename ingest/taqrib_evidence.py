"""What the LINKED notices say of their narrators (ingest.rijal): Ibn Hajar's verdict and tabaqa as
assertions, grade_tier, and the headwords as name variants.
"""

from typing import Any

from app.text.arabic import normalize
from ingest.context import ImportContext, Row
from ingest.narrators import (
    grade_tier,
)
from ingest.rijal_links import _linked, _narrators
from ingest.rijal_notices import TAQRIB, WORKS, Library

IBN_HAJAR = "Ibn Hajar al-Asqalani"
DHAHABI = "al-Dhahabi"
SCHOLAR_OF_FIELD = {"ibn_hajar_verdict": IBN_HAJAR, "ibn_hajar_tabaqa": IBN_HAJAR, "dhahabi_verdict": DHAHABI}


def _assertion(narrator: int, field_name: str, value: str, **where: Any) -> Row:
    row: Row = {"narrator_id": narrator, "field": field_name, "value": value.strip(), "notice_id": None}
    row.update(scholar=SCHOLAR_OF_FIELD[field_name], locator=None)
    row.update(where)
    return row


def _add_taqrib_evidence(ctx: ImportContext, library: Library) -> None:
    """Assertions and grade_tier from each LINKED Taqrib notice."""
    narrators = _narrators(ctx)
    for link in _linked(ctx, TAQRIB.source_id):
        notice = library.notices[link["notice_id"]]
        narrator = narrators[link["narrator_id"]]
        where = {
            "source_id": TAQRIB.source_id,
            "notice_id": notice["notice_id"],
            "locator": ", ".join(part for part in (notice["entry_id"], notice["page"]) if part),
            "source_key": notice["entry_id"],
        }
        for field_name, value in (
            ("ibn_hajar_verdict", notice["grade_term"]),
            ("ibn_hajar_tabaqa", notice["tabaqa"]),
        ):
            if value is not None:
                ctx.add(
                    "scholarly_assertion",
                    _assertion(narrator["narrator_id"], field_name, str(value), **where),
                )
        narrator["grade_tier"] = narrator["grade_tier"] or grade_tier(
            notice["grade_term"], notice["tabaqa"], notice["text"]
        )


def _ar_variant(narrator: int, form: str, kind: str, source_id: str, source_key: str) -> Row:
    return {
        "narrator_id": narrator,
        "form": form,
        "form_normalized": normalize(form),
        "script": "ar",
        "kind": kind,
        "source_id": source_id,
        "source_key": source_key,
    }


def _add_headword_variants(ctx: ImportContext, library: Library) -> None:
    for work in WORKS:
        for link in _linked(ctx, work.source_id):
            headword = library.headwords.get(link["notice_id"])
            if headword and normalize(headword):
                entry_id = library.notices[link["notice_id"]]["entry_id"]
                ctx.add(
                    "narrator_name_variant",
                    _ar_variant(link["narrator_id"], headword, "rijal_headword", work.source_id, entry_id),
                )
