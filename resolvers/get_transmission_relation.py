"""get_transmission_relation: recorded teacher/student relations, and chain observations reported apart.

A relation keeps the status its source gives: an observation never makes it attested, and nothing
here upgrades a status.
"""

from app.data.records import NodeRecord, ObservationRecord, RelationRecord
from app.errors import InvalidInput, NotFound
from app.limits import TRANSMISSION_RELATION
from resolvers.arguments import require_id
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources
from schema.info import Info
from schema.relation import ChainObservation, NormalizedStatus, Relation, RelationStatus, TransmissionRelation

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


def _relation(record: RelationRecord, sources: Sources) -> Relation:
    status = RelationStatus(record.status)
    return Relation(
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


def _node_provenance(node: NodeRecord, observation: ObservationRecord, sources: Sources) -> Provenance:
    return Provenance.of(
        sources,
        node.node_id,
        ObjectType.chain_node,
        observation.chain_source_id,
        source_key=node.source_key,
        locator=f"position {node.position}",
    )


def _observation(record: ObservationRecord, sources: Sources) -> ChainObservation:
    upper, lower = record.upper_node, record.lower_node
    confirmed = upper.resolution_status == lower.resolution_status == "confirmed" and record.chain_checks_passed
    return ChainObservation(
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


async def get_transmission_relation(
    info: Info, narrator_a_id: int, narrator_b_id: int, include_chain_observations: bool | None, limit: int | None
) -> TransmissionRelation:
    bound = TRANSMISSION_RELATION.resolve(limit)
    a, b = require_id(narrator_a_id, "narrator_a_id"), require_id(narrator_b_id, "narrator_b_id")
    if a == b:
        raise InvalidInput("narrator_a_id and narrator_b_id must name two different narrators.", alias="same_narrator")
    observe = include_chain_observations is not False
    pair = await info.context.loaders.pair_by_narrator_ids.load((a, b, bound, observe))
    if pair is None:
        raise NotFound("No narrator has this id.")
    relations, observations = pair.relations, pair.observations
    sources = await info.context.sources.load(info.context.db)
    attested = any(RelationStatus(r.status) is RelationStatus.attested for r in relations.items)
    return TransmissionRelation(
        narrator_a_id=a,
        narrator_b_id=b,
        relations=[_relation(record, sources) for record in relations.items],
        chain_observations=[_observation(o, sources) for o in observations.items] if observations else [],
        evidence_status=EvidenceStatus.fact if attested else EvidenceStatus.insufficient_evidence,
        truncated=relations.truncated or bool(observations and observations.truncated),
        capability_note=None if attested else (NOT_ATTESTED if relations.items else NOT_RECORDED),
    )
