"""get_narrator_hadiths on known real narrators: only confirmed occurrences, counts over all of them."""

import httpx

from tests.graphql_client import provenance, rows, tool_data

NARRATOR = 11060  # 24 confirmed occurrences in 23 hadith
WITH_PROBABLE = 20005  # Sufyan b. 'Uyayna: confirmed occurrences, and probable nodes that must not count
CONFIRMED_OCCURRENCES = (
    "SELECT c.hadith_id, n.chain_id, n.node_id, n.position FROM chain_node n JOIN chain c USING (chain_id)"
    " WHERE n.narrator_id = $1 AND n.resolution_status = 'confirmed' ORDER BY c.hadith_id, c.chain_number, n.position"
)


async def test_counts_are_over_every_confirmed_occurrence_not_the_page(
    client: httpx.AsyncClient, database_url: str
) -> None:
    (counts,) = await rows(
        database_url,
        "SELECT count(*) FILTER (WHERE n.resolution_status = 'confirmed') AS occurrences,"
        " count(DISTINCT c.hadith_id) FILTER (WHERE n.resolution_status = 'confirmed') AS hadith,"
        " count(*) FILTER (WHERE n.resolution_status = 'probable') AS probable"
        " FROM chain_node n JOIN chain c USING (chain_id) WHERE n.narrator_id = $1",
        WITH_PROBABLE,
    )
    assert counts["occurrences"] > 2
    assert counts["probable"] > 0

    page = await tool_data(client, "get_narrator_hadiths", narrator_id=WITH_PROBABLE, limit=2)

    assert (page["occurrence_count"], page["distinct_hadith_count"]) == (counts["occurrences"], counts["hadith"])
    assert len(page["items"]) == 2
    assert page["truncated"] is True


async def test_items_are_exactly_the_confirmed_nodes_in_order(client: httpx.AsyncClient, database_url: str) -> None:
    expected = await rows(database_url, CONFIRMED_OCCURRENCES, NARRATOR)

    page = await tool_data(client, "get_narrator_hadiths", narrator_id=NARRATOR, limit=50)

    assert [(i["hadith_id"], i["chain_id"], i["node_id"], i["position"]) for i in page["items"]] == [
        (r["hadith_id"], r["chain_id"], r["node_id"], r["position"]) for r in expected
    ]
    assert page["truncated"] is False
    assert {(i["relation_type"], i["evidence_status"]) for i in page["items"]} == {("chain_occurrence", "fact")}


async def test_first_item_is_the_whole_expected_occurrence(client: httpx.AsyncClient) -> None:
    page = await tool_data(client, "get_narrator_hadiths", narrator_id=NARRATOR, limit=1)

    assert page == {
        "narrator_id": 11060,
        "occurrence_count": 24,
        "distinct_hadith_count": 23,
        "page": 1,
        "items": [
            {
                "hadith_id": 200107,
                "canonical_reference": "muslim:15a",
                "chain_id": 7487,
                "node_id": 748703,
                "position": 3,
                "relation_type": "chain_occurrence",
                "evidence_status": "fact",
                "provenance": [
                    provenance(
                        748703,
                        "chain_node",
                        "muslimscholars-aligned",
                        source_key="all_hadiths_chain.json#kaggle_row=7486&position=3&scholar_indx=11060",
                        locator="muslim:15a",
                    ),
                    provenance(
                        7487, "chain", "muslimscholars-aligned", source_key="all_hadiths_chain.json#kaggle_row=7486"
                    ),
                ],
            }
        ],
        "truncated": True,
    }


async def test_pages_follow_each_other_and_the_last_is_not_truncated(client: httpx.AsyncClient) -> None:
    first = await tool_data(client, "get_narrator_hadiths", narrator_id=NARRATOR, page=1, limit=10)
    second = await tool_data(client, "get_narrator_hadiths", narrator_id=NARRATOR, page=2, limit=10)
    third = await tool_data(client, "get_narrator_hadiths", narrator_id=NARRATOR, page=3, limit=10)
    whole = await tool_data(client, "get_narrator_hadiths", narrator_id=NARRATOR, limit=50)

    nodes = [[i["node_id"] for i in p["items"]] for p in (first, second, third)]
    assert [len(n) for n in nodes] == [10, 10, 4]
    assert not set(nodes[0]) & set(nodes[1])
    assert nodes[0] + nodes[1] + nodes[2] == [i["node_id"] for i in whole["items"]]
    assert [p["page"] for p in (first, second, third)] == [1, 2, 3]
    assert [p["truncated"] for p in (first, second, third)] == [True, True, False]
    assert {(p["occurrence_count"], p["distinct_hadith_count"]) for p in (first, second, third)} == {(24, 23)}


async def test_a_page_past_the_end_is_empty_with_the_counts_kept(client: httpx.AsyncClient) -> None:
    page = await tool_data(client, "get_narrator_hadiths", narrator_id=NARRATOR, page=4, limit=10)

    assert page["items"] == []
    assert page["truncated"] is False
    assert (page["page"], page["occurrence_count"], page["distinct_hadith_count"]) == (4, 24, 23)


async def test_a_narrator_without_confirmed_occurrence_has_zero_counts(
    client: httpx.AsyncClient, database_url: str
) -> None:
    (row,) = await rows(
        database_url,
        "SELECT narrator_id FROM narrator n WHERE NOT EXISTS (SELECT 1 FROM chain_node c"
        " WHERE c.narrator_id = n.narrator_id AND c.resolution_status = 'confirmed') ORDER BY narrator_id LIMIT 1",
    )

    page = await tool_data(client, "get_narrator_hadiths", narrator_id=row["narrator_id"])

    assert (page["occurrence_count"], page["distinct_hadith_count"], page["items"], page["truncated"]) == (
        0,
        0,
        [],
        False,
    )
