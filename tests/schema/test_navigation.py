"""Navigation beyond the contract (chain node -> narrator -> hadiths ...) reaches the right objects, and a
persisted tool document answers with the contract's fields only."""

from typing import Any

import httpx
import pytest

from tests.graphql_client import call_tool, data_of, execute, nfc, rows

SUMMARY = "narrator_id name_ar name_fr canonical_display generation grade_tier region death_year_hijri"
ALQAMA = {
    "narrator_id": 11042,
    "name_ar": "علقمة بن وقاص",
    "name_fr": None,
    "canonical_display": "'Alqama bin Waqqas",
    "generation": 2,
    "grade_tier": "thiqa",
    "region": None,
    "death_year_hijri": 75,
}
AL_TAYMI = {
    "narrator_id": 11213,
    "name_ar": "محمد بن إبراهيم بن الحارث",
    "name_fr": None,
    "canonical_display": "Muhammad bin Ibrahim bin al-Harith",
    "generation": 4,
    "grade_tier": None,
    "region": None,
    "death_year_hijri": 120,
}


async def _query(client: httpx.AsyncClient, document: str, field: str, **variables: Any) -> Any:
    return data_of(await execute(client, document, **variables), field)


async def test_a_chain_node_reaches_its_narrator_and_an_unresolved_one_none(client: httpx.AsyncClient) -> None:
    document = (
        "query ($id: Int!) { get_hadith_chains(hadith_id: $id) { chains { nodes { narrator_id narrator { %s } } } } }"
    )
    confirmed = await _query(client, document % SUMMARY, "get_hadith_chains", id=100001)
    unresolved = await _query(client, document % "narrator_id", "get_hadith_chains", id=400024)

    nodes = confirmed["chains"][0]["nodes"]
    assert [n["narrator"]["narrator_id"] for n in nodes] == [30418, 20005, 11062, 11213, 11042, 3]
    assert nfc(nodes[4]["narrator"]) == nfc(ALQAMA)
    assert [n["narrator"] for n in unresolved["chains"][0]["nodes"]] == [None] * 6


async def test_a_search_hit_reaches_its_hadith(client: httpx.AsyncClient) -> None:
    document = """query { search_hadith(query: "صحيح مسلم ٨", limit: 3) {
        results { hadith_id hadith { hadith_id canonical_reference collection { code } book { id } } } } }"""
    answer = await _query(client, document, "search_hadith")

    assert [hit["hadith"] for hit in answer["results"]] == [
        {
            "hadith_id": 200092 + n,
            "canonical_reference": f"muslim:8{letter}",
            "collection": {"code": "muslim"},
            "book": {"id": 2001},
        }
        for n, letter in enumerate("abc")
    ]


async def test_a_narrator_search_hit_reaches_its_narrator(client: httpx.AsyncClient) -> None:
    document = 'query { search_narrator(query: "Alqama bin Waqqas", limit: 1) { results { narrator { %s } } } }'
    answer = await _query(client, document % SUMMARY, "search_narrator")

    assert nfc(answer["results"]) == nfc([{"narrator": ALQAMA}])


async def test_a_narrator_hadith_item_reaches_its_hadith(client: httpx.AsyncClient) -> None:
    document = """query { get_narrator_hadiths(narrator_id: 11060, limit: 3) {
        items { hadith_id canonical_reference hadith { hadith_id canonical_reference } } } }"""
    answer = await _query(client, document, "get_narrator_hadiths")

    items = answer["items"]
    assert len(items) == 3
    assert [i["hadith"] for i in items] == [
        {"hadith_id": i["hadith_id"], "canonical_reference": i["canonical_reference"]} for i in items
    ]


async def test_a_relation_reaches_its_teacher_and_student(client: httpx.AsyncClient) -> None:
    narrator = "{ " + SUMMARY + " }"
    document = (
        "query { get_transmission_relation(narrator_a_id: 11213, narrator_b_id: 11042) {"
        f" relations {{ teacher {narrator} student {narrator} }} }} }}"
    )
    answer = await _query(client, document, "get_transmission_relation")

    assert nfc(answer["relations"]) == nfc([{"teacher": ALQAMA, "student": AL_TAYMI}])


async def test_a_chain_observation_reaches_its_hadith(client: httpx.AsyncClient) -> None:
    document = """query { get_transmission_relation(narrator_a_id: 3, narrator_b_id: 11042) {
        chain_observations { hadith { hadith_id canonical_reference chapter { id } } } } }"""
    answer = await _query(client, document, "get_transmission_relation")

    assert answer["chain_observations"] == [
        {"hadith": {"hadith_id": 100001, "canonical_reference": "bukhari:1", "chapter": {"id": 10010001}}}
    ]


async def test_a_narrators_hadiths_are_the_first_confirmed_by_id_within_limit(
    client: httpx.AsyncClient, database_url: str
) -> None:
    stored = await rows(
        database_url,
        "SELECT DISTINCT c.hadith_id FROM chain_node n JOIN chain c USING (chain_id)"
        " WHERE n.narrator_id = 11062 AND n.resolution_status = 'confirmed' ORDER BY c.hadith_id",
    )
    # 200106's «يحيى بن سعيد» is al-Qattan's name too, and the student lists single neither out: probable
    assert [r["hadith_id"] for r in stored] == [100001, 300012, 400153, 500023]
    document = """query ($limit: Int) { get_hadith_chains(hadith_id: 100001) {
        chains { nodes { narrator_id narrator {
        hadiths(limit: $limit) { items { hadith_id canonical_reference } } } } } } }"""

    async def hadiths(limit: int | None) -> list[int]:
        answer = await _query(client, document, "get_hadith_chains", limit=limit)
        yahya = next(n["narrator"] for n in answer["chains"][0]["nodes"] if n["narrator_id"] == 11062)
        assert yahya["hadiths"]["items"][0]["canonical_reference"] == "bukhari:1"
        return [h["hadith_id"] for h in yahya["hadiths"]["items"]]

    assert await hadiths(3) == [100001, 300012, 400153]
    assert await hadiths(None) == [100001, 300012, 400153, 500023]


async def test_a_hadith_reaches_its_chains_within_limit(client: httpx.AsyncClient) -> None:
    document = """query { get_hadith(hadith_id: 600022) {
        one: chains(limit: 1) { hadith_id chains { chain_id } truncated }
        all: chains { chains { chain_id chain_number nodes { position } } truncated } } }"""
    hadith = await _query(client, document, "get_hadith")

    assert hadith["one"] == {"hadith_id": 600022, "chains": [{"chain_id": 30236}], "truncated": True}
    assert [(c["chain_id"], c["chain_number"], len(c["nodes"])) for c in hadith["all"]["chains"]] == [
        (30236, 1, 10),
        (30237, 2, 3),
    ]
    assert hadith["all"]["truncated"] is False


# The contract's fields (tool-contract.fr.txt, sections 1-8, with CONTRACT.md's decisions), nested.
Shape = dict[str, "Shape | None"]
PROVENANCE: Shape = dict.fromkeys(
    [
        "object_id",
        "object_type",
        "source_type",
        "source_id",
        "source_key",
        "source_title",
        "edition_id",
        "citation",
        "locator",
    ]
)


def _shape(fields: str, **nested: Shape) -> Shape:
    return {**dict.fromkeys(fields.split()), **nested}


CONTRACT: dict[str, tuple[dict[str, Any], Shape]] = {
    "search_hadith": (
        {"query": "bukhari:1"},
        _shape(
            "truncated capability_note",
            results=_shape(
                "hadith_id canonical_reference text_ar text_fr match_method score evidence_status",
                provenance=PROVENANCE,
            ),
        ),
    ),
    "get_hadith": (
        {"hadith_id": 100001},
        _shape(
            "hadith_id canonical_reference text_ar text_fr evidence_status",
            collection=_shape("id code name"),
            book=_shape("id number title"),
            chapter=_shape("id number title"),
            provenance=PROVENANCE,
        ),
    ),
    "get_hadith_chains": (
        {"hadith_id": 100001},
        _shape(
            "hadith_id truncated",
            chains=_shape(
                "chain_id chain_number evidence_status",
                nodes=_shape("position narrator_id mention_ar transmission_term_ar resolution_status confidence"),
                provenance=PROVENANCE,
            ),
        ),
    ),
    "search_narrator": (
        {"query": "Abu Hurairah"},
        _shape(
            "truncated",
            results=_shape(
                "narrator_id name_ar name_fr canonical_display match_tier score evidence_status",
                provenance=PROVENANCE,
            ),
        ),
    ),
    "get_narrator_profile": (
        {"narrator_id": 11062},
        _shape(
            "narrator_id truncated capability_note",
            identity=_shape("name_ar name_fr canonical_display variants"),
            legacy_scholarly_data=_shape("field value evidence_status", provenance=PROVENANCE),
            source_entries=_shape("entry_id text resolution_status evidence_status", provenance=PROVENANCE),
            canonical_assertions=_shape("field value evidence_status", provenance=PROVENANCE),
        ),
    ),
    "get_narrator_hadiths": (
        {"narrator_id": 11060},
        _shape(
            "narrator_id occurrence_count distinct_hadith_count page truncated",
            items=_shape(
                "hadith_id canonical_reference chain_id node_id position relation_type evidence_status",
                provenance=PROVENANCE,
            ),
        ),
    ),
    "get_transmission_relation": (
        {"narrator_a_id": 11042, "narrator_b_id": 11213},
        _shape(
            "narrator_a_id narrator_b_id evidence_status truncated capability_note",
            relations=_shape(
                "teacher_id student_id relation_status normalized_status evidence_status", provenance=PROVENANCE
            ),
            chain_observations=_shape(
                "hadith_id canonical_reference chain_id upper_narrator_id lower_narrator_id upper_node_id"
                " lower_node_id evidence_status",
                provenance=PROVENANCE,
            ),
        ),
    ),
    "get_hadith_commentary": (
        {"hadith_id": 500002},
        _shape(
            "hadith_id truncated",
            passages=_shape(
                "passage_id passage_kind source_text alignment_status alignment_confidence evidence_status",
                translation=_shape("language text status"),
                provenance=PROVENANCE,
            ),
        ),
    ),
}


def _fields_outside(value: Any, shape: Shape, path: str) -> list[str]:
    """Every path where the response's fields differ from the shape; lists are checked item by item."""
    if isinstance(value, list):
        assert value, f"{path} is empty: the case does not exercise its items"
        return [bad for item in value for bad in _fields_outside(item, shape, f"{path}[]")]
    problems = [f"{path}.{key}" for key in set(value) ^ set(shape)]
    for key, nested in shape.items():
        if nested is not None and value.get(key) is not None:
            problems += _fields_outside(value[key], nested, f"{path}.{key}")
    return problems


@pytest.mark.parametrize("tool", sorted(CONTRACT))
async def test_a_persisted_document_answers_with_exactly_the_contract_fields(
    client: httpx.AsyncClient, tool: str
) -> None:
    variables, shape = CONTRACT[tool]
    body = await call_tool(client, tool, **variables)

    assert "errors" not in body, body["errors"]
    assert set(body["data"]) == {tool}
    assert _fields_outside(body["data"][tool], shape, tool) == []
