"""get_hadith: one canonical hadith with its collection, book, chapter, texts and provenance."""

from app.data.records import HadithRecord
from app.errors import NotFound
from resolvers.arguments import require_id
from resolvers.provenance import Sources, provenance
from resolvers.reading_common import book_of, chapter_of, collection_of
from schema.common import EvidenceStatus, ObjectType
from schema.hadith import Hadith
from schema.info import Info


def hadith_from_record(record: HadithRecord, sources: Sources) -> Hadith:
    book, chapter = record.book, record.chapter
    return Hadith(
        hadith_id=record.hadith_id,
        canonical_reference=record.canonical_reference,
        collection=collection_of(record.collection),
        book=None if book is None else book_of(book),
        chapter=None if chapter is None else chapter_of(chapter),
        text_ar=record.text_ar,
        text_fr=record.text_fr,
        evidence_status=EvidenceStatus.fact,
        provenance=[
            provenance(
                sources,
                record.hadith_id,
                ObjectType.hadith,
                key.source_id,
                source_key=key.source_key,
                edition_id=key.edition_id,
                locator=record.in_book_reference if key.role == "text_ar" else None,
            )
            for key in record.sources
        ],
    )


async def load_hadith(info: Info, hadith_id: int) -> Hadith:
    record = await info.context.loaders.hadith_by_id.load(hadith_id)
    if record is None:
        raise NotFound("No hadith has this id.")
    return hadith_from_record(record, await info.context.sources.load(info.context.db))


async def get_hadith(info: Info, hadith_id: int) -> Hadith:
    return await load_hadith(info, require_id(hadith_id, "hadith_id"))
