"""Takhrij: a hadith's parallels, and the parts of its isnad tree that point at no other type (the tree and its
nodes, which navigate to narrators, live with the hadith in schema/hadith.py)."""

from enum import Enum
from typing import Self

import strawberry

from app.data.records import ChainRecord, MatnRecord, ParallelRecord, TakhrijRecord
from app.limits import WORDING_DIFFERENCES_MAX
from resolvers.tree_graph import MIN_CHAINS, Graph, GraphEdge
from resolvers.wording import differences
from schema.chain_status import ChainCheckCode, chain_evidence
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources

METHOD = "matn_content_word_containment"  # ingest/parallels.py
NO_MATN = "This hadith has no matn split from its isnad in the sources read: its parallels are not computed."
MADAR_METHOD = "narrator_id_in_every_chain_or_unidentified_node+nearest_to_compilers"
NO_CONVERGENCE = "Fewer than two chains: no convergence to read."
NO_COMMON = "No narrator identified by the evidence stands in two chains and may stand in every other."


def matn_provenance(sources: Sources, hadith_id: int, matn: MatnRecord | None) -> list[Provenance]:
    if matn is None:
        return []
    return [Provenance.of(sources, hadith_id, ObjectType.hadith, matn.source_id, source_key=matn.source_key)]


@strawberry.type(description="A hadith whose matn is the same report as the hadith's, by matn similarity.")
class Parallel:
    hadith_id: int = strawberry.field(description="The parallel hadith.")
    canonical_reference: str = strawberry.field(description="Its reference ('muslim:1907a').")
    similarity: float = strawberry.field(
        description="The content words the two matns share, over the shorter one's count (0-1)."
    )
    method: str = strawberry.field(description="How the similarity was measured (docs/data-quality.md, Parallels).")
    evidence_status: EvidenceStatus = strawberry.field(
        description="Always inference: a measure of likeness between two texts, never a statement of a source."
    )
    provenance: list[Provenance] = strawberry.field(
        description="The matn records compared: the hadith's, then the parallel's (the LK corpus's isnad/matn split)."
    )

    @classmethod
    def from_record(cls, found: TakhrijRecord, parallel: ParallelRecord, sources: Sources) -> Self:
        return cls(
            hadith_id=parallel.hadith_id,
            canonical_reference=parallel.canonical_reference,
            similarity=parallel.similarity,
            method=METHOD,
            evidence_status=EvidenceStatus.inference,
            provenance=[
                *matn_provenance(sources, found.hadith_id, found.matn),
                *matn_provenance(sources, parallel.hadith_id, parallel.matn),
            ],
        )


@strawberry.type(description="A bounded list of a hadith's parallels.")
class ParallelList:
    items: list[Parallel] = strawberry.field(
        description="The parallels, by similarity (highest first), at most `limit`."
    )
    truncated: bool = strawberry.field(description="True when more exist than returned.")
    capability_note: str | None = strawberry.field(
        description="Why no parallel can be listed, where the hadith has no matn to compare; null otherwise."
    )

    @classmethod
    def from_record(cls, found: TakhrijRecord, sources: Sources) -> Self:
        return cls(
            items=[Parallel.from_record(found, parallel, sources) for parallel in found.parallels.items],
            truncated=found.parallels.truncated,
            capability_note=NO_MATN if found.matn is None else None,
        )


@strawberry.type(description="A link of transmission in the tree: a narrator and the one who received from him.")
class TreeEdge:
    upper_key: str = strawberry.field(description="The narrator nearer the Prophet (the teacher).")
    lower_key: str = strawberry.field(description="The narrator nearer the compiler (the student).")
    transmission_terms: list[str] = strawberry.field(
        description="The terms the chains write for this link (حدثنا, عن ...), the most frequent first."
    )
    chain_count: int = strawberry.field(
        description="How many chains carry this link: those whose node_keys hold the two keys side by side."
    )


@strawberry.type(description="A chain drawn in the tree.")
class TreeChain:
    chain_id: int = strawberry.field(description="The chain.")
    hadith_id: int = strawberry.field(description="The hadith (version) it carries.")
    canonical_reference: str = strawberry.field(description="That hadith's reference.")
    node_keys: list[str] = strawberry.field(description="Its nodes' keys, by position (the compiler's end first).")
    evidence_status: EvidenceStatus = strawberry.field(
        description="As get_hadith_chains: fact for a dataset chain that passes every integrity check, else "
        "insufficient_evidence."
    )
    failed_checks: list[ChainCheckCode] = strawberry.field(
        description="The integrity checks it fails: the chain is marked, not dropped."
    )


@strawberry.enum(description="How a version's wording differs from the hadith's at one place.")
class DifferenceKind(Enum):
    added = strawberry.enum_value("added", description="The version has words the hadith lacks.")
    dropped = strawberry.enum_value("dropped", description="The version lacks words the hadith has.")
    changed = strawberry.enum_value("changed", description="The version has other words in their place.")


@strawberry.type(description="One place where a version's wording differs from the hadith's (normalized Arabic).")
class WordingDifference:
    kind: DifferenceKind = strawberry.field(description="Added, dropped or changed.")
    words_hadith: str = strawberry.field(description="The hadith's words there (empty where it has none).")
    words_version: str = strawberry.field(description="The version's words there (empty where it has none).")


@strawberry.type(description="A version of the report (the hadith or a parallel) and the branch that carries it.")
class TreeVersion:
    hadith_id: int = strawberry.field(description="The hadith of this version.")
    canonical_reference: str = strawberry.field(description="Its reference.")
    similarity: float | None = strawberry.field(description="Its similarity to the hadith; null for the hadith.")
    chain_ids: list[int] = strawberry.field(description="The chains that carry it: its branch of the tree.")
    differences: list[WordingDifference] | None = strawberry.field(
        description="Its wording against the hadith's matn, in text order (empty for the hadith itself); null where "
        "either matn is unknown."
    )
    differences_truncated: bool = strawberry.field(description="True when more differences exist than listed.")


@strawberry.type(
    description="The madar (common link): the narrator nearest the compilers through whom every chain passes."
)
class Madar:
    key: str = strawberry.field(description="His node's key in the tree.")
    narrator_id: int = strawberry.field(description="The narrator.")
    method: str = strawberry.field(description="How he was found.")
    chain_count: int = strawberry.field(description="How many chains name him.")
    unidentified_chain_ids: list[int] = strawberry.field(
        description="The chains that do not name him but hold a node kept apart, which may be him."
    )
    evidence_status: EvidenceStatus = strawberry.field(
        description="Always inference: read from the chains' narrator ids as the dataset gives them."
    )
    provenance: list[Provenance] = strawberry.field(description="The chains that name him.")


def tree_edge(edge: GraphEdge) -> TreeEdge:
    return TreeEdge(
        upper_key=edge.upper,
        lower_key=edge.lower,
        transmission_terms=[term for term, _ in edge.terms.most_common()],
        chain_count=len(edge.chain_ids),
    )


def tree_chain(chain: ChainRecord, graph: Graph, references: dict[int, str]) -> TreeChain:
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


def tree_versions(found: TakhrijRecord) -> list[TreeVersion]:
    members: list[tuple[int, str, float | None, MatnRecord | None]] = [
        (found.hadith_id, found.canonical_reference, None, found.matn)
    ]
    members += [(p.hadith_id, p.canonical_reference, p.similarity, p.matn) for p in found.parallels.items]
    versions = []
    for hadith_id, reference, similarity, matn in members:
        listed, truncated = _wording(found.matn, matn)
        versions.append(
            TreeVersion(
                hadith_id=hadith_id,
                canonical_reference=reference,
                similarity=similarity,
                chain_ids=[chain.chain_id for chain in found.chains if chain.hadith_id == hadith_id],
                differences=listed,
                differences_truncated=truncated,
            )
        )
    return versions


def tree_madar(graph: Graph, found: TakhrijRecord, sources: Sources) -> Madar | None:
    madar = graph.madar
    if madar is None or madar.narrator_id is None:
        return None
    chains = [
        Provenance.of(sources, chain.chain_id, ObjectType.chain, chain.source_id, source_key=chain.source_key)
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


def madar_note(graph: Graph) -> str | None:
    """Why the tree gives no madar; None where it gives one."""
    if graph.madar is not None:
        return None
    enough = sum(1 for path in graph.paths.values() if path) >= MIN_CHAINS
    return NO_COMMON if enough else NO_CONVERGENCE
