"""Narrators: the profile, and the occurrences in chains (the summary navigation reaches: schema/hadith.py)."""

from enum import Enum

import strawberry

from resolvers.get_hadith import load_hadith
from schema.common import EvidenceStatus, Provenance
from schema.hadith import Hadith
from schema.info import Info, sources


@strawberry.type(description="Who the narrator is: names only, no judgement.")
class NarratorIdentity:
    name_ar: str | None = strawberry.field(description="The Arabic name the dataset gives.")
    name_fr: str | None = strawberry.field(description="A French form a source gives; null when none does.")
    canonical_display: str | None = strawberry.field(description="The display form: the Latin transliteration.")
    variants: list[str] = strawberry.field(
        description="Other name forms: the Latin transliteration, rijal headwords, forms seen in isnads."
    )


@strawberry.type(description="A field of a legacy dataset, kept apart from scholarly assertions.")
class LegacyField:
    field: str = strawberry.field(description="The dataset field: generation_label, death_date_hijri ...")
    value: str | None = strawberry.field(description="Its value; null when the dataset gives none.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact when the dataset gives the value, else insufficient_evidence."
    )
    provenance: list[Provenance] = strawberry.field(description="The dataset record.")


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


@strawberry.type(description="A scholar's stated verdict on the narrator, with its locator.")
class CanonicalAssertion:
    field: str = strawberry.field(description="ibn_hajar_verdict, ibn_hajar_tabaqa, dhahabi_verdict ...")
    value: str = strawberry.field(description="The verdict, as the source words it.")
    evidence_status: EvidenceStatus = strawberry.field(description="Always fact: the verdict is in the source.")
    provenance: list[Provenance] = strawberry.field(description="The work, entry and page, where known.")


@strawberry.type(description="A narrator's profile: identity, legacy data, rijal entries and assertions kept apart.")
class NarratorProfile:
    narrator_id: int = strawberry.field(description="The narrator.")
    identity: NarratorIdentity = strawberry.field(description="Names.")
    legacy_scholarly_data: list[LegacyField] = strawberry.field(description="Fields of the legacy datasets.")
    source_entries: list[SourceEntry] = strawberry.field(description="Linked rijal notices, at most `entry_limit`.")
    canonical_assertions: list[CanonicalAssertion] = strawberry.field(description="Scholars' stated verdicts.")
    truncated: bool = strawberry.field(description="True when more notices or name forms exist than returned.")
    capability_note: str | None = strawberry.field(description="What the sources cannot tell about this narrator.")


@strawberry.enum(description="What an item of get_narrator_hadiths is.")
class OccurrenceType(Enum):
    chain_occurrence = strawberry.enum_value(
        "chain_occurrence", description="The narrator stands in a chain of the hadith; no relation is implied."
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


@strawberry.type(description="A page of a narrator's confirmed occurrences in chains.")
class NarratorHadiths:
    narrator_id: int = strawberry.field(description="The narrator.")
    occurrence_count: int = strawberry.field(description="All confirmed occurrences, not just this page.")
    distinct_hadith_count: int = strawberry.field(description="The distinct hadith of all of them.")
    page: int = strawberry.field(description="This page, from 1.")
    items: list[NarratorHadithItem] = strawberry.field(description="This page's occurrences.")
    truncated: bool = strawberry.field(description="True when later pages exist.")
