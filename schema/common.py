"""The contract's shared shapes: evidence status, provenance (built from the records a claim comes from), and the
enums every tool uses. A field the source does not give stays null: nothing here reconstructs a value."""

from collections.abc import Mapping
from enum import Enum
from typing import NewType, Self

import strawberry

from app.data.records import HadithRecord, SourceRecord

Sources = Mapping[str, SourceRecord]
ObjectId = NewType("ObjectId", object)
OBJECT_ID_SCALAR = strawberry.scalar(
    name="ObjectId",
    description="The id of the object a claim is about: an integer, or a string for ids that are text.",
    serialize=lambda value: value,
    parse_value=lambda value: value,
)


@strawberry.enum(description="How directly the cited source supports a claim (contract section A).")
class EvidenceStatus(Enum):
    fact = strawberry.enum_value("fact", description="Directly present in the cited source or dataset.")
    inference = strawberry.enum_value("inference", description="Derived by a method from the sources.")
    insufficient_evidence = strawberry.enum_value(
        "insufficient_evidence", description="The sources do not settle it; never a negation."
    )


@strawberry.enum(description="The kind of object a provenance entry is about.")
class ObjectType(Enum):
    hadith = strawberry.enum_value("hadith", description="A hadith.")
    chain = strawberry.enum_value("chain", description="A chain of transmission.")
    chain_node = strawberry.enum_value("chain_node", description="A node of a chain.")
    narrator = strawberry.enum_value("narrator", description="A narrator.")
    narrator_entry = strawberry.enum_value("narrator_entry", description="A rijal notice about a narrator.")
    relation = strawberry.enum_value("relation", description="A teacher/student relation.")
    commentary_passage = strawberry.enum_value("commentary_passage", description="A commentary passage.")
    source = strawberry.enum_value("source", description="A source as a whole.")
    dataset = strawberry.enum_value("dataset", description="A dataset as a whole.")


@strawberry.enum(description="The kind of source a claim comes from.")
class SourceType(Enum):
    corpus = strawberry.enum_value("corpus", description="A corpus of hadith texts.")
    scholarly_work = strawberry.enum_value("scholarly_work", description="A scholar's work (a rijal book).")
    commentary = strawberry.enum_value("commentary", description="A commentary (sharh).")
    dataset = strawberry.enum_value("dataset", description="A dataset, or a file derived from one.")


@strawberry.type(description="Where a claim comes from (contract section B). An unknown field is null.")
class Provenance:
    object_id: ObjectId = strawberry.field(description="The id of the object the claim is about.")
    object_type: ObjectType = strawberry.field(description="The kind of that object.")
    source_type: SourceType | None = strawberry.field(description="The kind of source.")
    source_id: str | None = strawberry.field(description="The source's id in this database.")
    source_key: str | None = strawberry.field(description="The key of the record in its source or dataset.")
    source_title: str | None = strawberry.field(description="The source's title.")
    edition_id: str | None = strawberry.field(description="The edition of the source, where it has several.")
    citation: str | None = strawberry.field(description="A human-readable citation of the source.")
    locator: str | None = strawberry.field(
        description="Where in the source: page, entry number, offset, or repository commit."
    )

    @classmethod
    def of(
        cls,
        sources: Sources,
        object_id: int | str,
        object_type: ObjectType,
        source_id: str,
        *,
        source_key: str | None = None,
        edition_id: str | None = None,
        locator: str | None = None,
        with_licence: bool = False,
    ) -> Self:
        source = sources.get(source_id)
        return cls(
            object_id=ObjectId(object_id),
            object_type=object_type,
            source_type=SourceType(source.source_type) if source else None,
            source_id=source_id,
            source_key=source_key,
            source_title=source.title if source else None,
            edition_id=edition_id,
            citation=citation(source, with_licence=with_licence) if source else None,
            locator=locator,
        )


def citation(source: SourceRecord, *, with_licence: bool = False) -> str:
    """'author, title (repository@commit)', and the licence as stated where the contract asks for it."""
    text = f"{source.author}, {source.title}" if source.author else source.title
    if source.repository:
        version = f"@{source.commit_sha[:12]}" if source.commit_sha else ""
        text += f" ({source.repository}{version})"
    if with_licence and source.licence:
        text += f". Licence as stated: {source.licence}"
    return text


def hadith_provenance(sources: Sources, record: HadithRecord) -> list[Provenance]:
    """The source records of a hadith, each by its role; the Arabic text's with its in-book reference."""
    return [
        Provenance.of(
            sources,
            record.hadith_id,
            ObjectType.hadith,
            key.source_id,
            source_key=key.source_key,
            edition_id=key.edition_id,
            locator=record.in_book_reference if key.role == "text_ar" else None,
        )
        for key in record.sources
    ]
