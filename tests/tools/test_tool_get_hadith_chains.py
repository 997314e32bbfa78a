"""get_hadith_chains on known real chains: a dataset chain is a fact node by node; a chain the importer
read from the text is not, and no node of it becomes confirmed or gets a guessed narrator."""

import httpx

from tests.graphql_client import nfc, provenance, rows, tool_data

BUKHARI_1 = 100001
BUKHARI_11 = 100011  # dataset chain (kaggle_row 10) whose alignment score is 0.8
MUSLIM_INTRO_1 = 200001  # no dataset chain: one chain parsed from the isnad
IBNMAJAH_22 = 600022  # two dataset chains


def _node(position: int, narrator_id: int, mention: str, term: str, homonyms: bool = False) -> dict[str, object]:
    """A node whose mention names him; as a homonym's name too, with nothing to single him out, only probable
    (confidence: the chain's score times its share of confirmed nodes)."""
    return {
        "position": position,
        "narrator_id": narrator_id,
        "mention_ar": mention,
        "transmission_term_ar": term,
        "resolution_status": "probable" if homonyms else "confirmed",
        "confidence": 0.667 if homonyms else 1.0,
    }


async def test_bukhari_1_has_one_chain_of_six_nodes_two_of_them_homonyms_names(client: httpx.AsyncClient) -> None:
    chains = await tool_data(client, "get_hadith_chains", hadith_id=BUKHARI_1)

    assert nfc(chains) == {
        "hadith_id": 100001,
        "chains": [
            {
                "chain_id": 1,
                "chain_number": 1,
                "nodes": [
                    _node(1, 30418, "الْحُمَيْدِيُّ عَبْدُ اللَّهِ بْنُ الزُّبَيْرِ", "حَدَّثَنَا"),
                    _node(2, 20005, "سُفْيَانُ", "حَدَّثَنَا", homonyms=True),
                    _node(3, 11062, "يَحْيَى بْنُ سَعِيدٍ الْأَنْصَارِيُّ", "حَدَّثَنَا"),
                    _node(4, 11213, "مُحَمَّدُ بْنُ إِبْرَاهِيمَ التَّيْمِيُّ", "أَخْبَرَنِي"),
                    _node(5, 11042, "عَلْقَمَةَ بْنَ وَقَّاصٍ اللَّيْثِيَّ", "سَمِعَ"),
                    _node(6, 3, "عُمَرَ بْنَ الْخَطَّابِ", "سَمِعْتُ", homonyms=True),
                ],
                "evidence_status": "fact",
                "provenance": [
                    provenance(1, "chain", "muslimscholars-aligned", source_key="all_hadiths_chain.json#kaggle_row=0"),
                    provenance(
                        100001,
                        "hadith",
                        "hadith-json",
                        source_key="db/by_chapter/the_9_books/bukhari/1.json#1",
                        edition_id="hadith-json-bukhari",
                        locator="bukhari:1",
                    ),
                ],
            }
        ],
        "truncated": False,
    }


async def test_a_chain_parsed_from_the_isnad_is_insufficient_evidence_and_guesses_no_narrator(
    client: httpx.AsyncClient, database_url: str
) -> None:
    (chain,) = await rows(database_url, "SELECT chain_id, origin FROM chain WHERE hadith_id = $1", MUSLIM_INTRO_1)
    assert chain["origin"] == "parsed_isnad"
    stored = await rows(
        database_url,
        "SELECT narrator_id, resolution_status FROM chain_node WHERE chain_id = $1 ORDER BY position",
        chain["chain_id"],
    )

    answer = await tool_data(client, "get_hadith_chains", hadith_id=MUSLIM_INTRO_1)

    (got,) = answer["chains"]
    assert got["evidence_status"] == "insufficient_evidence"
    assert [n["position"] for n in got["nodes"]] == [1, 2, 3, 4, 5, 6]
    # «منصور» and «عليا»: no name variant of the subset is a lone «منصور» (the AR-Sanad isnad forms come with
    # the narrators of its chains), and a lone common given name is no narrator's name variant
    # (ingest/variants.py), so nothing names a candidate for either.
    assert [n["resolution_status"] for n in got["nodes"]] == [
        "probable",
        "probable",
        "ambiguous",
        "unresolved",
        "probable",
        "unresolved",
    ]
    assert [(n["narrator_id"], n["resolution_status"]) for n in got["nodes"]] == [
        (s["narrator_id"], s["resolution_status"]) for s in stored
    ]
    assert all(n["narrator_id"] is None for n in got["nodes"] if n["resolution_status"] == "ambiguous")
    assert nfc(got["nodes"][2]["mention_ar"]) == "شُعْبَةُ"
    assert got["provenance"] == [
        provenance(1200001, "chain", "lk-corpus", source_key="Muslim.csv#Muslim/Chapter0.csv:1"),
        provenance(
            200001,
            "hadith",
            "hadith-json",
            source_key="db/by_chapter/the_9_books/muslim/introduction.json#1",
            edition_id="hadith-json-muslim",
            locator="muslim/introduction/1",
        ),
    ]


async def test_unresolved_nodes_keep_narrator_id_null(client: httpx.AsyncClient, database_url: str) -> None:
    (row,) = await rows(
        database_url,
        "SELECT c.hadith_id FROM chain c JOIN chain_node n USING (chain_id)"
        " WHERE n.resolution_status = 'unresolved' ORDER BY c.hadith_id LIMIT 1",
    )
    answer = await tool_data(client, "get_hadith_chains", hadith_id=row["hadith_id"])

    nodes = [node for chain in answer["chains"] for node in chain["nodes"]]
    unresolved = [node for node in nodes if node["resolution_status"] == "unresolved"]
    assert unresolved
    assert all(node["narrator_id"] is None and node["mention_ar"] for node in unresolved)


async def test_limit_cuts_the_chains_and_says_so(client: httpx.AsyncClient) -> None:
    one = await tool_data(client, "get_hadith_chains", hadith_id=IBNMAJAH_22, limit=1)
    both = await tool_data(client, "get_hadith_chains", hadith_id=IBNMAJAH_22)

    assert [(c["chain_id"], c["chain_number"]) for c in one["chains"]] == [(30236, 1)]
    assert one["truncated"] is True
    assert [(c["chain_id"], c["chain_number"]) for c in both["chains"]] == [(30236, 1), (30237, 2)]
    assert both["truncated"] is False
    assert [len(c["nodes"]) for c in both["chains"]] == [10, 3]


async def test_node_confidence_is_the_measured_value_not_its_float4_rounding(client: httpx.AsyncClient) -> None:
    # all_hadiths_chain.json row 10: alignment score 0.8 (4 of 5 borne out); 3 of 5 confirmed -> 0.8 x 3/5 = 0.48.
    answer = await tool_data(client, "get_hadith_chains", hadith_id=BUKHARI_11)

    (chain,) = answer["chains"]
    assert [(n["resolution_status"], n["confidence"]) for n in chain["nodes"]] == [
        ("confirmed", 0.8),
        ("probable", 0.48),
        ("probable", 0.48),
        ("confirmed", 0.8),
        ("confirmed", 0.8),
    ]


async def test_a_hadith_without_observed_chain_has_an_empty_list(client: httpx.AsyncClient, database_url: str) -> None:
    assert await rows(database_url, "SELECT chain_id FROM chain WHERE hadith_id = 800001") == []

    answer = await tool_data(client, "get_hadith_chains", hadith_id=800001)

    assert answer == {"hadith_id": 800001, "chains": [], "truncated": False}
