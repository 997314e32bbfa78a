"""Hadith.parallels: the hadith whose matn is the same report, each an inference with the matns it compared."""

from app.data.records import MatnRecord, ParallelRecord, TakhrijRecord
from app.errors import NotFound
from app.limits import NAVIGATION
from resolvers.provenance import Sources, provenance
from schema.common import EvidenceStatus, ObjectType, Provenance
from schema.info import Info
from schema.takhrij import Parallel, ParallelList

METHOD = "matn_content_word_containment"  # ingest/parallels.py
NO_MATN = "This hadith has no matn split from its isnad in the sources read: its parallels are not computed."


def matn_provenance(sources: Sources, hadith_id: int, matn: MatnRecord | None) -> list[Provenance]:
    if matn is None:
        return []
    return [provenance(sources, hadith_id, ObjectType.hadith, matn.source_id, source_key=matn.source_key)]


def _parallel(found: TakhrijRecord, parallel: ParallelRecord, sources: Sources) -> Parallel:
    return Parallel(
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


async def parallels_of_hadith(info: Info, hadith_id: int, limit: int | None) -> ParallelList:
    found = await info.context.loaders.parallels_by_hadith_id.load((hadith_id, NAVIGATION.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    sources = await info.context.sources.load(info.context.db)
    return ParallelList(
        items=[_parallel(found, parallel, sources) for parallel in found.parallels.items],
        truncated=found.parallels.truncated,
        capability_note=NO_MATN if found.matn is None else None,
    )
