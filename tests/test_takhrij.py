"""Takhrij on the web schema: a hadith's parallels by matn similarity, and the isnad tree of its chains and theirs,
read against the database the importer built; bounded like every list; statements fixed by the document's shape.

The subset holds the niyyat hadith (Bukhari 1) and seven of its other versions (tests/subset.py)."""

import itertools
from typing import Any

import httpx
import pytest

from app.arabic import normalize
from app.limits import NAVIGATION
from tests.graphql_client import data_of, execute, rows

BUKHARI_1 = 100001
MALIK_1 = 700001  # Malik has no LK matn: nothing to compare
NIYYAT = {"bukhari:54", "bukhari:2529", "bukhari:3898", "bukhari:5070", "bukhari:6689", "bukhari:6953", "muslim:1907a"}
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
    madar_note parallels_truncated evidence_status } } }""",
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
ANSARI, QATTAN, TAYMI = "يحيى بن سعيد الأنصاري", "يحيى بن سعيد بن فروخ القطان", "محمد بن إبراهيم بن الحارث"
NARRATORS = "SELECT name_ar, narrator_id FROM narrator WHERE name_ar = ANY($1::text[])"


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


async def test_the_niyyat_hadith_has_its_other_versions_as_parallels_each_an_inference(
    client: httpx.AsyncClient,
) -> None:
    found = await _parallels(client, BUKHARI_1, NAVIGATION.maximum)

    references = [item["canonical_reference"] for item in found["items"]]
    assert set(references) >= NIYYAT
    assert found["truncated"] is False and found["capability_note"] is None
    scores = [item["similarity"] for item in found["items"]]
    assert scores == sorted(scores, reverse=True) and min(scores) >= 0.5
    for item in found["items"]:
        assert (item["method"], item["evidence_status"]) == ("matn_content_word_containment", "inference")
        assert [(p["object_id"], p["source_id"]) for p in item["provenance"]] == [
            (BUKHARI_1, "lk-corpus"),
            (item["hadith_id"], "lk-corpus"),
        ]


async def test_parallels_are_stored_both_ways(client: httpx.AsyncClient) -> None:
    found = await _parallels(client, BUKHARI_1, NAVIGATION.maximum)
    other = found["items"][0]

    back = await _parallels(client, other["hadith_id"], NAVIGATION.maximum)

    assert (BUKHARI_1, other["similarity"]) in {(item["hadith_id"], item["similarity"]) for item in back["items"]}


async def test_a_hadith_without_a_matn_lists_no_parallel_and_says_why(client: httpx.AsyncClient) -> None:
    found = await _parallels(client, MALIK_1)

    assert found["items"] == [] and found["truncated"] is False
    assert "no matn" in found["capability_note"]


async def test_one_parallel_asked_of_several_is_truncated(client: httpx.AsyncClient) -> None:
    every = await _parallels(client, BUKHARI_1, NAVIGATION.maximum)

    assert await _parallels(client, BUKHARI_1, 1) == {**every, "items": every["items"][:1], "truncated": True}


@pytest.mark.parametrize("field", ["parallels", "isnad_tree"])
@pytest.mark.parametrize(("limit", "code"), [(NAVIGATION.maximum + 1, "LIMIT_EXCEEDED"), (0, "INVALID_INPUT")])
async def test_a_limit_out_of_bounds_is_refused_never_capped(
    client: httpx.AsyncClient, field: str, limit: int, code: str
) -> None:
    document = (
        f"query ($limit: Int) {{ get_hadith(hadith_id: {BUKHARI_1}) {{ {field}(limit: $limit) {{ __typename }} }} }}"
    )

    body = await execute(client, document, limit=limit)

    assert [error["extensions"]["code"] for error in body["errors"]] == [code]


async def test_the_tree_merges_the_chains_of_the_hadith_and_its_parallels_as_the_database_holds_them(
    client: httpx.AsyncClient, database_url: str
) -> None:
    tree = (await _tree(client, BUKHARI_1, NAVIGATION.maximum))["isnad_tree"]
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


async def test_every_link_of_every_chain_is_an_edge_counted_once_per_chain(client: httpx.AsyncClient) -> None:
    tree = (await _tree(client, BUKHARI_1, NAVIGATION.maximum))["isnad_tree"]

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
    tree = (await _tree(client, BUKHARI_1, NAVIGATION.maximum))["isnad_tree"]

    for chain in tree["chains"]:
        assert (chain["evidence_status"] == "fact") == (chain["failed_checks"] == [])
    for node in tree["nodes"]:
        apart = node["key"].startswith("node:")
        assert apart == (node["narrator_id"] is None)
        assert apart or set(node["resolution_statuses"]) <= {"confirmed", "probable"}
        assert node["chain_count"] == sum(node["key"] in chain["node_keys"] for chain in tree["chains"])
        assert not apart or node["chain_count"] == 1


async def test_the_niyyat_tree_converges_where_the_dataset_ids_meet(
    client: httpx.AsyncClient, database_url: str
) -> None:
    """Every chain passes through Yahya b. Sa'id al-Ansari but those where the dataset gives his homonym Yahya b.
    Sa'id al-Qattan for the text's «يحيى» (Bukhari 3898, 6953): the tree reports the madar the ids give, the
    next narrator up, Muhammad b. Ibrahim al-Taymi, and does not correct the dataset."""
    tree = (await _tree(client, BUKHARI_1, NAVIGATION.maximum))["isnad_tree"]
    ids = {
        name: narrator
        for name, narrator in [
            tuple(row.values()) for row in await rows(database_url, NARRATORS, [ANSARI, QATTAN, TAYMI])
        ]
    }
    ansari, qattan, taymi = (f"narrator:{ids[name]}" for name in (ANSARI, QATTAN, TAYMI))

    assert tree["madar"]["key"] == taymi and tree["madar_note"] is None
    assert tree["madar"]["evidence_status"] == "inference"
    assert tree["madar"]["chain_count"] == len(tree["chains"]) and tree["madar"]["unidentified_chain_ids"] == []
    assert [p["object_type"] for p in tree["madar"]["provenance"]] == ["chain"] * len(tree["chains"])
    assert [node["key"] for node in tree["nodes"] if node["is_madar"]] == [taymi]
    without = {chain["canonical_reference"] for chain in tree["chains"] if ansari not in chain["node_keys"]}
    with_qattan = {chain["canonical_reference"] for chain in tree["chains"] if qattan in chain["node_keys"]}
    assert without == with_qattan == {"bukhari:3898", "bukhari:6953"}


async def test_each_version_lists_its_branch_and_its_wording_against_the_hadith(client: httpx.AsyncClient) -> None:
    found = await _tree(client, BUKHARI_1, NAVIGATION.maximum)
    tree, text = found["isnad_tree"], normalize(found["text_ar"])

    own, *others = tree["versions"]
    assert (own["hadith_id"], own["similarity"], own["differences"]) == (BUKHARI_1, None, [])
    assert {chain["chain_id"] for chain in tree["chains"]} == {i for v in tree["versions"] for i in v["chain_ids"]}
    assert all(version["differences"] for version in others)
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
        await execute(client, TREE_NARRATORS, id=BUKHARI_1, limit=limit)
        statements.clear()
        body = data_of(await execute(client, TREE_NARRATORS, id=BUKHARI_1, limit=limit), "get_hadith")
        counts.append(len(statements))
        sizes.append(len(body["isnad_tree"]["chains"]))

    assert sizes[0] < sizes[1]
    assert counts[0] == counts[1] == 4  # the hadith, its tree, its parallels, the narrators
