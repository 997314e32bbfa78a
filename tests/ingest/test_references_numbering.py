"""A canonical reference names one hadith: the crosswalk's number is kept only where the numbered record's kitab
and Arabic are the hadith's, and a refused hadith keeps its in-book reference without the other record's French or
grades."""

import gzip
import json
from pathlib import Path

import asyncpg
import httpx
import pytest

from ingest.numbering import ARABIC_DIFFERS, KITAB_DIFFERS, NUMBER_TAKEN, SAME_TEXT, Claim, containment, judge
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA
from tests.graphql_client import rows, tool_data

BUKHARI_1004 = 100977  # kitab 14 (Witr), index 15: Musaddad's chain of Anas's qunut
QUNUT_IN_ADHAN = 100781  # kitab 10 (Adhan), index 193: the same matn by Abd Allah b. Abi al-Aswad
NASAI_15 = 500015  # kitab 1, index 15: ahfu al-shawarib
NASAI_15_REPEATED = 505235  # kitab 48, index 187: the same hadith repeated in the Book of Adornment
NUMBERED_4513 = 104312  # kitab 65, index 40: the crosswalk's 4513 has no in-book reference and no Arabic


async def _hadith(database_url: str, hadith_id: int) -> dict[str, object]:
    (row,) = await rows(
        database_url,
        "SELECT canonical_reference, canonical_number, refused_number, numbering_refusal, text_fr FROM hadith"
        " WHERE hadith_id = $1",
        hadith_id,
    )
    return row


async def _records(database_url: str, hadith_id: int) -> list[tuple[str, str, str]]:
    found = await rows(
        database_url,
        "SELECT role, source_id, source_key FROM hadith_source_record WHERE hadith_id = $1 ORDER BY 1, 2, 3",
        hadith_id,
    )
    return [(r["role"], r["source_id"], r["source_key"]) for r in found]


async def _graders(database_url: str, hadith_id: int) -> list[tuple[str, str]]:
    found = await rows(
        database_url, "SELECT grader, source_key FROM hadith_grade WHERE hadith_id = $1 ORDER BY 1", hadith_id
    )
    return [(r["grader"], r["source_key"]) for r in found]


async def test_bukhari_1004_is_one_hadith_and_the_other_keeps_its_in_book_reference(
    imported: ImportReport, database_url: str
) -> None:
    claimants = await rows(database_url, "SELECT hadith_id FROM hadith WHERE canonical_reference = 'bukhari:1004'")
    assert claimants == [{"hadith_id": BUKHARI_1004}]

    assert await _hadith(database_url, QUNUT_IN_ADHAN) == {
        "canonical_reference": "bukhari/10/193",
        "canonical_number": None,
        "refused_number": "1004",
        "numbering_refusal": KITAB_DIFFERS,
        "text_fr": None,
    }
    assert await _records(database_url, QUNUT_IN_ADHAN) == [
        ("numbering_refused", "crosswalks", "hadith_json_to_fawaz_numbers.csv.gz:34"),
        ("text_ar", "hadith-json", "db/by_chapter/the_9_books/bukhari/10.json#193"),
        ("text_en", "hadith-json", "db/by_chapter/the_9_books/bukhari/10.json#193"),
    ]
    assert await _graders(database_url, QUNUT_IN_ADHAN) == []
    kept = await _records(database_url, BUKHARI_1004)
    assert ("numbering", "crosswalks", "hadith_json_to_fawaz_numbers.csv.gz:35") in kept
    assert ("text_fr", "hadith-api", "fra-bukhari#1004") in kept


async def test_a_repeated_hadith_takes_neither_the_number_nor_the_french_nor_the_grades_of_its_first_place(
    imported: ImportReport, database_url: str
) -> None:
    repeated = await _hadith(database_url, NASAI_15_REPEATED)
    assert {k: repeated[k] for k in ("canonical_reference", "refused_number", "numbering_refusal", "text_fr")} == {
        "canonical_reference": "nasai/48/187",
        "refused_number": "15",
        "numbering_refusal": KITAB_DIFFERS,
        "text_fr": None,
    }
    assert await _graders(database_url, NASAI_15_REPEATED) == []
    assert await _graders(database_url, NASAI_15) == [
        ("Abu Ghuddah", "ara-nasai#15"),
        ("Al-Albani", "ara-nasai#15"),
        ("LK corpus annotation", "Nesai/Chapter1.csv#15"),
        ("Zubair Ali Zai", "ara-nasai#15"),
    ]
    assert (await _hadith(database_url, NASAI_15))["canonical_reference"] == "nasai:15"


async def test_a_number_no_source_places_is_refused(imported: ImportReport, database_url: str) -> None:
    hadith = await _hadith(database_url, NUMBERED_4513)
    assert (hadith["canonical_reference"], hadith["refused_number"], hadith["numbering_refusal"]) == (
        "bukhari/65/40",
        "4513",
        "no_kitab_to_compare",
    )


async def test_the_api_shows_the_refused_hadith_by_its_in_book_reference_without_french(
    client: httpx.AsyncClient,
) -> None:
    hadith = await tool_data(client, "get_hadith", hadith_id=QUNUT_IN_ADHAN)
    assert (hadith["canonical_reference"], hadith["text_fr"]) == ("bukhari/10/193", None)


async def test_no_two_hadith_can_hold_one_canonical_reference(imported: ImportReport, database_url: str) -> None:
    assert await rows(database_url, "SELECT canonical_reference FROM hadith GROUP BY 1 HAVING count(*) > 1") == []
    conn = await asyncpg.connect(database_url)
    try:
        async with conn.transaction():
            await conn.execute(f"SET LOCAL search_path TO {LIVE_SCHEMA}")
            with pytest.raises(asyncpg.UniqueViolationError):
                await conn.execute(
                    "INSERT INTO hadith (hadith_id, collection_id, canonical_reference, seq_in_collection, source_id,"
                    " source_key) SELECT 199999, collection_id, canonical_reference, 99999, source_id, source_key"
                    " FROM hadith WHERE hadith_id = $1",
                    BUKHARI_1004,
                )
    finally:
        await conn.close()


def _hadith_api_arabic(subset_dir: Path, edition: str, number: int) -> str:
    with gzip.open(subset_dir / f"hadith/hadith_api_sqlite_export/{edition}.jsonl.gz", "rt", encoding="utf-8") as lines:
        (text,) = [r["text"] for r in map(json.loads, lines) if r["hadith_number"] == number]
    return str(text)


async def test_of_two_hadith_that_pass_the_checks_the_closer_arabic_keeps_the_number(
    imported: ImportReport, database_url: str, subset_dir: Path
) -> None:
    found = await rows(
        database_url,
        "SELECT hadith_id, text_ar FROM hadith WHERE hadith_id = ANY($1::int[])",
        [QUNUT_IN_ADHAN, BUKHARI_1004],
    )
    texts = {r["hadith_id"]: r["text_ar"] for r in found}
    numbered = _hadith_api_arabic(subset_dir, "ara-bukhari", 1004)
    assert round(containment(texts[QUNUT_IN_ADHAN], numbered) or 0, 3) == 0.929
    assert containment(texts[BUKHARI_1004], numbered) == 1.0
    # Were both in kitab 14, both would pass the Arabic check: the one whose Arabic matches fully keeps 1004.
    claims = [
        Claim(seq, "1004", "14", "14", texts[hadith], numbered)
        for seq, hadith in ((781, QUNUT_IN_ADHAN), (977, BUKHARI_1004))
    ]
    verdicts = judge(claims)
    assert (verdicts[977].refusal, verdicts[781].refusal) == (None, NUMBER_TAKEN)


async def test_a_number_whose_arabic_is_another_hadiths_is_refused(
    imported: ImportReport, database_url: str, subset_dir: Path
) -> None:
    # Nasa'i 15 (ahfu al-shawarib) set against hadith-api's Arabic of Bukhari 1004 (the qunut), its kitab agreeing.
    (shawarib,) = await rows(database_url, "SELECT text_ar FROM hadith WHERE hadith_id = $1", NASAI_15)
    numbered = _hadith_api_arabic(subset_dir, "ara-bukhari", 1004)
    share = containment(shawarib["text_ar"], numbered)
    assert share is not None and share < SAME_TEXT
    verdict = judge([Claim(15, "1004", "14", "14", shawarib["text_ar"], numbered)])[15]
    assert (verdict.containment, verdict.refusal) == (share, ARABIC_DIFFERS)
