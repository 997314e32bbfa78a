"""What the evidence says of a chain and of its nodes: the statuses and integrity checks that the chains of a
hadith and its isnad tree share, and where a chain comes from."""

from enum import Enum

import strawberry

from app.data.records import ChainRecord, HadithChainsRecord
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources

DATASET = "dataset"  # the origin of a chain the cited dataset lists (the importer reads the others from the text)


@strawberry.enum(description="What the evidence says of a chain node's narrator.")
class ResolutionStatus(Enum):
    confirmed = strawberry.enum_value(
        "confirmed",
        description="The text's own mention at this place names the narrator (one of his name forms) and no "
        "homonym, or homonyms too and the teacher/student lists single him out by his neighbours in the chain.",
    )
    probable = strawberry.enum_value(
        "probable",
        description="One candidate, from weaker evidence (a relational mention such as «أبيه», an id whose "
        "mention in the text is not his name, or a name his homonyms bear too with nothing to single him out).",
    )
    ambiguous = strawberry.enum_value(
        "ambiguous",
        description="Several candidates (a homonym's name, the lists pointing at homonyms, not at the "
        "dataset's narrator); no narrator id is given.",
    )
    unresolved = strawberry.enum_value("unresolved", description="No candidate; no narrator id is given.")


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
    homonym_contradicted = strawberry.enum_value(
        "homonym_contradicted",
        description="A node's mention names homonyms too, and the teacher/student lists point at them, not at the "
        "dataset's narrator.",
    )


@strawberry.type(description="An integrity check a chain fails.")
class ChainCheck:
    code: ChainCheckCode = strawberry.field(description="The check.")
    reason: str = strawberry.field(description="What failed it, in a short sentence (positions, names, years).")


def chain_evidence(chain: ChainRecord) -> EvidenceStatus:
    """As get_hadith_chains: a dataset chain that passes every integrity check is a fact, any other chain not."""
    is_fact = chain.origin == DATASET and not chain.checks
    return EvidenceStatus.fact if is_fact else EvidenceStatus.insufficient_evidence


def chain_provenance(sources: Sources, chain: ChainRecord, hadith: HadithChainsRecord) -> list[Provenance]:
    """The chain's record, then the hadith's text that it is read against."""
    text = hadith.text
    return [
        Provenance.of(sources, chain.chain_id, ObjectType.chain, chain.source_id, source_key=chain.source_key),
        Provenance.of(
            sources,
            hadith.hadith_id,
            ObjectType.hadith,
            text.source_id,
            source_key=text.source_key,
            edition_id=text.edition_id,
            locator=hadith.canonical_reference,
        ),
    ]
