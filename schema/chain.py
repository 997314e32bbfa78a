"""The observed chains of a hadith and their nodes, as `get_hadith_chains` returns them."""

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import strawberry

from schema.common import EvidenceStatus, Provenance
from schema.info import Info

if TYPE_CHECKING:
    from schema.narrator import NarratorSummary


@strawberry.enum(description="What the evidence says of a chain node's narrator.")
class ResolutionStatus(Enum):
    confirmed = strawberry.enum_value(
        "confirmed", description="The dataset's narrator id and the mention located in the text agree."
    )
    probable = strawberry.enum_value("probable", description="One candidate, from weaker evidence.")
    ambiguous = strawberry.enum_value("ambiguous", description="Several candidates; no narrator id is given.")
    unresolved = strawberry.enum_value("unresolved", description="No candidate; no narrator id is given.")


@strawberry.type(description="One narrator's place in a chain.")
class ChainNode:
    position: int = strawberry.field(description="1 = the compiler's end of the chain.")
    narrator_id: int | None = strawberry.field(description="The narrator, where the evidence names one; else null.")
    mention_ar: str | None = strawberry.field(description="The narrator as the Arabic text mentions him or her.")
    transmission_term_ar: str | None = strawberry.field(description="The transmission term before the mention.")
    resolution_status: ResolutionStatus = strawberry.field(description="How far the evidence identifies the narrator.")
    confidence: float | None = strawberry.field(description="The measured confidence of that status, where known.")
    node_id: int = strawberry.field(description="The node's stable id (beyond the contract).")

    @strawberry.field(description="The narrator of this node, where one is named (navigation).")
    async def narrator(self, info: Info) -> Annotated["NarratorSummary", strawberry.lazy("schema.narrator")] | None:
        from resolvers.narrator_summary import load_narrator_summary

        return None if self.narrator_id is None else await load_narrator_summary(info, self.narrator_id)


@strawberry.type(description="A chain of transmission observed for a hadith.")
class Chain:
    chain_id: int = strawberry.field(description="The chain's stable id.")
    chain_number: int = strawberry.field(description="Its number among the hadith's chains, from 1.")
    nodes: list[ChainNode] = strawberry.field(description="Its nodes, by position.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact for a chain the cited dataset lists; insufficient_evidence for one read from the text."
    )
    provenance: list[Provenance] = strawberry.field(description="The chain's record and the hadith's reference.")


@strawberry.type(description="The observed chains of a hadith.")
class HadithChains:
    hadith_id: int = strawberry.field(description="The hadith.")
    chains: list[Chain] = strawberry.field(description="Its chains, by chain_number, at most `limit`.")
    truncated: bool = strawberry.field(description="True when the hadith has more chains than returned.")
