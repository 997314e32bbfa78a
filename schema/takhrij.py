"""Takhrij: a hadith's parallels (its versions across the collections) and their chains drawn as one isnad tree."""

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import strawberry

from schema.chain import ChainCheckCode, ResolutionStatus
from schema.common import EvidenceStatus, Provenance
from schema.info import Info

if TYPE_CHECKING:
    from schema.narrator import NarratorSummary


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


@strawberry.type(description="A bounded list of a hadith's parallels.")
class ParallelList:
    items: list[Parallel] = strawberry.field(
        description="The parallels, by similarity (highest first), at most `limit`."
    )
    truncated: bool = strawberry.field(description="True when more exist than returned.")
    capability_note: str | None = strawberry.field(
        description="Why no parallel can be listed, where the hadith has no matn to compare; null otherwise."
    )


@strawberry.type(description="A narrator, or an unidentified node kept apart, in a merged isnad tree.")
class TreeNode:
    key: str = strawberry.field(
        description="'narrator:<id>' for a narrator merged across chains; 'node:<node_id>' for a node whose narrator "
        "the evidence does not identify (ambiguous, unresolved), never merged."
    )
    narrator_id: int | None = strawberry.field(description="The narrator; null for a node kept apart.")
    mention_ar: str | None = strawberry.field(description="The first mention of him in the chains' texts.")
    resolution_statuses: list[ResolutionStatus] = strawberry.field(
        description="The statuses of his nodes in the chains, each once."
    )
    chain_count: int = strawberry.field(description="How many chains he stands in: those whose node_keys hold his key.")
    is_madar: bool = strawberry.field(description="True for the madar (the common link) of the tree.")

    @strawberry.field(description="The narrator, where one is named (navigation).")
    async def narrator(self, info: Info) -> Annotated["NarratorSummary", strawberry.lazy("schema.narrator")] | None:
        from resolvers.narrator_summary import load_narrator_summary

        return None if self.narrator_id is None else await load_narrator_summary(info, self.narrator_id)


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


@strawberry.type(description="The chains of a hadith and of its parallels merged by narrator into one graph.")
class IsnadTree:
    hadith_id: int = strawberry.field(description="The hadith.")
    nodes: list[TreeNode] = strawberry.field(description="The narrators and the nodes kept apart.")
    edges: list[TreeEdge] = strawberry.field(description="The links between them.")
    chains: list[TreeChain] = strawberry.field(description="The chains merged, by hadith then chain number.")
    versions: list[TreeVersion] = strawberry.field(description="The hadith, then each parallel merged, by similarity.")
    madar: Madar | None = strawberry.field(description="The madar, where one exists; null otherwise (see madar_note).")
    madar_note: str | None = strawberry.field(
        description="Why no madar is given (no narrator named by two chains and possible in every other); never a "
        "negation."
    )
    truncated: bool = strawberry.field(description="True when the hadith has more parallels than `limit` merged.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="inference: the merge reads parallels (an inference) and the chains' narrator ids together."
    )
    provenance: list[Provenance] = strawberry.field(description="The hadith's matn record, where it has one.")
