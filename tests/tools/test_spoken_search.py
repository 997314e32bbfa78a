"""search_hadith as a person speaks: spoken citations in French, English and Arabic, and Arabic written in
Latin letters, with the issue's examples, against the imported subset."""

import httpx
import pytest

from tests.graphql_client import tool_data


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("hadith 1 de Boukhari", "bukhari:1"),
        ("le premier hadith de Sahih al-Bukhari", "bukhari:1"),
        ("Bukhari number one", "bukhari:1"),
        ("le hadith numéro 8 de Sahih Muslim", "muslim:8a"),
        ("Muslim, livre de la foi, hadith 8", "muslim:8a"),
        ("حديث رقم واحد في صحيح البخاري", "bukhari:1"),
        ("رواه مسلم برقم ٢٥٦٤", "muslim:2564a"),
        ("Abu Dawud hadith 4607", "abudawud:4607"),
        ("Abou Daoud hadith quatre mille six cent sept", "abudawud:4607"),
    ],
)
async def test_a_spoken_citation_finds_its_hadith(client: httpx.AsyncClient, query: str, first: str) -> None:
    answer = await tool_data(client, "search_hadith", query=query)

    hit = answer["results"][0]
    assert (hit["canonical_reference"], hit["match_method"], hit["score"]) == (first, "reference", 1.0)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("innama al-a'malu bin-niyyat", "bukhari:1"),
        ("innamā al-aʿmālu bi-n-niyyāt", "bukhari:1"),
        ("innamal a3malu binniyat", "bukhari:1"),
        ("ad-dinu an-nasiha", "nawawi40:7"),
        ("eddine ennasiha", "nawawi40:7"),
        ("la darara wa la dirar", "ibnmajah:2340"),
        ("al halal bayyin wal haram bayyin", "nawawi40:6"),
        ("ma yaghlibuhum fa'in kallaftumuhum fa'a'inuhum", "bukhari:30"),
        ("baynahu wabayna aṣ-ṣalati allatī talīhā", "muslim:227a"),
        ("azzakati wa7adjdji albayti wasawmi ramadan", "muslim:16b"),
    ],
)
async def test_arabic_in_latin_letters_finds_the_hadith_as_a_transliteration_inference(
    client: httpx.AsyncClient, query: str, expected: str
) -> None:
    answer = await tool_data(client, "search_hadith", query=query)

    found = {hit["canonical_reference"]: hit for hit in answer["results"]}
    assert expected in found
    hit = found[expected]
    assert (hit["match_method"], hit["evidence_status"]) == ("transliteration", "inference")
    assert 0 < hit["score"] <= 1
    assert "read as Arabic written in Latin letters" in answer["capability_note"]


@pytest.mark.parametrize(
    "query",
    [
        "les actions ne valent que par les intentions",
        "la religion est le bon conseil",
        "actions are judged by intentions",
        "the prophet said",
    ],
)
async def test_a_french_or_english_sentence_is_not_read_as_arabic(client: httpx.AsyncClient, query: str) -> None:
    answer = await tool_data(client, "search_hadith", query=query)

    assert all(hit["match_method"] != "transliteration" for hit in answer["results"])
    assert "Latin letters" not in (answer["capability_note"] or "")


async def test_a_latin_query_said_to_be_french_is_never_transliterated(client: httpx.AsyncClient) -> None:
    answer = await tool_data(client, "search_hadith", query="innama al-a'malu bin-niyyat", query_language="fr")

    assert all(hit["match_method"] != "transliteration" for hit in answer["results"])
