"""get_hadith_commentary: the published, validated commentary passages on a hadith (the public view only)."""

from app.data.records import PassageRecord
from app.errors import NotFound, UnsupportedLanguage
from app.limits import HADITH_COMMENTARY
from resolvers.arguments import require_id
from schema.commentary import CommentaryPassage, HadithCommentary
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources
from schema.info import Info

LANGUAGES = (None, "ar", "fr")
VERIFIED = "lemma_verified"
NO_FRENCH = (
    "No source gives a French translation of any commentary; the Arabic passages are returned with "
    "language 'ar' or null."
)
NO_PASSAGE = (
    "No published, validated commentary passage is aligned to this hadith. The sources cover Nasa'i, "
    "Muslim, Ibn Majah, Tirmidhi and the Nawawi forty only; absence is not evidence that no commentary exists."
)


def _passage(record: PassageRecord, sources: Sources) -> CommentaryPassage:
    marker = f"[{record.marker_no}]" if record.marker_no else None
    locator = ", ".join(part for part in (record.page, marker) if part) or None
    return CommentaryPassage(
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


async def get_hadith_commentary(
    info: Info, hadith_id: int, language: str | None, limit: int | None
) -> HadithCommentary:
    if language not in LANGUAGES:
        raise UnsupportedLanguage("language must be 'fr', 'ar' or null.")
    bound = HADITH_COMMENTARY.resolve(limit)
    hadith_id = require_id(hadith_id, "hadith_id")
    page = await info.context.loaders.passages_by_hadith_id.load((hadith_id, bound))
    if page is None:
        raise NotFound("No hadith has this id.")
    if language == "fr":
        return HadithCommentary(hadith_id=hadith_id, passages=[], truncated=False, capability_note=NO_FRENCH)
    sources = await info.context.sources.load(info.context.db)
    return HadithCommentary(
        hadith_id=hadith_id,
        passages=[_passage(record, sources) for record in page.items],
        truncated=page.truncated,
        capability_note=None if page.items else NO_PASSAGE,
    )
