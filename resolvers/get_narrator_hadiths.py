"""get_narrator_hadiths: a page of a narrator's confirmed occurrences in chains, with the full counts."""

from app.data.records import OccurrenceRecord
from app.errors import NotFound
from app.limits import NARRATOR_HADITHS
from resolvers.arguments import require_id, require_page
from resolvers.provenance import Sources, provenance
from schema.common import EvidenceStatus, ObjectType
from schema.info import Info
from schema.narrator import NarratorHadithItem, NarratorHadiths, OccurrenceType


def _item(record: OccurrenceRecord, sources: Sources) -> NarratorHadithItem:
    return NarratorHadithItem(
        hadith_id=record.hadith_id,
        canonical_reference=record.canonical_reference,
        chain_id=record.chain_id,
        node_id=record.node_id,
        position=record.position,
        relation_type=OccurrenceType.chain_occurrence,
        evidence_status=EvidenceStatus.fact,
        provenance=[
            provenance(
                sources,
                record.node_id,
                ObjectType.chain_node,
                record.chain_source_id,
                source_key=record.node_source_key,
                locator=record.canonical_reference,
            ),
            provenance(
                sources, record.chain_id, ObjectType.chain, record.chain_source_id, source_key=record.chain_source_key
            ),
        ],
    )


async def get_narrator_hadiths(info: Info, narrator_id: int, page: int | None, limit: int | None) -> NarratorHadiths:
    bound = NARRATOR_HADITHS.resolve(limit)
    number = require_page(page)
    narrator_id = require_id(narrator_id, "narrator_id")
    found = await info.context.loaders.occurrence_page_by_narrator_id.load((narrator_id, number, bound))
    if found is None:
        raise NotFound("No narrator has this id.")
    sources = await info.context.sources.load(info.context.db)
    return NarratorHadiths(
        narrator_id=narrator_id,
        occurrence_count=found.occurrence_count,
        distinct_hadith_count=found.distinct_hadith_count,
        page=number,
        items=[_item(record, sources) for record in found.occurrences.items],
        truncated=found.occurrences.truncated,
    )
