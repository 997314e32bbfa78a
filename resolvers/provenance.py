"""Provenance entries (contract section B), built from the records a claim comes from.

A field the source does not give stays null: nothing here reconstructs a value.
"""

from collections.abc import Mapping

from app.data.records import SourceRecord
from schema.common import ObjectId, ObjectType, Provenance, SourceType

Sources = Mapping[str, SourceRecord]


def citation(source: SourceRecord, *, with_licence: bool = False) -> str:
    """'author, title (repository@commit)', and the licence as stated where the contract asks for it."""
    text = f"{source.author}, {source.title}" if source.author else source.title
    if source.repository:
        version = f"@{source.commit_sha[:12]}" if source.commit_sha else ""
        text += f" ({source.repository}{version})"
    if with_licence and source.licence:
        text += f". Licence as stated: {source.licence}"
    return text


def provenance(
    sources: Sources,
    object_id: int | str,
    object_type: ObjectType,
    source_id: str,
    *,
    source_key: str | None = None,
    edition_id: str | None = None,
    locator: str | None = None,
    with_licence: bool = False,
) -> Provenance:
    source = sources.get(source_id)
    return Provenance(
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
