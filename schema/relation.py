"""Teacher/student relations between two narrators, and their chain observations, kept apart."""

from enum import Enum
from typing import Self

import strawberry

from app.data.records import NodeRecord, ObservationRecord, RelationRecord, TeachingRecord
from resolvers.get_hadith import load_hadith
from resolvers.get_transmission_relation import Pair
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources
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


NORMALIZED = {
    RelationStatus.attested: NormalizedStatus.attested,
    RelationStatus.probable: NormalizedStatus.possible,
    RelationStatus.ambiguous: NormalizedStatus.possible,
    RelationStatus.unresolved: NormalizedStatus.not_established,
}
EVIDENCE = {
    RelationStatus.attested: EvidenceStatus.fact,
    RelationStatus.probable: EvidenceStatus.inference,
    RelationStatus.ambiguous: EvidenceStatus.insufficient_evidence,
    RelationStatus.unresolved: EvidenceStatus.insufficient_evidence,
}
NOT_RECORDED = (
    "No source in this database records a teacher/student relation between these narrators. "
    "Absence of a record is not evidence that they did not transmit from one another."
)
NOT_ATTESTED = (
    "The sources record this relation only as probable, ambiguous or unresolved; none attests it. "
    "That is not evidence that they did not transmit from one another."
)


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

    @classmethod
    def from_record(cls, record: RelationRecord, sources: Sources) -> Self:
        status = RelationStatus(record.status)
        return cls(
            teacher_id=record.teacher_id,
            student_id=record.student_id,
            relation_status=status,
            normalized_status=NORMALIZED[status],
            evidence_status=EVIDENCE[status],
            provenance=[
                Provenance.of(
                    sources, record.relation_id, ObjectType.relation, record.source_id, source_key=record.source_key
                )
            ],
        )


@strawberry.type(
    description="A narrator's teachers, or his students: the relations that sources record with him on that side, "
    "each with the status its source gives (a probable one stays possible, never attested)."
)
class NarratorRelations:
    count: int = strawberry.field(
        description="How many relations the sources record on this side, all of them, not only those listed."
    )
    items: list[Relation] = strawberry.field(
        description="At most `limit`: attested first, then probable, ambiguous, unresolved; then by the other "
        "narrator's id and the source."
    )
    truncated: bool = strawberry.field(description="True when more relations exist than returned.")

    @classmethod
    def from_record(cls, record: TeachingRecord, sources: Sources) -> Self:
        relations = record.relations
        return cls(
            count=record.count,
            items=[Relation.from_record(relation, sources) for relation in relations.items],
            truncated=relations.truncated,
        )


def _node_provenance(node: NodeRecord, observation: ObservationRecord, sources: Sources) -> Provenance:
    return Provenance.of(
        sources,
        node.node_id,
        ObjectType.chain_node,
        observation.chain_source_id,
        source_key=node.source_key,
        locator=f"position {node.position}",
    )


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

    @classmethod
    def from_record(cls, record: ObservationRecord, sources: Sources) -> Self:
        upper, lower = record.upper_node, record.lower_node
        confirmed = upper.resolution_status == lower.resolution_status == "confirmed" and record.chain_checks_passed
        return cls(
            hadith_id=record.hadith_id,
            canonical_reference=record.canonical_reference,
            chain_id=record.chain_id,
            upper_narrator_id=upper.narrator_id or 0,
            lower_narrator_id=lower.narrator_id or 0,
            upper_node_id=upper.node_id,
            lower_node_id=lower.node_id,
            evidence_status=EvidenceStatus.fact if confirmed else EvidenceStatus.inference,
            provenance=[
                Provenance.of(
                    sources,
                    record.chain_id,
                    ObjectType.chain,
                    record.chain_source_id,
                    source_key=record.chain_source_key,
                    locator=record.canonical_reference,
                ),
                _node_provenance(upper, record, sources),
                _node_provenance(lower, record, sources),
            ],
        )


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

    @classmethod
    def from_record(cls, pair: Pair, sources: Sources) -> Self:
        relations, observations = pair.found.relations, pair.found.observations
        attested = any(RelationStatus(r.status) is RelationStatus.attested for r in relations.items)
        return cls(
            narrator_a_id=pair.narrator_a_id,
            narrator_b_id=pair.narrator_b_id,
            relations=[Relation.from_record(record, sources) for record in relations.items],
            chain_observations=[ChainObservation.from_record(o, sources) for o in observations.items]
            if observations
            else [],
            evidence_status=EvidenceStatus.fact if attested else EvidenceStatus.insufficient_evidence,
            truncated=relations.truncated or bool(observations and observations.truncated),
            capability_note=None if attested else (NOT_ATTESTED if relations.items else NOT_RECORDED),
        )
