"""get_transmission_relation on known real pairs: recorded relations keep their source's status, and chain
observations are reported apart and never make a relation attested."""

import httpx

from schema.relation import NOT_RECORDED
from tests.graphql_client import provenance, rows, tool_data

UMAR, ALQAMA, AL_TAYMI = 3, 11042, 11213  # adjacent in the chain of Bukhari 1: 'Umar <- 'Alqama <- al-Taymi
BUKHARI_1 = 100001
# 'Uthman b. 'Affan -> 'Urwa b. al-Zubayr: only AR-Sanad Lite records it (probable); -> Sa'id b. al-Musayyab: the
# muslimscholars student list too (attested)
UTHMAN, URWA, IBN_AL_MUSAYYAB = 4, 10511, 11002


def _observation(upper: int, lower: int, upper_position: int, status: str = "fact") -> dict[str, object]:
    """The observation of `upper` and `lower` in the chain of Bukhari 1 (chain 1, node ids 100 + position)."""
    lower_position = upper_position - 1
    return {
        "hadith_id": BUKHARI_1,
        "canonical_reference": "bukhari:1",
        "chain_id": 1,
        "upper_narrator_id": upper,
        "lower_narrator_id": lower,
        "upper_node_id": 100 + upper_position,
        "lower_node_id": 100 + lower_position,
        "evidence_status": status,
        "provenance": [
            provenance(
                1,
                "chain",
                "muslimscholars-aligned",
                source_key="all_hadiths_chain.json#kaggle_row=0",
                locator="bukhari:1",
            ),
            provenance(
                100 + upper_position,
                "chain_node",
                "muslimscholars-aligned",
                source_key=f"all_hadiths_chain.json#kaggle_row=0&position={upper_position}&scholar_indx={upper}",
                locator=f"position {upper_position}",
            ),
            provenance(
                100 + lower_position,
                "chain_node",
                "muslimscholars-aligned",
                source_key=f"all_hadiths_chain.json#kaggle_row=0&position={lower_position}&scholar_indx={lower}",
                locator=f"position {lower_position}",
            ),
        ],
    }


async def _stored(database_url: str, a: int, b: int) -> list[dict[str, object]]:
    return await rows(
        database_url,
        "SELECT teacher_id, student_id, status, source_id FROM transmission_relation"
        " WHERE (teacher_id, student_id) IN (($1, $2), ($2, $1)) ORDER BY status, source_id",
        a,
        b,
    )


async def test_alqama_to_al_taymi_is_an_attested_relation_with_its_record(client: httpx.AsyncClient) -> None:
    answer = await tool_data(client, "get_transmission_relation", narrator_a_id=ALQAMA, narrator_b_id=AL_TAYMI)

    assert answer == {
        "narrator_a_id": 11042,
        "narrator_b_id": 11213,
        "relations": [
            {
                "teacher_id": 11042,
                "student_id": 11213,
                "relation_status": "attested",
                "normalized_status": "attested",
                "evidence_status": "fact",
                "provenance": [
                    provenance(6901, "relation", "muslimscholars", source_key="all_rawis.csv#scholar_indx=11042")
                ],
            }
        ],
        "chain_observations": [_observation(ALQAMA, AL_TAYMI, 5)],
        "evidence_status": "fact",
        "truncated": False,
        "capability_note": None,
    }


async def test_the_pair_in_either_order_gives_the_same_relation(client: httpx.AsyncClient) -> None:
    forward = await tool_data(client, "get_transmission_relation", narrator_a_id=ALQAMA, narrator_b_id=AL_TAYMI)
    backward = await tool_data(client, "get_transmission_relation", narrator_a_id=AL_TAYMI, narrator_b_id=ALQAMA)

    assert (backward["narrator_a_id"], backward["narrator_b_id"]) == (11213, 11042)
    assert backward["relations"] == forward["relations"]
    assert backward["chain_observations"] == forward["chain_observations"]


async def test_umar_and_alqama_have_no_record_only_a_chain_observation_reported_apart(
    client: httpx.AsyncClient, database_url: str
) -> None:
    assert await _stored(database_url, UMAR, ALQAMA) == []

    answer = await tool_data(client, "get_transmission_relation", narrator_a_id=UMAR, narrator_b_id=ALQAMA)

    assert answer == {
        "narrator_a_id": 3,
        "narrator_b_id": 11042,
        "relations": [],
        # 'Umar's node is only probable («عمر بن الخطاب» is another narrator's name too): an inference
        "chain_observations": [_observation(UMAR, ALQAMA, 6, "inference")],
        "evidence_status": "insufficient_evidence",
        "truncated": False,
        "capability_note": NOT_RECORDED,
    }
    assert "not evidence" in answer["capability_note"]


async def test_without_chain_observations_none_are_listed(client: httpx.AsyncClient) -> None:
    answer = await tool_data(
        client,
        "get_transmission_relation",
        narrator_a_id=UMAR,
        narrator_b_id=ALQAMA,
        include_chain_observations=False,
    )

    assert answer["chain_observations"] == []
    assert answer["relations"] == []
    assert answer["evidence_status"] == "insufficient_evidence"


async def test_a_probable_relation_stays_probable_possible_and_inference(
    client: httpx.AsyncClient, database_url: str
) -> None:
    (teacher, student) = (UTHMAN, URWA)
    assert await _stored(database_url, teacher, student) == [
        {"teacher_id": UTHMAN, "student_id": URWA, "status": "probable", "source_id": "ar-sanad-lite"}
    ]

    answer = await tool_data(client, "get_transmission_relation", narrator_a_id=teacher, narrator_b_id=student)

    assert answer["relations"] == [
        {
            "teacher_id": UTHMAN,
            "student_id": URWA,
            "relation_status": "probable",
            "normalized_status": "possible",
            "evidence_status": "inference",
            "provenance": [provenance(5, "relation", "ar-sanad-lite", source_key="narrators_lite.csv#id=29")],
        }
    ]
    assert answer["evidence_status"] == "insufficient_evidence"
    assert answer["capability_note"]


async def test_the_note_of_a_probable_relation_does_not_deny_the_record_it_lists(client: httpx.AsyncClient) -> None:
    answer = await tool_data(client, "get_transmission_relation", narrator_a_id=UTHMAN, narrator_b_id=URWA)

    assert answer["relations"], "AR-Sanad records this relation, as probable"
    # NOT_RECORDED says no source records a relation with provenance: false here, the probable one is listed.
    assert answer["capability_note"] != NOT_RECORDED


async def test_a_probable_record_beside_an_attested_one_keeps_its_status(
    client: httpx.AsyncClient, database_url: str
) -> None:
    assert [(r["status"], r["source_id"]) for r in await _stored(database_url, UTHMAN, IBN_AL_MUSAYYAB)] == [
        ("attested", "muslimscholars"),
        ("probable", "ar-sanad-lite"),
    ]

    answer = await tool_data(client, "get_transmission_relation", narrator_a_id=UTHMAN, narrator_b_id=IBN_AL_MUSAYYAB)

    assert [(r["relation_status"], r["normalized_status"], r["evidence_status"]) for r in answer["relations"]] == [
        ("attested", "attested", "fact"),
        ("probable", "possible", "inference"),
    ]
    assert [r["provenance"][0]["source_id"] for r in answer["relations"]] == ["muslimscholars", "ar-sanad-lite"]
    assert answer["evidence_status"] == "fact"
    assert answer["capability_note"] is None


async def test_an_observation_with_a_probable_node_is_an_inference(client: httpx.AsyncClient) -> None:
    # Bukhari 11, chain 11: position 1 (30254) is confirmed, position 2 (20367) only probable.
    answer = await tool_data(client, "get_transmission_relation", narrator_a_id=30254, narrator_b_id=20367)

    assert [
        (o["canonical_reference"], o["upper_narrator_id"], o["lower_narrator_id"], o["evidence_status"])
        for o in answer["chain_observations"]
    ] == [("bukhari:11", 20367, 30254, "inference")]
    assert [r["relation_status"] for r in answer["relations"]] == ["attested"]


async def test_limit_bounds_relations_and_observations_and_says_so(
    client: httpx.AsyncClient, database_url: str
) -> None:
    (count,) = await rows(
        database_url,
        "SELECT count(*) AS n FROM chain_node lo JOIN chain_node up"
        " ON up.chain_id = lo.chain_id AND up.position = lo.position + 1"
        " WHERE lo.narrator_id = 11421 AND up.narrator_id = 4"
        " AND lo.resolution_status IN ('confirmed', 'probable') AND up.resolution_status IN ('confirmed', 'probable')",
    )
    assert count["n"] > 3

    cut = await tool_data(client, "get_transmission_relation", narrator_a_id=11421, narrator_b_id=4, limit=3)
    whole = await tool_data(client, "get_transmission_relation", narrator_a_id=11421, narrator_b_id=4, limit=20)

    assert len(cut["chain_observations"]) == 3
    assert cut["truncated"] is True
    assert len(whole["chain_observations"]) == count["n"]
    assert whole["truncated"] is False
    assert cut["chain_observations"] == whole["chain_observations"][:3]

    relation_cut = await tool_data(
        client, "get_transmission_relation", narrator_a_id=UTHMAN, narrator_b_id=IBN_AL_MUSAYYAB, limit=1
    )
    assert [r["relation_status"] for r in relation_cut["relations"]] == ["attested"]
    assert relation_cut["truncated"] is True
