"""get_hadith: one canonical hadith with its collection, book, chapter, texts and provenance."""

from app.data.records import HadithRecord
from app.errors import NotFound
from resolvers.arguments import require_id
from resolvers.provenance import Sources, provenance
from schema.common import EvidenceStatus, ObjectType
from schema.hadith import Book, Chapter, Collection, Hadith
from schema.info import Info


def hadith_from_record(record: HadithRecord, sources: Sources) -> Hadith:
    book, chapter, collection = record.book, record.chapter, record.collection
    return Hadith(
        hadith_id=record.hadith_id,
        canonical_reference=record.canonical_reference,
        collection=Collection(
            id=collection.collection_id,
            code=collection.code,
            name=collection.name_en,
            name_ar=collection.name_ar,
            name_fr=collection.name_fr,
        ),
        book=None
        if book is None
        else Book(
            id=book.book_id, number=book.number, title=book.title_ar, title_en=book.title_en, title_fr=book.title_fr
        ),
        chapter=None
        if chapter is None
        else Chapter(id=chapter.chapter_id, number=chapter.number, title=chapter.title_ar, title_en=chapter.title_en),
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
