"""Merging chains into one tree: nodes merged by narrator id only where the evidence gives one, unidentified
nodes kept apart, edges counted per chain with their terms, and the madar nearest the compilers."""

from app.data.records import ChainRecord, NodeRecord
from resolvers.tree_graph import merge
from resolvers.wording import differences

Node = tuple[int | None, str, str]  # narrator, status, term


def _chain(chain_id: int, nodes: list[Node]) -> ChainRecord:
    return ChainRecord(
        chain_id=chain_id,
        hadith_id=chain_id // 10,
        chain_number=1,
        origin="dataset",
        alignment_score=None,
        source_id="muslimscholars",
        source_key=str(chain_id),
        nodes=tuple(
            NodeRecord(chain_id * 100 + i, chain_id, i, narrator, None, term, status, None, "m", "k")
            for i, (narrator, status, term) in enumerate(nodes, start=1)
        ),
        checks=(),
    )


# Two students of 3 (the madar), who heard from 2, from 1; a third chain through 3 with an unresolved node.
CHAINS = [
    _chain(10, [(7, "confirmed", "حدثنا"), (3, "confirmed", "حدثنا"), (2, "confirmed", "عن"), (1, "confirmed", "عن")]),
    _chain(20, [(8, "confirmed", "حدثنا"), (3, "probable", "أخبرنا"), (2, "confirmed", "عن"), (1, "confirmed", "عن")]),
    _chain(30, [(None, "unresolved", "حدثنا"), (3, "confirmed", "عن"), (2, "confirmed", "عن"), (1, "confirmed", "عن")]),
]


def test_nodes_with_a_narrator_id_merge_and_unidentified_nodes_stay_apart() -> None:
    graph = merge(CHAINS)

    keys = {node.key: node for node in graph.nodes}
    assert sorted(keys) == ["narrator:1", "narrator:2", "narrator:3", "narrator:7", "narrator:8", "node:3001"]
    assert keys["narrator:3"].chain_ids == [10, 20, 30]
    assert keys["narrator:3"].statuses == ["confirmed", "probable"]
    assert keys["node:3001"].narrator_id is None


def test_edges_count_the_chains_that_carry_them_with_their_terms() -> None:
    edges = {(edge.upper, edge.lower): edge for edge in merge(CHAINS).edges}

    assert edges["narrator:2", "narrator:3"].chain_ids == [10, 20, 30]
    assert edges["narrator:2", "narrator:3"].terms == {"عن": 3}
    assert edges["narrator:3", "narrator:7"].terms == {"حدثنا": 1}
    assert edges["narrator:3", "node:3001"].terms == {"عن": 1}


def test_the_madar_is_the_common_narrator_nearest_the_compilers() -> None:
    graph = merge(CHAINS)

    assert graph.madar is not None
    assert graph.madar.key == "narrator:3"
    assert graph.paths[30] == ["node:3001", "narrator:3", "narrator:2", "narrator:1"]


def test_a_chain_with_a_node_kept_apart_may_pass_through_the_madar_and_one_fully_named_without_him_may_not() -> None:
    unnamed = _chain(40, [(None, "unresolved", "حدثنا"), (None, "ambiguous", "عن"), (1, "confirmed", "عن")])
    elsewhere = _chain(50, [(9, "confirmed", "حدثنا"), (2, "confirmed", "عن"), (1, "confirmed", "عن")])

    with_unnamed = merge([*CHAINS, unnamed]).madar
    with_elsewhere = merge([*CHAINS, elsewhere]).madar

    assert with_unnamed is not None and with_unnamed.key == "narrator:3"
    assert with_elsewhere is not None and with_elsewhere.key == "narrator:2"


def test_no_madar_without_two_chains_or_without_a_common_narrator() -> None:
    apart = [_chain(10, [(7, "confirmed", "عن"), (1, "confirmed", "عن")]), _chain(20, [(8, "confirmed", "عن")])]

    assert merge(CHAINS[:1]).madar is None
    assert merge(apart).madar is None


def test_nodes_that_name_one_id_without_the_evidence_for_it_are_not_merged_nor_the_madar() -> None:
    shared = [_chain(10, [(5, "ambiguous", "عن")]), _chain(20, [(5, "unresolved", "عن")])]
    graph = merge(shared)

    assert [node.key for node in graph.nodes] == ["node:1001", "node:2001"]
    assert graph.madar is None


def test_wording_differences_are_aligned_on_the_words() -> None:
    found = differences("انما الاعمال بالنيات وانما لكل امري ما نوي", "الاعمال بالنيه ولكل امري ما نوي")

    assert [(d.kind, d.words_hadith, d.words_other) for d in found] == [
        ("dropped", "انما", ""),
        ("changed", "بالنيات وانما لكل", "بالنيه ولكل"),
    ]
