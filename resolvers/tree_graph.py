"""The chains of a hadith and of its parallels merged into one graph, and the madar where one exists.

Nodes are merged by narrator id only where the node's status gives one the evidence supports (`confirmed`,
`probable`); an `ambiguous` or `unresolved` node stays a node of its own, never merged by a guess. An edge
goes from a narrator to the one below him (his student, nearer the compiler) and counts the chains that carry
it, with the transmission terms they write. The madar (the common link) is the narrator nearest the compilers
(the least mean position over the chains that name him) through whom every chain may pass: at least two chains
name him, and every other chain holds a node kept apart, which may be him (a chain's silence at an unidentified
node is never read as a negation).
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.data.records import ChainRecord, NodeRecord

MERGED = frozenset({"confirmed", "probable"})
MIN_CHAINS = 2


@dataclass
class GraphNode:
    key: str
    narrator_id: int | None
    mention_ar: str | None
    statuses: list[str] = field(default_factory=list)
    chain_ids: list[int] = field(default_factory=list)


@dataclass
class GraphEdge:
    upper: str
    lower: str
    terms: Counter[str] = field(default_factory=Counter)
    chain_ids: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Graph:
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    paths: dict[int, list[str]]  # each chain's node keys, by position
    madar: GraphNode | None


def node_key(node: NodeRecord) -> str:
    if node.narrator_id is not None and node.resolution_status in MERGED:
        return f"narrator:{node.narrator_id}"
    return f"node:{node.node_id}"


def _add_node(nodes: dict[str, GraphNode], node: NodeRecord, chain_id: int) -> str:
    key = node_key(node)
    merged = nodes.setdefault(key, GraphNode(key, node.narrator_id if key.startswith("narrator") else None, None))
    merged.mention_ar = merged.mention_ar or node.mention_ar
    if node.resolution_status not in merged.statuses:
        merged.statuses.append(node.resolution_status)
    if chain_id not in merged.chain_ids:
        merged.chain_ids.append(chain_id)
    return key


def _add_edges(edges: dict[tuple[str, str], GraphEdge], chain: ChainRecord, path: list[str]) -> None:
    """Node p+1 taught node p; the term written before node p+1's mention is how p received from him."""
    for position in range(1, len(path)):
        upper, lower, node = path[position], path[position - 1], chain.nodes[position]
        edge = edges.setdefault((upper, lower), GraphEdge(upper, lower))
        if node.transmission_term_ar:
            edge.terms[node.transmission_term_ar] += 1
        if chain.chain_id not in edge.chain_ids:
            edge.chain_ids.append(chain.chain_id)


def _may_pass(nodes: dict[str, GraphNode], key: str, path: list[str]) -> bool:
    """The chain names him, or holds a node kept apart that may be him: its silence is never a negation."""
    return key in path or any(nodes[other].narrator_id is None for other in path)


def _madar(nodes: dict[str, GraphNode], paths: dict[int, list[str]]) -> GraphNode | None:
    routes = [path for path in paths.values() if path]
    named = {key for path in routes for key in path if nodes[key].narrator_id is not None}
    common = [
        key
        for key in named
        if sum(key in path for path in routes) >= MIN_CHAINS and all(_may_pass(nodes, key, path) for path in routes)
    ]
    if not common:
        return None

    def height(key: str) -> tuple[float, str]:
        places = [path.index(key) for path in routes if key in path]
        return sum(places) / len(places), key

    return nodes[min(common, key=height)]


def merge(chains: Sequence[ChainRecord]) -> Graph:
    nodes: dict[str, GraphNode] = {}
    edges: dict[tuple[str, str], GraphEdge] = {}
    paths: dict[int, list[str]] = {}
    for chain in chains:
        paths[chain.chain_id] = [_add_node(nodes, node, chain.chain_id) for node in chain.nodes]
        _add_edges(edges, chain, paths[chain.chain_id])
    return Graph(list(nodes.values()), list(edges.values()), paths, _madar(nodes, paths))
