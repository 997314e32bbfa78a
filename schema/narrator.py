"""Narrators: the profile (with, for the web, his teachers and students), and the occurrences in chains (the
summary navigation reaches: schema/hadith.py)."""

from enum import Enum
from typing import Annotated, Self

import strawberry

from app.data.records import (
    AssertionRecord,
    LegacyFieldRecord,
    NarratorRecord,
    NoticeLinkRecord,
    OccurrenceRecord,
    ProfileRecord,
    VariantRecord,
)
from resolvers.get_hadith import load_hadith
from resolvers.get_narrator_hadiths import Occurrences
from resolvers.teaching import students_of_narrator, teachers_of_narrator
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources
from schema.hadith import Hadith
from schema.info import Info, sources
from schema.relation import NarratorRelations

RelationLimit = Annotated[
    int | None, strawberry.argument(description="How many relations at most (10, max 50); over it, LIMIT_EXCEEDED.")
]

# The legacy fields every profile reports, with the dataset that would give them.
LEGACY_FIELDS = (
    ("generation_label", "muslimscholars"),
    ("birth_date_hijri", "muslimscholars"),
    ("death_date_hijri", "muslimscholars"),
    ("reliability_grade", "takhrij-backend"),
)
LINKED = "LINKED"


@strawberry.type(description="Who the narrator is: names only, no judgement.")
class NarratorIdentity:
    name_ar: str | None = strawberry.field(description="The Arabic name the dataset gives.")
    name_fr: str | None = strawberry.field(description="A French form a source gives; null when none does.")
    canonical_display: str | None = strawberry.field(description="The display form: the Latin transliteration.")
    variants: list[str] = strawberry.field(
        description="Other name forms: the Latin transliteration, rijal headwords, forms seen in isnads."
    )

    @classmethod
    def from_record(cls, narrator: NarratorRecord, variants: tuple[VariantRecord, ...]) -> Self:
        """The variants are every other form: the Latin transliteration first, then the recorded forms."""
        shown = {narrator.name_ar, narrator.canonical_display}
        forms = [form for form in (narrator.name_latin, *(v.form for v in variants)) if form and form not in shown]
        return cls(
            name_ar=narrator.name_ar,
            name_fr=narrator.name_fr,
            canonical_display=narrator.canonical_display,
            variants=list(dict.fromkeys(forms)),
        )


@strawberry.type(description="A field of a legacy dataset, kept apart from scholarly assertions.")
class LegacyField:
    field: str = strawberry.field(description="The dataset field: generation_label, death_date_hijri ...")
    value: str | None = strawberry.field(description="Its value; null when the dataset gives none.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact when the dataset gives the value, else insufficient_evidence."
    )
    provenance: list[Provenance] = strawberry.field(description="The dataset record.")

    @classmethod
    def every_field(
        cls,
        narrator: NarratorRecord,
        fields: tuple[LegacyFieldRecord, ...],
        sources: Sources,
    ) -> list[Self]:
        """Every expected field: its value where the dataset gives one, else insufficient_evidence."""
        given = {(f.field, f.source_id): f for f in fields}
        result = []
        for name, source_id in LEGACY_FIELDS:
            found = given.get((name, source_id))
            result.append(
                cls(
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


@strawberry.enum(description="How a rijal notice is linked to the narrator.")
class LinkStatus(Enum):
    LINKED = strawberry.enum_value("LINKED", description="A unique candidate whose evidence agrees (name, tabaqa).")
    AMBIGUOUS = strawberry.enum_value("AMBIGUOUS", description="One of several candidates, or not corroborated.")
    CONFLICTED = strawberry.enum_value("CONFLICTED", description="A candidate whose evidence disagrees.")


@strawberry.type(description="A notice of a rijal work (Taqrib, Kashif, Mughni) linked to the narrator.")
class SourceEntry:
    entry_id: str = strawberry.field(description="The notice: 'taqrib:1234'.")
    text: str = strawberry.field(description="The notice's Arabic text.")
    resolution_status: LinkStatus = strawberry.field(description="How the notice is linked to the narrator.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact for a LINKED notice; insufficient_evidence otherwise."
    )
    provenance: list[Provenance] = strawberry.field(description="The work, its entry and page, and the link's method.")

    @classmethod
    def from_record(cls, link: NoticeLinkRecord, sources: Sources) -> Self:
        linked = link.status == LINKED
        return cls(
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
                    sources,
                    link.narrator_id,
                    ObjectType.narrator,
                    link.link_source_id,
                    source_key=f"link:{link.method}",
                ),
            ],
        )


@strawberry.type(description="A scholar's stated verdict on the narrator, with its locator.")
class CanonicalAssertion:
    field: str = strawberry.field(description="ibn_hajar_verdict, ibn_hajar_tabaqa, dhahabi_verdict ...")
    value: str = strawberry.field(description="The verdict, as the source words it.")
    evidence_status: EvidenceStatus = strawberry.field(description="Always fact: the verdict is in the source.")
    provenance: list[Provenance] = strawberry.field(description="The work, entry and page, where known.")

    @classmethod
    def from_record(cls, record: AssertionRecord, sources: Sources) -> Self:
        return cls(
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


@strawberry.type(description="A narrator's profile: identity, legacy data, rijal entries and assertions kept apart.")
class NarratorProfile:
    narrator_id: int = strawberry.field(description="The narrator.")
    identity: NarratorIdentity = strawberry.field(description="Names.")
    legacy_scholarly_data: list[LegacyField] = strawberry.field(description="Fields of the legacy datasets.")
    source_entries: list[SourceEntry] = strawberry.field(description="Linked rijal notices, at most `entry_limit`.")
    canonical_assertions: list[CanonicalAssertion] = strawberry.field(description="Scholars' stated verdicts.")
    truncated: bool = strawberry.field(description="True when more notices or name forms exist than returned.")
    capability_note: str | None = strawberry.field(description="What the sources cannot tell about this narrator.")

    @strawberry.field(description="His teachers: the relations sources record with him as the student (web only).")
    async def teachers(self, info: Info, limit: RelationLimit = None) -> NarratorRelations:
        found = await teachers_of_narrator(info.context, self.narrator_id, limit)
        return NarratorRelations.from_record(found, await sources(info))

    @strawberry.field(description="His students: the relations sources record with him as the teacher (web only).")
    async def students(self, info: Info, limit: RelationLimit = None) -> NarratorRelations:
        found = await students_of_narrator(info.context, self.narrator_id, limit)
        return NarratorRelations.from_record(found, await sources(info))

    @classmethod
    def from_record(cls, profile: ProfileRecord, sources: Sources) -> Self:
        narrator, links = profile.narrator, profile.notice_links
        return cls(
            narrator_id=narrator.narrator_id,
            identity=NarratorIdentity.from_record(narrator, profile.variants.items),
            legacy_scholarly_data=LegacyField.every_field(narrator, profile.legacy_fields, sources),
            source_entries=[SourceEntry.from_record(link, sources) for link in links.items],
            canonical_assertions=[CanonicalAssertion.from_record(a, sources) for a in profile.assertions],
            truncated=links.truncated or profile.variants.truncated,
            capability_note=_note(profile),
        )


@strawberry.enum(description="What an item of get_narrator_hadiths is.")
class OccurrenceType(Enum):
    chain_occurrence = strawberry.enum_value(
        "chain_occurrence",
        description="The narrator stands in a chain of the hadith; no relation is implied.",
    )


@strawberry.type(description="A confirmed occurrence of the narrator in a chain of a hadith.")
class NarratorHadithItem:
    hadith_id: int = strawberry.field(description="The hadith.")
    canonical_reference: str = strawberry.field(description="Its canonical reference.")
    chain_id: int = strawberry.field(description="The chain.")
    node_id: int = strawberry.field(description="The node.")
    position: int = strawberry.field(description="The node's position in the chain.")
    relation_type: OccurrenceType = strawberry.field(description="Always chain_occurrence.")
    evidence_status: EvidenceStatus = strawberry.field(description="Always fact: the node is confirmed.")
    provenance: list[Provenance] = strawberry.field(description="The hadith, chain and node records.")

    @strawberry.field(description="The hadith (navigation).")
    async def hadith(self, info: Info) -> Hadith:
        return Hadith.from_record(await load_hadith(info.context, self.hadith_id), await sources(info))

    @classmethod
    def from_record(cls, record: OccurrenceRecord, sources: Sources) -> Self:
        return cls(
            hadith_id=record.hadith_id,
            canonical_reference=record.canonical_reference,
            chain_id=record.chain_id,
            node_id=record.node_id,
            position=record.position,
            relation_type=OccurrenceType.chain_occurrence,
            evidence_status=EvidenceStatus.fact,
            provenance=[
                Provenance.of(
                    sources,
                    record.node_id,
                    ObjectType.chain_node,
                    record.chain_source_id,
                    source_key=record.node_source_key,
                    locator=record.canonical_reference,
                ),
                Provenance.of(
                    sources,
                    record.chain_id,
                    ObjectType.chain,
                    record.chain_source_id,
                    source_key=record.chain_source_key,
                ),
            ],
        )


@strawberry.type(description="A page of a narrator's confirmed occurrences in chains.")
class NarratorHadiths:
    narrator_id: int = strawberry.field(description="The narrator.")
    occurrence_count: int = strawberry.field(description="All confirmed occurrences, not just this page.")
    distinct_hadith_count: int = strawberry.field(description="The distinct hadith of all of them.")
    page: int = strawberry.field(description="This page, from 1.")
    items: list[NarratorHadithItem] = strawberry.field(description="This page's occurrences.")
    truncated: bool = strawberry.field(description="True when later pages exist.")

    @classmethod
    def from_record(cls, answer: Occurrences, sources: Sources) -> Self:
        found = answer.found
        return cls(
            narrator_id=answer.narrator_id,
            occurrence_count=found.occurrence_count,
            distinct_hadith_count=found.distinct_hadith_count,
            page=answer.page,
            items=[NarratorHadithItem.from_record(record, sources) for record in found.occurrences.items],
            truncated=found.occurrences.truncated,
        )
