"""search_hadith on known real queries: citations, Arabic phrases and words, misspellings, French words,
filters and limits. Every hit is a candidate (inference) with the record it comes from."""

import httpx
import pytest

from app.data.search.common import ALPHABETS
from app.data.search.vocabulary import edits, near_keys, slips
from resolvers.search_hadith import NOTHING_FOUND
from tests.graphql_client import call_tool, nfc, provenance, rows, tool_data

INTENTIONS = "إنما الأعمال بالنيات"  # Bukhari 1 and Nawawi 1, in the subset


def _hits(answer: dict[str, object]) -> list[tuple[str, str]]:
    results = answer["results"]
    assert isinstance(results, list)
    return [(hit["canonical_reference"], hit["match_method"]) for hit in results]


@pytest.mark.parametrize("query", ["bukhari:1", "Bukhari 1", "Sahih al-Bukhari 1", "صحيح البخاري ١"])
async def test_a_citation_of_bukhari_1_finds_it_first_by_reference(client: httpx.AsyncClient, query: str) -> None:
    answer = await tool_data(client, "search_hadith", query=query)

    first = answer["results"][0]
    assert (first["hadith_id"], first["canonical_reference"], first["match_method"]) == (
        100001,
        "bukhari:1",
        "reference",
    )
    assert (first["score"], first["evidence_status"]) == (1.0, "inference")


async def test_the_reference_hit_is_the_whole_expected_object(client: httpx.AsyncClient, database_url: str) -> None:
    (texts,) = await rows(database_url, "SELECT text_ar, text_fr FROM hadith WHERE hadith_id = 100001")

    answer = await tool_data(client, "search_hadith", query="bukhari:1")

    assert answer["results"] == [
        {
            "hadith_id": 100001,
            "canonical_reference": "bukhari:1",
            "text_ar": texts["text_ar"],
            "text_fr": texts["text_fr"],
            "match_method": "reference",
            "score": 1.0,
            "evidence_status": "inference",
            "provenance": [
                provenance(
                    100001,
                    "hadith",
                    "hadith-json",
                    source_key="db/by_chapter/the_9_books/bukhari/1.json#1",
                    edition_id="hadith-json-bukhari",
                    locator="bukhari:1",
                ),
                provenance(100001, "hadith", "hadith-api", edition_id="fra-bukhari", locator="bukhari:1"),
            ],
        }
    ]
    assert answer["truncated"] is False


async def test_a_bare_muslim_number_names_its_whole_group(client: httpx.AsyncClient) -> None:
    answer = await tool_data(client, "search_hadith", query="Sahih Muslim 8", limit=20)

    assert _hits(answer) == [(f"muslim:8{letter}", "reference") for letter in "abcde"]
    assert (await tool_data(client, "search_hadith", query="muslim:8b"))["results"][0]["canonical_reference"] == (
        "muslim:8b"
    )


async def test_an_arabic_phrase_finds_the_hadith_that_contains_it_exactly(client: httpx.AsyncClient) -> None:
    intentions = await tool_data(client, "search_hadith", query=INTENTIONS)
    siwak = await tool_data(client, "search_hadith", query="يشوص فاه بالسواك")

    assert _hits(intentions) == [("bukhari:1", "exact"), ("nawawi40:1", "exact")]
    assert _hits(siwak)[0] == ("nasai:2", "exact")
    assert all(method == "exact" for _, method in _hits(siwak))


async def test_the_words_in_another_order_match_by_fulltext(client: httpx.AsyncClient) -> None:
    answer = await tool_data(client, "search_hadith", query="الأعمال إنما بالنيات")

    assert _hits(answer) == [("bukhari:1", "fulltext"), ("nawawi40:1", "fulltext")]


async def test_a_misspelled_phrase_matches_by_fuzzy(client: httpx.AsyncClient) -> None:
    answer = await tool_data(client, "search_hadith", query="انما الاعمال بالنيه")

    # «الاعمال بالنيه» is the whole text of shahwaliullah40:33: it resembles the query most.
    assert _hits(answer)[:3] == [("shahwaliullah40:33", "fuzzy"), ("bukhari:1", "fuzzy"), ("nawawi40:1", "fuzzy")]
    assert all(0.6 <= hit["score"] <= 1 for hit in answer["results"])


# (query, the phrase as the hadith says it): one letter dropped, doubled or two swapped in one word
SLIPS = [
    ("سلم المسلمون من لسنه ويده", "سلم المسلمون من لسانه ويده"),  # dropped
    ("ماك يقول كان رسول", "مالك يقول كان رسول"),  # dropped: a word of 3 letters left
    ("لقد خشت ان لا", "لقد خشيت ان لا"),  # dropped
    ("عمرو بن ييي بهذا", "عمرو بن يحيي بهذا"),  # dropped, in the middle of the phrase
    ("سلم المسلمون من لسسانه ويده", "سلم المسلمون من لسانه ويده"),  # doubled
    ("الله عليه ولسم النعمان", "الله عليه وسلم النعمان"),  # swapped, in a formula
    ("اكل لحام ثم صلي", "اكل لحما ثم صلي"),  # swapped
    ("حرب بذها الاسناد عن", "حرب بهذا الاسناد عن"),  # swapped
]


@pytest.mark.parametrize(("query", "said"), SLIPS)
async def test_a_phrase_with_one_letter_dropped_doubled_or_swapped_finds_the_hadith_first(
    client: httpx.AsyncClient, database_url: str, query: str, said: str
) -> None:
    holding_said = "SELECT canonical_reference FROM hadith WHERE ' ' || text_ar_normalized || ' ' LIKE $1"
    holding = await rows(database_url, holding_said, f"% {said} %")
    answer = await tool_data(client, "search_hadith", query=query)

    assert 0 < len(holding) <= 3
    assert _hits(answer)[0] in {(row["canonical_reference"], "fuzzy") for row in holding}


def test_a_short_word_is_corrected_for_a_slip_only() -> None:
    alphabet = ALPHABETS["ar"]
    corrections = slips("جرل", alphabet)

    assert {"رجل", "جرال"} <= corrections  # two letters swapped; a letter dropped, put back
    assert "جرل" in slips("جررل", alphabet)  # a letter doubled, taken out
    assert "جرم" not in corrections  # another letter in a letter's place: another word
    assert corrections < edits("جرل", alphabet)


@pytest.mark.parametrize("word", ["جرل", "يريبك", "لسانه", "intention", "aa"])
def test_the_near_keys_of_a_word_find_every_term_one_letter_off_it(word: str) -> None:
    alphabet = ALPHABETS["fr" if word.isascii() else "ar"]
    keys = set(near_keys([word]))

    for term in edits(word, alphabet):
        assert keys & ({term} | {term[:i] + term[i + 1 :] for i in range(len(term))}), term  # search_term_key's


async def test_a_french_phrase_finds_bukhari_1_by_its_french_text(client: httpx.AsyncClient) -> None:
    body = await call_tool(client, "search_hadith", query="récompense des actions dépend des intentions")

    assert "errors" not in body, body["errors"]
    assert ("bukhari:1", "exact") in _hits(body["data"]["search_hadith"])  # accents and case folded


async def test_collection_id_keeps_only_that_collection(client: httpx.AsyncClient) -> None:
    nawawi = await tool_data(client, "search_hadith", query=INTENTIONS, collection_id=8)
    muslim = await tool_data(client, "search_hadith", query="bukhari:1", collection_id=2)

    assert _hits(nawawi) == [("nawawi40:1", "exact")]
    assert muslim["results"] == []


async def test_every_hit_is_an_inference_citing_its_record(client: httpx.AsyncClient) -> None:
    answer = await tool_data(client, "search_hadith", query="حدثنا", limit=20)

    assert len(answer["results"]) == 20
    for hit in answer["results"]:
        assert hit["evidence_status"] == "inference"
        record = hit["provenance"][0]
        assert (record["object_id"], record["object_type"]) == (hit["hadith_id"], "hadith")
        assert record["source_key"]
        assert record["locator"] == hit["canonical_reference"]


async def test_limit_is_honoured_and_truncated_says_more_exist(client: httpx.AsyncClient) -> None:
    three = await tool_data(client, "search_hadith", query="حدثنا", limit=3)
    default = await tool_data(client, "search_hadith", query="حدثنا")
    twenty = await tool_data(client, "search_hadith", query="حدثنا", limit=20)

    assert (len(three["results"]), three["truncated"]) == (3, True)
    assert (len(default["results"]), default["truncated"]) == (5, True)
    assert [h["hadith_id"] for h in three["results"]] == [h["hadith_id"] for h in twenty["results"][:3]]
    exact = await tool_data(client, "search_hadith", query=INTENTIONS, limit=2)
    assert (len(exact["results"]), exact["truncated"]) == (2, False)


@pytest.mark.parametrize("query", ["ظظظظ ضضضض", "bukhari:9999"])
async def test_a_query_that_matches_nothing_is_an_empty_list_with_a_note(client: httpx.AsyncClient, query: str) -> None:
    body = await call_tool(client, "search_hadith", query=query)

    assert "errors" not in body
    assert nfc(body["data"]["search_hadith"]) == {"results": [], "truncated": False, "capability_note": NOTHING_FOUND}
