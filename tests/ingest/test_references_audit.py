"""The audit's measures of references and commentary confidence, on the subset: what it prints is what the
subset's sources give."""

import asyncpg

from ingest.audit.references import CONFIDENCE, CROSSWALK, SHARED
from ingest.audit.section import Measure, Rows
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA


async def _measure(database_url: str, measure: Measure) -> Rows:
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(f"SET search_path TO {LIVE_SCHEMA}, public")
        return await measure(conn)
    finally:
        await conn.close()


async def test_no_reference_is_shared(imported: ImportReport, database_url: str) -> None:
    assert await _measure(database_url, SHARED) == [{"shared_references": 0, "hadith_holding_them": 0}]


COUNTS = ("kept", "no_kitab_to_compare", "kitab_differs", "arabic_differs", "no_arabic_to_compare", "number_taken")


async def test_each_refused_number_is_counted_by_its_reason(imported: ImportReport, database_url: str) -> None:
    rows = await _measure(database_url, CROSSWALK)
    # Bukhari 65/40 (4513: unplaced); Ibn Majah 15/46 (2435: placed in kitab 10 by fawaz); Muslim's
    # Introduction 2, 3 and 15, which hadith-api lacks.
    assert {row["collection"]: tuple(row[count] for count in COUNTS) for row in rows} == {
        "bukhari": (36, 1, 0, 0, 0, 0),
        "muslim": (53, 0, 0, 0, 3, 0),
        "abudawud": (52, 0, 0, 0, 0, 0),
        "tirmidhi": (49, 0, 0, 0, 0, 0),
        "nasai": (49, 0, 0, 0, 0, 0),
        "ibnmajah": (77, 0, 1, 0, 0, 0),
        "malik": (49, 0, 0, 0, 0, 0),
    }


async def test_confidences_of_one_work_are_spread_and_never_certain(imported: ImportReport, database_url: str) -> None:
    rows = {row["work"]: row for row in await _measure(database_url, CONFIDENCE)}
    sindi = rows["openiti-sindi-nasai"]
    assert (sindi["verified"], sindi["distinct_values"], sindi["min"], sindi["max"]) == (17, 2, 0.959, 0.979)
    assert all(row["certain"] == 0 for row in rows.values())
