"""AR-Sanad Lite (ingest.rijal): its narrators bridged through Taqrib, their isnad name forms, ranks,
region and narrated_from / narrated_to relations.
"""

import ast
import logging
import re
from collections import defaultdict
from typing import Any

from ingest.context import ImportContext, Row
from ingest.lite_links import LITE_FILE, LITE_NONE, LITE_PURPOSE, lite_links
from ingest.rijal_links import _linked, _narrators
from ingest.rijal_notices import TAQRIB, Library
from ingest.taqrib_evidence import _ar_variant, _assertion
from ingest.variants import common_words, is_name_form

log = logging.getLogger(__name__)


LITE_RANKS = (("ibn_hajar_verdict", "Ibnhajar_rank"), ("dhahabi_verdict", "zahabi_rank"))

_CITY_SEPARATORS = re.compile("[،,:؛]")


def _bridge(ctx: ImportContext, library: Library, records: list[tuple[int, dict[str, str]]]) -> dict[int, int]:
    """Lite id -> narrator id, through a Taqrib notice with one LINKED narrator and one Lite narrator
    (ingest.lite_links)."""
    lites: dict[int, set[int]] = defaultdict(set)
    for lite in lite_links((record for _, record in records), library):
        lites[lite.notice].add(lite.lite_id)
    narrators: dict[int, set[int]] = defaultdict(set)
    for link in _linked(ctx, TAQRIB.source_id):
        narrators[link["notice_id"]].add(link["narrator_id"])
    return {
        min(lite_ids): min(narrators[notice])
        for notice, lite_ids in lites.items()
        if len(lite_ids) == 1 and len(narrators.get(notice, ())) == 1
    }


def _literal_list(text: str, item: type) -> list[Any] | None:
    """A Python list literal whose items are all of one type; None for anything else."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, list) and all(isinstance(v, item) for v in value) else None


def _relation(teacher: int, student: int, source_key: str) -> Row:
    return {
        "teacher_id": teacher,
        "student_id": student,
        "status": "probable",
        "method": "ar_sanad_via_taqrib_bridge",
        "confidence": None,
        "source_id": "ar-sanad-lite",
        "source_key": source_key,
    }


def _lite_relations(narrator: int, record: dict[str, str], bridge: dict[int, int], key: str) -> list[Row] | None:
    teachers, students = _literal_list(record["narrated_from"], int), _literal_list(record["narrated_to"], int)
    if teachers is None or students is None:
        return None
    pairs = [(bridge.get(t), narrator) for t in teachers] + [(narrator, bridge.get(s)) for s in students]
    return [_relation(t, s, key) for t, s in pairs if t is not None and s is not None and t != s]


def _lite_forms(narrator: Row, record: dict[str, str], key: str, common: frozenset[str]) -> list[Row] | None:
    """The isnad forms of one bridged Lite narrator that are name forms (ingest.variants); None when
    namings is not a list."""
    namings = _literal_list(record["namings"], str)
    if namings is None:
        return None
    return [
        _ar_variant(narrator["narrator_id"], form.strip(), "isnad_form", "ar-sanad-lite", key)
        for form in namings
        if is_name_form(form, narrator["name_ar"], common)
    ]


def _lite_ranks(narrator: int, record: dict[str, str], key: str) -> list[Row]:
    return [
        _assertion(narrator, field_name, record[column], source_id="ar-sanad-lite", source_key=key)
        for field_name, column in LITE_RANKS
        if record[column].strip() not in ("", LITE_NONE)
    ]


def _first_city(living_city: str) -> str | None:
    city = _CITY_SEPARATORS.split(living_city, maxsplit=1)[0].strip(" .")
    return None if city in ("", LITE_NONE) else city


def _add_ar_sanad(ctx: ImportContext, library: Library) -> None:
    records = list(ctx.csv(LITE_FILE, LITE_PURPOSE, "ar-sanad-lite"))
    bridge = _bridge(ctx, library, records)
    narrators = _narrators(ctx)
    common = common_words(row["name_ar"] for row in narrators.values() if row["name_ar"])
    for line, record in records:
        narrator = bridge.get(int(record["id"])) if record["id"].isdigit() else None
        if narrator is None:
            continue
        key = f"narrators_lite.csv#id={record['id']}"
        forms = _lite_forms(narrators[narrator], record, key, common)
        relations = _lite_relations(narrator, record, bridge, key)
        if forms is None or relations is None:
            ctx.skip(LITE_FILE, line, "namings, narrated_from or narrated_to is not a list")
            continue
        for table, rows in (
            ("narrator_name_variant", forms),
            ("scholarly_assertion", _lite_ranks(narrator, record, key)),
            ("transmission_relation", relations),
        ):
            for row in rows:
                ctx.add(table, row)
        narrators[narrator]["region"] = _first_city(record["living_city"])
    log.info("AR-Sanad bridge: %d Lite narrators bridged", len(bridge))
