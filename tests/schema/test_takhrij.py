"""Takhrij on the web schema: a hadith's parallels by matn similarity, and the isnad tree of its chains and theirs,
read against the database the importer built; bounded like every list; statements fixed by the document's shape.

In the subset: «إذا اشتد الحر فأبردوا بالصلاة» in Ibn Majah 678 and its versions (Abu Hurayra's through al-Zuhri,
through Abu al-Zinad; Abu Dharr's; Ibn 'Umar's ...), and Bukhari 14 with Bukhari 15, whose chain holds an
unidentified node."""

import itertools
from typing import Any

import httpx
import pytest

from app.limits import NAVIGATION
from app.text.arabic import normalize
from tests.graphql_client import data_of, execute, rows

IBNMAJAH_678 = 600678
TIRMIDHI_157 = 400157
BUKHARI_14 = 100014
MALIK_1 = 700001  # Malik has no LK matn: nothing to compare
ABRIDU = {"abudawud:402", "tirmidhi:157", "ibnmajah:677"}  # «فأبردوا بالصلاة», Abu Hurayra's
PARALLELS = """query ($id: Int!, $limit: Int) { get_hadith(hadith_id: $id) { parallels(limit: $limit) {
    items { hadith_id canonical_reference similarity method evidence_status
            provenance { object_id source_id source_key } }
    truncated capability_note } } }"""
# A whole tree at the largest limit is over the node budget (app/cost.py sizes its lists at the most the data
# holds): it is read in three documents.
TREE_PARTS = (
    """query ($id: Int!, $limit: Int) { get_hadith(hadith_id: $id) { text_ar isnad_tree(limit: $limit) {
    hadith_id nodes { key narrator_id resolution_statuses chain_count is_madar }
    chains { chain_id hadith_id canonical_reference node_keys evidence_status failed_checks }
    madar { key narrator_id method chain_count unidentified_chain_ids evidence_status
            provenance { object_id object_type } }
    madar_note truncated evidence_status } } }""",
    """query ($id: Int!, $limit: Int) { get_hadith(hadith_id: $id) { isnad_tree(limit: $limit) {
    edges { upper_key lower_key transmission_terms chain_count } } } }""",
    """query ($id: Int!, $limit: Int) { get_hadith(hadith_id: $id) { isnad_tree(limit: $limit) {
    versions { hadith_id canonical_reference similarity chain_ids differences { kind words_hadith words_version }
               differences_truncated } } } }""",
)
TREE_NARRATORS = """query ($id: Int!, $limit: Int) { get_hadith(hadith_id: $id) { isnad_tree(limit: $limit) {
    nodes { narrator { narrator_id canonical_display } } chains { chain_id } } parallels(limit: $limit) {
    items { hadith_id } } } }"""
CHAINS = "SELECT chain_id, hadith_id FROM chain WHERE hadith_id = ANY($1::int[]) ORDER BY hadith_id, chain_number"
NODES = """SELECT c.chain_id, n.position, n.narrator_id, n.resolution_status FROM chain c
             JOIN chain_node n ON n.chain_id = c.chain_id WHERE c.hadith_id = ANY($1::int[]) ORDER BY 1, 2"""
ABU_HURAYRA = 13


async def _parallels(client: httpx.AsyncClient, hadith: int, limit: int | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = data_of(await execute(client, PARALLELS, id=hadith, limit=limit), "get_hadith")[
        "parallels"
    ]
    return answer


async def _tree(client: httpx.AsyncClient, hadith: int, limit: int | None = None) -> dict[str, Any]:
    """The hadith's text and its whole tree, read in parts."""
    answer: dict[str, Any] = {"isnad_tree": {}}
    for document in TREE_PARTS:
        part = data_of(await execute(client, document, id=hadith, limit=limit), "get_hadith")
        answer["isnad_tree"] |= part.pop("isnad_tree")
        answer |= part
    return answer


async def test_a_hadith_has_its_other_versions_as_parallels_each_an_inference(
    client: httpx.AsyncClient,
) -> None:
    found = await _parallels(client, IBNMAJAH_678, NAVIGATION.maximum)

    references = [item["canonical_reference"] for item in found["items"]]
    assert set(references) >= ABRIDU
    assert found["truncated"] is False and found["capability_note"] is None
    scores = [item["similarity"] for item in found["items"]]
    assert scores == sorted(scores, reverse=True) and min(scores) >= 0.5
    for item in found["items"]:
        assert (item["method"], item["evidence_status"]) == ("matn_content_word_containment", "inference")
        assert [(p["object_id"], p["source_id"]) for p in item["provenance"]] == [
            (IBNMAJAH_678, "lk-corpus"),
            (item["hadith_id"], "lk-corpus"),
        ]


async def test_parallels_are_stored_both_ways(client: httpx.AsyncClient) -> None:
    found = await _parallels(client, IBNMAJAH_678, NAVIGATION.maximum)
    other = found["items"][0]

    back = await _parallels(client, other["hadith_id"], NAVIGATION.maximum)

    assert (IBNMAJAH_678, other["similarity"]) in {(item["hadith_id"], item["similarity"]) for item in back["items"]}


async def test_a_hadith_without_a_matn_lists_no_parallel_and_says_why(client: httpx.AsyncClient) -> None:
    found = await _parallels(client, MALIK_1)

    assert found["items"] == [] and found["truncated"] is False
    assert "no matn" in found["capability_note"]


async def test_one_parallel_asked_of_several_is_truncated(client: httpx.AsyncClient) -> None:
    every = await _parallels(client, IBNMAJAH_678, NAVIGATION.maximum)

    assert await _parallels(client, IBNMAJAH_678, 1) == {**every, "items": every["items"][:1], "truncated": True}


@pytest.mark.parametrize("field", ["parallels", "isnad_tree"])
@pytest.mark.parametrize(("limit", "code"), [(NAVIGATION.maximum + 1, "LIMIT_EXCEEDED"), (0, "INVALID_INPUT")])
async def test_a_limit_out_of_bounds_is_refused_never_capped(
    client: httpx.AsyncClient, field: str, limit: int, code: str
) -> None:
    document = (
        f"query ($limit: Int) {{ get_hadith(hadith_id: {IBNMAJAH_678}) {{ {field}(limit: $limit) {{ __typename }} }} }}"
    )

    body = await execute(client, document, limit=limit)

    assert [error["extensions"]["code"] for error in body["errors"]] == [code]


@pytest.mark.parametrize("hadith", [IBNMAJAH_678, BUKHARI_14])
async def test_the_tree_merges_the_chains_of_the_hadith_and_its_parallels_as_the_database_holds_them(
    client: httpx.AsyncClient, database_url: str, hadith: int
) -> None:
    tree = (await _tree(client, hadith, NAVIGATION.maximum))["isnad_tree"]
    versions = [version["hadith_id"] for version in tree["versions"]]

    chains = await rows(database_url, CHAINS, versions)
    assert sorted((c["hadith_id"], c["chain_id"]) for c in tree["chains"]) == sorted(
        (c["hadith_id"], c["chain_id"]) for c in chains
    )
    nodes = await rows(database_url, NODES, versions)
    expected: dict[int, list[str]] = {}
    for node in nodes:
        merged = node["narrator_id"] is not None and node["resolution_status"] in {"confirmed", "probable"}
        key = f"narrator:{node['narrator_id']}" if merged else f"node:{node['chain_id'] * 100 + node['position']}"
        expected.setdefault(node["chain_id"], []).append(key)
    assert {c["chain_id"]: c["node_keys"] for c in tree["chains"]} == expected
    assert {node["key"] for node in tree["nodes"]} == {key for keys in expected.values() for key in keys}


@pytest.mark.parametrize("hadith", [IBNMAJAH_678, BUKHARI_14])
async def test_every_link_of_every_chain_is_an_edge_counted_once_per_chain(
    client: httpx.AsyncClient, hadith: int
) -> None:
    tree = (await _tree(client, hadith, NAVIGATION.maximum))["isnad_tree"]

    carried: dict[tuple[str, str], set[int]] = {}
    for chain in tree["chains"]:
        keys = chain["node_keys"]
        for lower, upper in itertools.pairwise(keys):
            carried.setdefault((upper, lower), set()).add(chain["chain_id"])
    edges = {(e["upper_key"], e["lower_key"]): e for e in tree["edges"]}
    assert set(edges) == set(carried)
    for pair, chain_ids in carried.items():
        assert edges[pair]["chain_count"] == len(chain_ids)


async def test_chains_that_fail_a_check_are_marked_and_unidentified_nodes_kept_apart(
    client: httpx.AsyncClient,
) -> None:
    tree = (await _tree(client, BUKHARI_14, NAVIGATION.maximum))["isnad_tree"]

    assert any(node["narrator_id"] is None for node in tree["nodes"])
    assert any(chain["failed_checks"] for chain in (await _tree(client, IBNMAJAH_678, 2))["isnad_tree"]["chains"])
    for chain in tree["chains"]:
        assert (chain["evidence_status"] == "fact") == (chain["failed_checks"] == [])
    for node in tree["nodes"]:
        apart = node["key"].startswith("node:")
        assert apart == (node["narrator_id"] is None)
        assert apart or set(node["resolution_statuses"]) <= {"confirmed", "probable"}
        assert node["chain_count"] == sum(node["key"] in chain["node_keys"] for chain in tree["chains"])
        assert not apart or node["chain_count"] == 1


@pytest.mark.parametrize(
    ("hadith", "limit", "madar", "chains"),
    [
        (TIRMIDHI_157, 1, ABU_HURAYRA, 2),  # with Ibn Majah 677, through Abu al-Zinad and al-A'raj: Abu Hurayra
        (TIRMIDHI_157, 2, ABU_HURAYRA, 3),  # and Ibn Majah 678, through al-Layth and al-Zuhri as Tirmidhi 157
    ],
)
async def test_the_madar_is_the_narrator_nearest_the_compilers_in_every_chain(
    client: httpx.AsyncClient, hadith: int, limit: int, madar: int, chains: int
) -> None:
    tree = (await _tree(client, hadith, limit))["isnad_tree"]

    assert len(tree["chains"]) == chains
    assert (tree["madar"]["narrator_id"], tree["madar"]["chain_count"], tree["madar_note"]) == (madar, chains, None)
    assert tree["madar"]["evidence_status"] == "inference" and tree["madar"]["unidentified_chain_ids"] == []
    assert [p["object_id"] for p in tree["madar"]["provenance"]] == [chain["chain_id"] for chain in tree["chains"]]
    assert [node["key"] for node in tree["nodes"] if node["is_madar"]] == [f"narrator:{madar}"]


async def test_versions_from_other_companions_leave_no_madar_and_say_why(client: httpx.AsyncClient) -> None:
    tree = (await _tree(client, IBNMAJAH_678, NAVIGATION.maximum))["isnad_tree"]

    assert tree["madar"] is None
    assert (
        tree["madar_note"]
        == "No narrator identified by the evidence stands in two chains and may stand in every other."
    )
    assert not all(f"narrator:{ABU_HURAYRA}" in chain["node_keys"] for chain in tree["chains"])


async def test_each_version_lists_its_branch_and_its_wording_against_the_hadith(client: httpx.AsyncClient) -> None:
    found = await _tree(client, IBNMAJAH_678, NAVIGATION.maximum)
    tree, text = found["isnad_tree"], normalize(found["text_ar"])

    own, *others = tree["versions"]
    assert (own["hadith_id"], own["similarity"], own["differences"]) == (IBNMAJAH_678, None, [])
    assert {chain["chain_id"] for chain in tree["chains"]} == {i for v in tree["versions"] for i in v["chain_ids"]}
    assert any(version["differences"] for version in others)
    for version in others:
        for difference in version["differences"]:
            assert difference["words_hadith"] in text
            assert (difference["kind"] == "added") == (difference["words_hadith"] == "")
            assert (difference["kind"] == "dropped") == (difference["words_version"] == "")


async def test_a_tree_of_one_or_of_twenty_parallels_costs_the_same_statements(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    counts, sizes = [], []
    for limit in (1, NAVIGATION.maximum):
        await execute(client, TREE_NARRATORS, id=IBNMAJAH_678, limit=limit)
        statements.clear()
        body = data_of(await execute(client, TREE_NARRATORS, id=IBNMAJAH_678, limit=limit), "get_hadith")
        counts.append(len(statements))
        sizes.append(len(body["isnad_tree"]["chains"]))

    assert sizes[0] < sizes[1]
    assert counts[0] == counts[1] == 4  # the hadith, its tree, its parallels, the narrators
