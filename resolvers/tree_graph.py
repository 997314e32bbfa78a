"""The chains of a hadith and of its parallels merged into one graph, and the madar where one exists.

Nodes are merged by narrator id only where the node's status gives one the evidence supports (`confirmed`,
`probable`); an `ambiguous` or `unresolved` node stays a node of its own, never merged by a guess. An edge
goes from a narrator to the one below him (his student, nearer the compiler) and counts the chains that carry
it, with the transmission terms they write. The madar (the common link) is the narrator through whom every
chain passes that is nearest the compilers (the least sum of positions over the chains); with fewer than two
chains there is no convergence to read.
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


def _madar(nodes: dict[str, GraphNode], paths: dict[int, list[str]]) -> GraphNode | None:
    routes = [path for path in paths.values() if path]
    if len(routes) < MIN_CHAINS:
        return None
    common = set.intersection(*(set(path) for path in routes))
    named = [key for key in common if nodes[key].narrator_id is not None]
    if not named:
        return None
    return nodes[min(named, key=lambda key: (sum(path.index(key) for path in routes), key))]


def merge(chains: Sequence[ChainRecord]) -> Graph:
    nodes: dict[str, GraphNode] = {}
    edges: dict[tuple[str, str], GraphEdge] = {}
    paths: dict[int, list[str]] = {}
    for chain in chains:
        paths[chain.chain_id] = [_add_node(nodes, node, chain.chain_id) for node in chain.nodes]
        _add_edges(edges, chain, paths[chain.chain_id])
    return Graph(list(nodes.values()), list(edges.values()), paths, _madar(nodes, paths))
