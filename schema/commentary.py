"""Published, validated commentary passages on a hadith, as `get_hadith_commentary` returns them."""

from enum import Enum
from typing import Self

import strawberry

from app.data.records import PassageRecord
from resolvers.get_hadith_commentary import Commentary
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources

VERIFIED = "lemma_verified"


@strawberry.enum(description="The publication status of a translation.")
class TranslationStatus(Enum):
    PUBLISHED = strawberry.enum_value("PUBLISHED", description="Published: validated for the public.")


@strawberry.type(description="A translation of a passage.")
class Translation:
    language: str = strawberry.field(description="Its language: fr.")
    text: str = strawberry.field(description="The translated text.")
    status: TranslationStatus = strawberry.field(description="Always PUBLISHED: only published ones are shown.")


@strawberry.type(description="A passage of a commentary (sharh) aligned to the hadith.")
class CommentaryPassage:
    passage_id: int = strawberry.field(description="The passage's stable id.")
    passage_kind: str = strawberry.field(description="sharh: a passage of a commentary on the hadith.")
    source_text: str | None = strawberry.field(description="The passage's Arabic text.")
    translation: Translation | None = strawberry.field(
        description="Its French translation; null, as no source gives one today."
    )
    alignment_status: str = strawberry.field(
        description="lemma_verified: the passage's opening words were found in the hadith's text."
    )
    alignment_confidence: float | None = strawberry.field(
        description="This passage's own evidence: 1 - the share of the collection's hadith whose Arabic holds its"
        " quotation (the longest run of its first words that its hadith holds); null when not verified."
    )
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact when the alignment is verified against the text; else inference."
    )
    provenance: list[Provenance] = strawberry.field(
        description="The work and author, edition page, repository and commit, licence and alignment."
    )

    @classmethod
    def from_record(cls, record: PassageRecord, sources: Sources) -> Self:
        marker = f"[{record.marker_no}]" if record.marker_no else None
        locator = ", ".join(part for part in (record.page, marker) if part) or None
        return cls(
            passage_id=record.passage_id,
            passage_kind=record.passage_kind,
            source_text=record.text,
            translation=None,
            alignment_status=record.alignment_status,
            alignment_confidence=record.alignment_confidence,
            evidence_status=EvidenceStatus.fact if record.alignment_status == VERIFIED else EvidenceStatus.inference,
            provenance=[
                Provenance.of(
                    sources,
                    record.passage_id,
                    ObjectType.commentary_passage,
                    record.source_id,
                    source_key=record.source_key,
                    locator=locator,
                    with_licence=True,
                )
            ],
        )


@strawberry.type(description="The public commentary passages on a hadith.")
class HadithCommentary:
    hadith_id: int = strawberry.field(description="The hadith.")
    passages: list[CommentaryPassage] = strawberry.field(description="Passages, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more passages exist than returned.")
    capability_note: str | None = strawberry.field(
        description="What the sources cannot give for this request (beyond the contract)."
    )

    @classmethod
    def from_record(cls, found: Commentary, sources: Sources) -> Self:
        return cls(
            hadith_id=found.hadith_id,
            passages=[CommentaryPassage.from_record(record, sources) for record in found.passages.items],
            truncated=found.passages.truncated,
            capability_note=found.capability_note,
        )
