"""get_hadith on known real hadith: the whole contract object, exactly."""

import httpx

from app.text.arabic import normalize
from tests.graphql_client import nfc, provenance, rows, tool_data

BUKHARI_1 = 100001
NAWAWI_1 = 800001


async def _texts(database_url: str, hadith_id: int) -> dict[str, str | None]:
    (row,) = await rows(database_url, "SELECT text_ar, text_fr FROM hadith WHERE hadith_id = $1", hadith_id)
    return row


async def test_bukhari_1_is_the_whole_expected_object(client: httpx.AsyncClient, database_url: str) -> None:
    texts = await _texts(database_url, BUKHARI_1)
    hadith = await tool_data(client, "get_hadith", hadith_id=BUKHARI_1)

    assert nfc(hadith) == nfc(
        {
            "hadith_id": 100001,
            "canonical_reference": "bukhari:1",
            "collection": {"id": 1, "code": "bukhari", "name": "Sahih al Bukhari"},
            "book": {"id": 1001, "number": "1", "title": "كتاب بدء الوحى"},
            "chapter": {
                "id": 10010001,
                "number": "1",
                "title": "كَيْفَ كَانَ بَدْءُ الْوَحْىِ إِلَى رَسُولِ اللَّهِ صلى الله عليه وسلم",
            },
            "text_ar": texts["text_ar"],
            "text_fr": texts["text_fr"],
            "evidence_status": "fact",
            "provenance": [
                provenance(
                    100001,
                    "hadith",
                    "hadith-json",
                    source_key="db/by_chapter/the_9_books/bukhari/1.json#1",
                    edition_id="hadith-json-bukhari",
                    locator="1/1",
                ),
                provenance(100001, "hadith", "lk-corpus", source_key="Bukhari/Chapter1.csv#1"),
                provenance(100001, "hadith", "fawaz-hadith", source_key="eng-bukhari#1"),
                provenance(100001, "hadith", "hadith-api", source_key="fra-bukhari#1", edition_id="fra-bukhari"),
            ],
        }
    )
    assert normalize(hadith["text_ar"]).startswith("حدثنا الحميدي عبد الله بن الزبير")
    assert hadith["text_ar"].endswith('فَهِجْرَتُهُ إِلَى مَا هَاجَرَ إِلَيْهِ "')
    assert hadith["text_fr"].startswith("Rapporté par 'Umar ibn Al-Khattab : J'ai entendu le Messager d'Allah")


async def test_a_hadith_without_chapter_has_chapter_null_and_its_own_records(
    client: httpx.AsyncClient, database_url: str
) -> None:
    texts = await _texts(database_url, NAWAWI_1)
    hadith = await tool_data(client, "get_hadith", hadith_id=NAWAWI_1)

    assert nfc(hadith) == nfc(
        {
            "hadith_id": 800001,
            "canonical_reference": "nawawi40:1",
            "collection": {"id": 8, "code": "nawawi40", "name": "Forty Hadith of an-Nawawi"},
            "book": {"id": 8001, "number": "1", "title": "الأربعون النووية"},
            "chapter": None,
            "text_ar": texts["text_ar"],
            "text_fr": texts["text_fr"],
            "evidence_status": "fact",
            "provenance": [
                provenance(800001, "hadith", "hadith-api", source_key="ara-nawawi#1", edition_id="ara-nawawi"),
                provenance(
                    800001,
                    "hadith",
                    "hadith-json",
                    source_key="db/by_book/forties/nawawi40.json#1",
                    edition_id="hadith-json-nawawi40",
                ),
                provenance(800001, "hadith", "hadith-api", source_key="fra-nawawi#1", edition_id="fra-nawawi"),
            ],
        }
    )
    assert normalize(hadith["text_ar"]).count("انما الاعمال بالنيات") == 1
    assert hadith["text_fr"].startswith("Il est rapporté d’après le chef des croyants")


async def test_a_hadith_no_source_gives_in_arabic_has_text_ar_null(
    client: httpx.AsyncClient, database_url: str
) -> None:
    (row,) = await rows(database_url, "SELECT hadith_id, canonical_reference FROM hadith WHERE text_ar IS NULL")
    hadith = await tool_data(client, "get_hadith", hadith_id=row["hadith_id"])

    assert hadith["canonical_reference"] == row["canonical_reference"]
    assert hadith["text_ar"] is None
    assert hadith["evidence_status"] == "fact"
    assert hadith["provenance"], "the record the hadith comes from is still cited"
