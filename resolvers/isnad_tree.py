"""Hadith.isnad_tree: the chains of a hadith and of its first parallels merged into one graph
(resolvers/tree_graph.py), its madar, and each version's wording against the hadith's (resolvers/wording.py)."""

from app.data.records import ChainRecord, MatnRecord, TakhrijRecord
from app.errors import NotFound
from app.limits import NAVIGATION, WORDING_DIFFERENCES_MAX
from resolvers.get_hadith_chains import chain_evidence
from resolvers.parallels import matn_provenance
from resolvers.provenance import Sources, provenance
from resolvers.tree_graph import MIN_CHAINS, Graph, GraphEdge, GraphNode, merge
from resolvers.wording import differences
from schema.chain import ChainCheckCode, ResolutionStatus
from schema.common import EvidenceStatus, ObjectType
from schema.info import Info
from schema.takhrij import (
    DifferenceKind,
    IsnadTree,
    Madar,
    TreeChain,
    TreeEdge,
    TreeNode,
    TreeVersion,
    WordingDifference,
)

MADAR_METHOD = "narrator_id_in_every_chain_or_unidentified_node+nearest_to_compilers"
NO_CONVERGENCE = "Fewer than two chains: no convergence to read."
NO_COMMON = "No narrator identified by the evidence stands in two chains and may stand in every other."


def _node(node: GraphNode, madar: GraphNode | None) -> TreeNode:
    return TreeNode(
        key=node.key,
        narrator_id=node.narrator_id,
        mention_ar=node.mention_ar,
        resolution_statuses=[ResolutionStatus(status) for status in node.statuses],
        chain_count=len(node.chain_ids),
        is_madar=node is madar,
    )


def _edge(edge: GraphEdge) -> TreeEdge:
    return TreeEdge(
        upper_key=edge.upper,
        lower_key=edge.lower,
        transmission_terms=[term for term, _ in edge.terms.most_common()],
        chain_count=len(edge.chain_ids),
    )


def _chain(chain: ChainRecord, graph: Graph, references: dict[int, str]) -> TreeChain:
    return TreeChain(
        chain_id=chain.chain_id,
        hadith_id=chain.hadith_id,
        canonical_reference=references[chain.hadith_id],
        node_keys=graph.paths[chain.chain_id],
        evidence_status=chain_evidence(chain),
        failed_checks=[ChainCheckCode(check.code) for check in chain.checks],
    )


def _wording(base: MatnRecord | None, other: MatnRecord | None) -> tuple[list[WordingDifference] | None, bool]:
    if base is None or other is None:
        return None, False
    found = differences(base.text, other.text)
    listed = [
        WordingDifference(kind=DifferenceKind(d.kind), words_hadith=d.words_hadith, words_version=d.words_other)
        for d in found
    ]
    return listed[:WORDING_DIFFERENCES_MAX], len(listed) > WORDING_DIFFERENCES_MAX


def _versions(found: TakhrijRecord) -> list[TreeVersion]:
    members: list[tuple[int, str, float | None, MatnRecord | None]] = [
        (found.hadith_id, found.canonical_reference, None, found.matn)
    ]
    members += [(p.hadith_id, p.canonical_reference, p.similarity, p.matn) for p in found.parallels.items]
    versions = []
    for hadith_id, reference, similarity, matn in members:
        listed, truncated = _wording(found.matn, matn)
        chain_ids = [chain.chain_id for chain in found.chains if chain.hadith_id == hadith_id]
        versions.append(
            TreeVersion(
                hadith_id=hadith_id,
                canonical_reference=reference,
                similarity=similarity,
                chain_ids=chain_ids,
                differences=listed,
                differences_truncated=truncated,
            )
        )
    return versions


def _madar(graph: Graph, found: TakhrijRecord, sources: Sources) -> Madar | None:
    madar = graph.madar
    if madar is None or madar.narrator_id is None:
        return None
    chains = [
        provenance(sources, chain.chain_id, ObjectType.chain, chain.source_id, source_key=chain.source_key)
        for chain in found.chains
        if chain.chain_id in madar.chain_ids
    ]
    return Madar(
        key=madar.key,
        narrator_id=madar.narrator_id,
        method=MADAR_METHOD,
        chain_count=len(madar.chain_ids),
        unidentified_chain_ids=[chain for chain, path in graph.paths.items() if path and madar.key not in path],
        evidence_status=EvidenceStatus.inference,
        provenance=chains,
    )


def _tree(found: TakhrijRecord, sources: Sources) -> IsnadTree:
    graph = merge(found.chains)
    references = {found.hadith_id: found.canonical_reference}
    references |= {parallel.hadith_id: parallel.canonical_reference for parallel in found.parallels.items}
    enough = sum(1 for path in graph.paths.values() if path) >= MIN_CHAINS
    return IsnadTree(
        hadith_id=found.hadith_id,
        nodes=[_node(node, graph.madar) for node in graph.nodes],
        edges=[_edge(edge) for edge in graph.edges],
        chains=[_chain(chain, graph, references) for chain in found.chains],
        versions=_versions(found),
        madar=_madar(graph, found, sources),
        madar_note=None if graph.madar else (NO_COMMON if enough else NO_CONVERGENCE),
        truncated=found.parallels.truncated,
        evidence_status=EvidenceStatus.inference,
        provenance=matn_provenance(sources, found.hadith_id, found.matn),
    )


async def isnad_tree_of_hadith(info: Info, hadith_id: int, limit: int | None) -> IsnadTree:
    found = await info.context.loaders.isnad_tree_by_hadith_id.load((hadith_id, NAVIGATION.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    return _tree(found, await info.context.sources.load(info.context.db))
