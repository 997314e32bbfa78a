"""A verified commentary passage's confidence comes from its own evidence: how many hadith of the collection hold
its quotation (the longest run of its first words that its hadith holds), not its work's overall rate."""

import httpx

from ingest.commentary import quotation
from ingest.run import ImportReport
from tests.graphql_client import rows, tool_data

SINDI = "openiti-sindi-nasai"
NASAI = 5


async def _holders(database_url: str, phrase: str) -> list[int]:
    found = await rows(
        database_url,
        "SELECT hadith_id FROM hadith WHERE collection_id = $1 AND ' ' || text_ar_normalized || ' ' LIKE $2 ORDER BY 1",
        NASAI,
        f"% {phrase} %",
    )
    return [r["hadith_id"] for r in found]


async def _passage(database_url: str, passage_id: int) -> dict[str, object]:
    (row,) = await rows(
        database_url,
        "SELECT p.text, p.hadith_id, p.alignment_confidence, h.text_ar_normalized FROM commentary_passage AS p"
        " JOIN hadith AS h USING (hadith_id) WHERE p.passage_id = $1",
        passage_id,
    )
    return row


async def test_a_quotation_two_hadith_hold_is_less_certain_than_one_only_its_hadith_holds(
    imported: ImportReport, database_url: str
) -> None:
    (nasai,) = await rows(
        database_url, "SELECT count(*) AS n FROM hadith WHERE collection_id = $1 AND text_ar IS NOT NULL", NASAI
    )
    assert nasai["n"] == 49

    shawarib = await _passage(database_url, 100010)  # al-Sindi on Nasa'i 15
    assert quotation(str(shawarib["text"]), shawarib) == "احفوا الشوارب واعفوا اللحي"
    assert await _holders(database_url, "احفوا الشوارب واعفوا اللحي") == [500015, 505235]  # 15 and its repetition
    assert shawarib["alignment_confidence"] == 0.959  # 1 - 2/49, rounded down

    siwak = await _passage(database_url, 100002)  # al-Sindi on Nasa'i 2
    assert quotation(str(siwak["text"]), siwak) == "يشوص فاه بالسواك"
    assert await _holders(database_url, "يشوص فاه بالسواك") == [500002]
    assert siwak["alignment_confidence"] == 0.979  # 1 - 1/49, rounded down


async def test_passages_of_one_work_differ_by_their_own_evidence(imported: ImportReport, database_url: str) -> None:
    found = await rows(
        database_url,
        "SELECT alignment_confidence, count(*) AS n FROM commentary_passage"
        " WHERE source_id = $1 AND alignment_status = 'lemma_verified' GROUP BY 1 ORDER BY 1",
        SINDI,
    )
    assert [(r["alignment_confidence"], r["n"]) for r in found] == [(0.959, 1), (0.979, 16)]
    unverified = await rows(
        database_url,
        "SELECT DISTINCT alignment_confidence FROM commentary_passage WHERE alignment_status <> 'lemma_verified'",
    )
    assert unverified == [{"alignment_confidence": None}]


async def test_the_tool_gives_each_passage_its_own_confidence(client: httpx.AsyncClient) -> None:
    commentary = await tool_data(client, "get_hadith_commentary", hadith_id=500015)
    assert [(p["passage_id"], p["alignment_confidence"], p["evidence_status"]) for p in commentary["passages"]] == [
        (100010, 0.959, "fact"),
        (200009, 0.959, "fact"),
    ]
