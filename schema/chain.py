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
        "confirmed", description="The text's own mention at this place names the narrator (one of his name forms)."
    )
    probable = strawberry.enum_value(
        "probable",
        description="One candidate, from weaker evidence (a relational mention such as «أبيه», or an id "
        "whose mention in the text is not his name).",
    )
    ambiguous = strawberry.enum_value("ambiguous", description="Several candidates; no narrator id is given.")
    unresolved = strawberry.enum_value("unresolved", description="No candidate; no narrator id is given.")


@strawberry.type(description="One narrator's place in a chain.")
class ChainNode:
    position: int = strawberry.field(description="1 = the compiler's end of the chain.")
    narrator_id: int | None = strawberry.field(description="The narrator, where the evidence names one; else null.")
    mention_ar: str | None = strawberry.field(
        description="The narrator as the Arabic text mentions him or her: the text's own span, null where no link of "
        "the text stands for this node."
    )
    transmission_term_ar: str | None = strawberry.field(description="The transmission term before the mention.")
    resolution_status: ResolutionStatus = strawberry.field(description="How far the evidence identifies the narrator.")
    confidence: float | None = strawberry.field(description="The measured confidence of that status, where known.")
    node_id: int = strawberry.field(description="The node's stable id (beyond the contract).")
    method: str = strawberry.field(
        description="How the status was reached, e.g. dataset_id+text_names_narrator, dataset_id+relational_mention, "
        "dataset_id_not_in_text (beyond the contract; docs/data-quality.md lists them)."
    )

    @strawberry.field(description="The narrator of this node, where one is named (navigation).")
    async def narrator(self, info: Info) -> Annotated["NarratorSummary", strawberry.lazy("schema.narrator")] | None:
        from resolvers.narrator_summary import load_narrator_summary

        return None if self.narrator_id is None else await load_narrator_summary(info, self.narrator_id)


@strawberry.enum(description="An integrity check of a dataset chain read against its written isnad.")
class ChainCheckCode(Enum):
    repeated_narrator = strawberry.enum_value("repeated_narrator", description="One narrator at two positions.")
    order_against_text = strawberry.enum_value(
        "order_against_text", description="The text names a node's narrator only out of the chain's order."
    )
    narrator_missing = strawberry.enum_value(
        "narrator_missing", description="Between two nodes the text names a narrator the chain leaves out."
    )
    tahwil_flattened = strawberry.enum_value(
        "tahwil_flattened", description="Two consecutive nodes stand either side of a change of chain («ح»)."
    )
    co_narrators_flattened = strawberry.enum_value(
        "co_narrators_flattened", description="Two consecutive nodes are co-narrators under one term in the text."
    )
    no_companion_at_top = strawberry.enum_value(
        "no_companion_at_top", description="The chain stops below the Companions for a report of the Prophet."
    )
    impossible_meeting = strawberry.enum_value(
        "impossible_meeting", description="By the dataset's years, a teacher and his student could not have met."
    )


@strawberry.type(description="An integrity check a chain fails.")
class ChainCheck:
    code: ChainCheckCode = strawberry.field(description="The check.")
    reason: str = strawberry.field(description="What failed it, in a short sentence (positions, names, years).")


@strawberry.type(description="A chain of transmission observed for a hadith.")
class Chain:
    chain_id: int = strawberry.field(description="The chain's stable id.")
    chain_number: int = strawberry.field(description="Its number among the hadith's chains, from 1.")
    nodes: list[ChainNode] = strawberry.field(description="Its nodes, by position.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact for a chain the cited dataset lists and that passes every integrity check against the "
        "written isnad; insufficient_evidence for one that fails a check, and for one read from the text."
    )
    failed_checks: list[ChainCheck] = strawberry.field(
        description="The integrity checks the chain fails against its written isnad; empty when it passes them all "
        "(beyond the contract)."
    )
    provenance: list[Provenance] = strawberry.field(description="The chain's record and the hadith's reference.")


@strawberry.type(description="The observed chains of a hadith.")
class HadithChains:
    hadith_id: int = strawberry.field(description="The hadith.")
    chains: list[Chain] = strawberry.field(description="Its chains, by chain_number, at most `limit`.")
    truncated: bool = strawberry.field(description="True when the hadith has more chains than returned.")
