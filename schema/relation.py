"""Teacher/student relations between two narrators, and their chain observations, kept apart."""

from enum import Enum

import strawberry

from resolvers.get_hadith import load_hadith
from schema.common import EvidenceStatus, Provenance
from schema.hadith import Hadith, NarratorSummary
from schema.info import Info, sources


@strawberry.enum(description="The status a source gives a relation (contract section E).")
class RelationStatus(Enum):
    attested = strawberry.enum_value("attested", description="Recorded by a source, with provenance.")
    probable = strawberry.enum_value("probable", description="Likely, from indirect evidence; never attested.")
    ambiguous = strawberry.enum_value("ambiguous", description="The evidence points several ways.")
    unresolved = strawberry.enum_value("unresolved", description="The evidence does not settle it.")


@strawberry.enum(description="The gateway's normalization of relation_status.")
class NormalizedStatus(Enum):
    attested = strawberry.enum_value("attested", description="relation_status attested.")
    possible = strawberry.enum_value("possible", description="relation_status probable or ambiguous.")
    not_established = strawberry.enum_value("not_established", description="relation_status unresolved.")


@strawberry.type(description="A teacher -> student relation that a source records.")
class Relation:
    teacher_id: int = strawberry.field(description="The teacher.")
    student_id: int = strawberry.field(description="The student.")
    relation_status: RelationStatus = strawberry.field(description="The status the source gives; never upgraded.")
    normalized_status: NormalizedStatus = strawberry.field(
        description="attested -> attested; probable, ambiguous -> possible; unresolved -> not_established."
    )
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact for attested; inference for probable; insufficient_evidence otherwise."
    )
    provenance: list[Provenance] = strawberry.field(description="The record that states the relation.")

    @strawberry.field(description="The teacher (navigation).")
    async def teacher(self, info: Info) -> NarratorSummary | None:
        return await NarratorSummary.load(info, self.teacher_id)

    @strawberry.field(description="The student (navigation).")
    async def student(self, info: Info) -> NarratorSummary | None:
        return await NarratorSummary.load(info, self.student_id)


@strawberry.type(description="Two narrators adjacent in an observed chain: not a relation, and never makes one.")
class ChainObservation:
    hadith_id: int = strawberry.field(description="The hadith of the chain.")
    canonical_reference: str = strawberry.field(description="Its canonical reference.")
    chain_id: int = strawberry.field(description="The chain.")
    upper_narrator_id: int = strawberry.field(description="The narrator nearer the Prophet (the one narrated from).")
    lower_narrator_id: int = strawberry.field(description="The narrator nearer the compiler (the one who narrates).")
    upper_node_id: int = strawberry.field(description="The upper narrator's node.")
    lower_node_id: int = strawberry.field(description="The lower narrator's node.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact when both nodes are confirmed and the chain passes its integrity checks; inference when "
        "one node is only probable or the chain fails a check."
    )
    provenance: list[Provenance] = strawberry.field(description="The hadith, chain and both nodes.")

    @strawberry.field(description="The hadith (navigation).")
    async def hadith(self, info: Info) -> Hadith:
        return Hadith.from_record(await load_hadith(info.context, self.hadith_id), await sources(info))


@strawberry.type(description="What the sources record of transmission between two narrators.")
class TransmissionRelation:
    narrator_a_id: int = strawberry.field(description="The first narrator asked about.")
    narrator_b_id: int = strawberry.field(description="The second narrator asked about.")
    relations: list[Relation] = strawberry.field(description="Recorded relations, either direction, at most `limit`.")
    chain_observations: list[ChainObservation] = strawberry.field(
        description="Chains where the two stand adjacent, at most `limit`; empty unless asked for."
    )
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact when an attested relation exists; else insufficient_evidence (never a negation)."
    )
    truncated: bool = strawberry.field(description="True when more relations or observations exist than returned.")
    capability_note: str | None = strawberry.field(description="What the sources cannot tell about this pair.")
