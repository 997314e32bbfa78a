"""get_hadith_commentary on known real passages: only the public view (published and validated), each
passage with its work, page, repository and licence."""

import httpx

from resolvers.get_hadith_commentary import NO_FRENCH, NO_PASSAGE
from tests.graphql_client import data_of, execute, rows, tool_data

NASAI_1 = 500001  # al-Sindi's passage UNPUBLISHED (number only); al-Suyuti's PUBLISHED
NASAI_2 = 500002  # al-Sindi's and al-Suyuti's passages both PUBLISHED, lemma verified
MALIK_2 = 700002  # al-Suyuti's Tanwir: verified but not publishable (its markers do not match the numbering)
SINDI = "commentary/openiti/1138IbnCabdHadiNurDinSindi.HashiyaCalaNasai.Shamela0000522-ara1.txt.gz"
SUYUTI = "commentary/openiti/0911Suyuti.SharhSunanNasai.Shamela0000360-ara1.txt.gz"
OPENITI_LICENCE = (
    "Licence as stated: no LICENSE file in the fetched repository; OpenITI releases are usually described as"
    " CC BY-NC-SA 4.0 (not verified): research / non-commercial use until confirmed"
)
WITH_NOTE = """
query ($hadith_id: Int!, $language: String) {
  get_hadith_commentary(hadith_id: $hadith_id, language: $language) {
    passages { passage_id }
    truncated
    capability_note
  }
}
"""


async def _passage(database_url: str, passage_id: int) -> dict[str, object]:
    (row,) = await rows(
        database_url, "SELECT text, alignment_confidence FROM commentary_passage WHERE passage_id = $1", passage_id
    )
    return row


async def test_nasai_2_has_the_two_published_passages_exactly(client: httpx.AsyncClient, database_url: str) -> None:
    public = await rows(
        database_url, "SELECT passage_id FROM public_commentary_passage WHERE hadith_id = $1 ORDER BY 1", NASAI_2
    )
    assert [r["passage_id"] for r in public] == [100002, 200002]
    sindi, suyuti = await _passage(database_url, 100002), await _passage(database_url, 200002)

    commentary = await tool_data(client, "get_hadith_commentary", hadith_id=NASAI_2)

    assert commentary == {
        "hadith_id": 500002,
        "passages": [
            {
                "passage_id": 100002,
                "passage_kind": "sharh",
                "source_text": sindi["text"],
                "translation": None,
                "alignment_status": "lemma_verified",
                "alignment_confidence": sindi["alignment_confidence"],
                "evidence_status": "fact",
                "provenance": [
                    {
                        "object_id": 100002,
                        "object_type": "commentary_passage",
                        "source_type": "commentary",
                        "source_id": "openiti-sindi-nasai",
                        "source_key": f"{SINDI}#84",
                        "source_title": "Hashiya 'ala Sunan al-Nasa'i",
                        "edition_id": None,
                        "citation": "Nur al-Din al-Sindi (d. 1138 AH), Hashiya 'ala Sunan al-Nasa'i"
                        f" (OpenITI/1150AH@b87b98cf7410). {OPENITI_LICENCE}",
                        "locator": "PageV01P008, [2]",
                    }
                ],
            },
            {
                "passage_id": 200002,
                "passage_kind": "sharh",
                "source_text": suyuti["text"],
                "translation": None,
                "alignment_status": "lemma_verified",
                "alignment_confidence": suyuti["alignment_confidence"],
                "evidence_status": "fact",
                "provenance": [
                    {
                        "object_id": 200002,
                        "object_type": "commentary_passage",
                        "source_type": "commentary",
                        "source_id": "openiti-suyuti-nasai",
                        "source_key": f"{SUYUTI}#72",
                        "source_title": "Zahr al-Ruba 'ala al-Mujtaba",
                        "edition_id": None,
                        "citation": "al-Suyuti (d. 911 AH), Zahr al-Ruba 'ala al-Mujtaba"
                        f" (OpenITI/0925AH@e1b3468620f3). {OPENITI_LICENCE}",
                        "locator": "PageV01P008, [2]",
                    }
                ],
            },
        ],
        "truncated": False,
    }
    assert commentary["passages"][0]["source_text"].startswith("يشوص فاه بالسواك")


async def test_alignment_confidence_is_the_passages_own(client: httpx.AsyncClient, database_url: str) -> None:
    # al-Sindi quotes three words that only Nasa'i 2 holds among the subset's 49 Nasa'i hadith (1 - 1/49); al-Suyuti
    # quotes eight words (kana rasul Allah ... idha qama) that one other hadith holds too (1 - 2/49).
    commentary = await tool_data(client, "get_hadith_commentary", hadith_id=NASAI_2)

    assert [p["alignment_confidence"] for p in commentary["passages"]] == [0.979, 0.959]


async def test_an_unpublished_passage_never_leaves_the_database(client: httpx.AsyncClient, database_url: str) -> None:
    stored = await rows(
        database_url,
        "SELECT passage_id, publication_status, validation_status FROM commentary_passage"
        " WHERE hadith_id = $1 ORDER BY passage_id",
        NASAI_1,
    )
    assert [(r["passage_id"], r["publication_status"]) for r in stored] == [
        (100001, "UNPUBLISHED"),
        (200001, "PUBLISHED"),
    ]

    commentary = await tool_data(client, "get_hadith_commentary", hadith_id=NASAI_1)

    assert [p["passage_id"] for p in commentary["passages"]] == [200001]
    assert commentary["passages"][0]["provenance"][0]["source_id"] == "openiti-suyuti-nasai"


async def test_a_validated_but_unpublished_passage_is_not_returned(
    client: httpx.AsyncClient, database_url: str
) -> None:
    stored = await rows(
        database_url,
        "SELECT validation_status, publication_status FROM commentary_passage WHERE hadith_id = $1",
        MALIK_2,
    )
    assert stored == [{"validation_status": "VALIDATED", "publication_status": "UNPUBLISHED"}]

    body = await execute(client, WITH_NOTE, hadith_id=MALIK_2)

    assert data_of(body, "get_hadith_commentary") == {
        "passages": [],
        "truncated": False,
        "capability_note": NO_PASSAGE,
    }


async def test_french_gives_no_passage_and_says_why(client: httpx.AsyncClient) -> None:
    french = data_of(await execute(client, WITH_NOTE, hadith_id=NASAI_2, language="fr"), "get_hadith_commentary")
    arabic = data_of(await execute(client, WITH_NOTE, hadith_id=NASAI_2, language="ar"), "get_hadith_commentary")

    assert french == {"passages": [], "truncated": False, "capability_note": NO_FRENCH}
    assert arabic == {
        "passages": [{"passage_id": 100002}, {"passage_id": 200002}],
        "truncated": False,
        "capability_note": None,
    }


async def test_limit_cuts_the_passages_and_says_so(client: httpx.AsyncClient) -> None:
    commentary = await tool_data(client, "get_hadith_commentary", hadith_id=NASAI_2, limit=1)

    assert [p["passage_id"] for p in commentary["passages"]] == [100002]
    assert commentary["truncated"] is True
