"""get_narrator_profile: identity, legacy dataset fields, rijal entries and scholarly assertions, kept apart."""

from app.data.records import (
    AssertionRecord,
    LegacyFieldRecord,
    NarratorRecord,
    NoticeLinkRecord,
    ProfileRecord,
    VariantRecord,
)
from app.errors import NotFound
from app.limits import NAME_VARIANTS_MAX, NARRATOR_ENTRIES
from resolvers.arguments import require_id
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources
from schema.info import Info
from schema.narrator import CanonicalAssertion, LegacyField, LinkStatus, NarratorIdentity, NarratorProfile, SourceEntry

# The legacy fields every profile reports, with the dataset that would give them.
LEGACY_FIELDS = (
    ("generation_label", "muslimscholars"),
    ("birth_date_hijri", "muslimscholars"),
    ("death_date_hijri", "muslimscholars"),
    ("reliability_grade", "takhrij-backend"),
)
LINKED = "LINKED"


def _identity(narrator: NarratorRecord, variants: tuple[VariantRecord, ...]) -> NarratorIdentity:
    """The variants are every other form: the Latin transliteration first, then the recorded forms."""
    shown = {narrator.name_ar, narrator.canonical_display}
    forms = [form for form in (narrator.name_latin, *(v.form for v in variants)) if form and form not in shown]
    return NarratorIdentity(
        name_ar=narrator.name_ar,
        name_fr=narrator.name_fr,
        canonical_display=narrator.canonical_display,
        variants=list(dict.fromkeys(forms)),
    )


def _legacy(narrator: NarratorRecord, fields: tuple[LegacyFieldRecord, ...], sources: Sources) -> list[LegacyField]:
    """Every expected field: its value where the dataset gives one, else insufficient_evidence."""
    given = {(f.field, f.source_id): f for f in fields}
    result = []
    for name, source_id in LEGACY_FIELDS:
        found = given.get((name, source_id))
        result.append(
            LegacyField(
                field=name,
                value=found.value if found else None,
                evidence_status=EvidenceStatus.fact if found else EvidenceStatus.insufficient_evidence,
                provenance=[
                    Provenance.of(
                        sources,
                        narrator.narrator_id,
                        ObjectType.narrator,
                        source_id,
                        source_key=found.source_key if found else narrator.source_key,
                    )
                ],
            )
        )
    return result


def _entry(link: NoticeLinkRecord, sources: Sources) -> SourceEntry:
    linked = link.status == LINKED
    return SourceEntry(
        entry_id=link.entry_id,
        text=link.text,
        resolution_status=LinkStatus(link.status),
        evidence_status=EvidenceStatus.fact if linked else EvidenceStatus.insufficient_evidence,
        provenance=[
            Provenance.of(
                sources,
                link.entry_id,
                ObjectType.narrator_entry,
                link.work_source_id,
                source_key=link.entry_id,
                locator=", ".join(p for p in (link.entry_id, link.page) if p),
            ),
            Provenance.of(
                sources, link.narrator_id, ObjectType.narrator, link.link_source_id, source_key=f"link:{link.method}"
            ),
        ],
    )


def _assertion(record: AssertionRecord, sources: Sources) -> CanonicalAssertion:
    return CanonicalAssertion(
        field=record.field,
        value=record.value,
        evidence_status=EvidenceStatus.fact,
        provenance=[
            Provenance.of(
                sources,
                record.narrator_id,
                ObjectType.narrator,
                record.source_id,
                source_key=record.source_key,
                locator=record.locator,
            )
        ],
    )


def _note(profile: ProfileRecord) -> str:
    notes = []
    if profile.narrator.name_fr is None:
        notes.append("No source gives a French form of this name.")
    if not any(link.status == LINKED for link in profile.notice_links.items):
        notes.append("No rijal notice is linked to this narrator with agreeing evidence.")
    if not profile.assertions:
        notes.append("No scholarly verdict on this narrator is recorded in the sources.")
    notes.append("Assertions carry no confidence: the sources give none. Absence is never a negation.")
    return " ".join(notes)


async def get_narrator_profile(info: Info, narrator_id: int, entry_limit: int | None) -> NarratorProfile:
    bound = NARRATOR_ENTRIES.resolve(entry_limit)
    narrator_id = require_id(narrator_id, "narrator_id")
    profile = await info.context.loaders.profile_by_narrator_id.load((narrator_id, NAME_VARIANTS_MAX, bound))
    if profile is None:
        raise NotFound("No narrator has this id.")
    sources = await info.context.sources.load(info.context.db)
    narrator, links = profile.narrator, profile.notice_links
    return NarratorProfile(
        narrator_id=narrator_id,
        identity=_identity(narrator, profile.variants.items),
        legacy_scholarly_data=_legacy(narrator, profile.legacy_fields, sources),
        source_entries=[_entry(link, sources) for link in links.items],
        canonical_assertions=[_assertion(a, sources) for a in profile.assertions],
        truncated=links.truncated or profile.variants.truncated,
        capability_note=_note(profile),
    )
