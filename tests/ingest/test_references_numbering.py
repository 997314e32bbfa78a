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
IBNMAJAH_15_46 = 602435  # kitab 15 (Charity), index 46: the same text as Ibn Majah 2435, which fawaz places in kitab 10
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


async def test_the_qunut_of_two_kitabs_takes_the_number_of_its_own_record(
    imported: ImportReport, database_url: str
) -> None:
    """The same English in kitabs 10 and 14, the fawaz record of kitab 10 with a bracketed gloss: each hadith takes
    the record of its own place, and Bukhari 1004 is one hadith."""
    claimants = await rows(database_url, "SELECT hadith_id FROM hadith WHERE canonical_reference = 'bukhari:1004'")
    assert claimants == [{"hadith_id": BUKHARI_1004}]

    qunut = await _hadith(database_url, QUNUT_IN_ADHAN)
    assert (qunut["canonical_reference"], qunut["refused_number"], qunut["numbering_refusal"]) == (
        "bukhari:798",
        None,
        None,
    )
    assert ("numbering", "fawaz-hadith", "eng-bukhari#798") in await _records(database_url, QUNUT_IN_ADHAN)
    kept = await _records(database_url, BUKHARI_1004)
    assert ("numbering", "fawaz-hadith", "eng-bukhari#1004") in kept
    assert ("text_fr", "hadith-api", "fra-bukhari#1004") in kept


async def test_a_number_placed_in_another_kitab_is_refused_with_its_french_and_grades(
    imported: ImportReport, database_url: str
) -> None:
    """Ibn Majah 2435 (on debts) has the same English and Arabic as hadith-json 15/46, but fawaz places it in kitab 10:
    the number is refused, and the hadith keeps its in-book reference and its own LK grade, without that record's
    French or hadith-api grades."""
    assert await _hadith(database_url, IBNMAJAH_15_46) == {
        "canonical_reference": "ibnmajah/15/46",
        "canonical_number": None,
        "refused_number": "2435",
        "numbering_refusal": KITAB_DIFFERS,
        "text_fr": None,
    }
    records = await _records(database_url, IBNMAJAH_15_46)
    assert ("numbering_refused", "fawaz-hadith", "eng-ibnmajah#2435") in records
    assert not [r for r in records if r[0] in {"numbering", "text_fr"} or r[1] == "hadith-api"]
    assert {grader for grader, _ in await _graders(database_url, IBNMAJAH_15_46)} == {"LK corpus annotation"}


async def test_a_repeated_hadith_takes_the_number_of_its_own_place(imported: ImportReport, database_url: str) -> None:
    repeated = await _hadith(database_url, NASAI_15_REPEATED)
    assert (repeated["canonical_reference"], repeated["refused_number"]) == ("nasai:5226", None)
    assert {grader for grader, _ in await _graders(database_url, NASAI_15_REPEATED)} >= {"Al-Albani"}
    assert all(key != "ara-nasai#15" for _, key in await _graders(database_url, NASAI_15_REPEATED))
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
    hadith = await tool_data(client, "get_hadith", hadith_id=IBNMAJAH_15_46)
    assert (hadith["canonical_reference"], hadith["text_fr"]) == ("ibnmajah/15/46", None)


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
