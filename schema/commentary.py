"""Published, validated commentary passages on a hadith, as `get_hadith_commentary` returns them."""

from enum import Enum

import strawberry

from schema.common import EvidenceStatus, Provenance


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


@strawberry.type(description="The public commentary passages on a hadith.")
class HadithCommentary:
    hadith_id: int = strawberry.field(description="The hadith.")
    passages: list[CommentaryPassage] = strawberry.field(description="Passages, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more passages exist than returned.")
    capability_note: str | None = strawberry.field(
        description="What the sources cannot give for this request (beyond the contract)."
    )
