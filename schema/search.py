"""Search results: candidate hadith and candidate narrators, each an inference with its score."""

from enum import Enum
from typing import Self

import strawberry

from app.data.records import HadithHitRecord, NarratorHitRecord
from resolvers.get_hadith import load_hadith
from resolvers.search_hadith import HadithCandidates
from resolvers.search_narrator import GRADE_TIERS, REGIONS, NarratorCandidates
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources
from schema.hadith import Hadith, NarratorSummary
from schema.info import Info, sources


@strawberry.enum(description="How a hadith matched the query; results are ranked by this tier first, then by score.")
class MatchMethod(Enum):
    exact = strawberry.enum_value(
        "exact", description="The normalized phrase occurs in the normalized text (tashkil, letter forms folded)."
    )
    fulltext = strawberry.enum_value(
        "fulltext",
        description="Every word of the query occurs in the text: Arabic with its attached prefixes (و ف ب ك ل ال) "
        "tolerated, French stemmed with accents folded.",
    )
    fuzzy = strawberry.enum_value(
        "fuzzy",
        description="Nothing better matched: most words occur, each as said or one letter off, ranked with the "
        "trigram similarity of query and text.",
    )
    reference = strawberry.enum_value(
        "reference",
        description="The query is a citation (bukhari:1, Sahih Muslim 8a, صحيح البخاري ١ ...); a two-number citation "
        "returns every hadith either reading names.",
    )
    transliteration = strawberry.enum_value(
        "transliteration",
        description="The query, in Latin letters, read as Arabic (innama al-a'malu bin-niyyat): its Arabic reading, "
        "each word spelled as the corpus spells it, matched by the exact, fulltext or fuzzy tier.",
    )


@strawberry.type(description="A candidate hadith for a query.")
class HadithHit:
    hadith_id: int = strawberry.field(description="The hadith.")
    canonical_reference: str = strawberry.field(description="Its canonical reference.")
    text_ar: str | None = strawberry.field(description="Its Arabic text.")
    text_fr: str | None = strawberry.field(description="Its French text, where a source gives one.")
    match_method: MatchMethod = strawberry.field(description="How it matched.")
    score: float | None = strawberry.field(
        description="In [0, 1], comparable within a match_method: 1 for a reference; for exact and fulltext, how "
        "much of the matn the query covers (fulltext also how close together its words stand); for fuzzy, the share "
        "of the words found averaged with the trigram similarity; for transliteration, the Arabic tier's score s "
        "as (2 + s) / 3 exact, (1 + s) / 3 fulltext, s / 3 fuzzy."
    )
    evidence_status: EvidenceStatus = strawberry.field(description="Always inference: a candidate, not a proof.")
    provenance: list[Provenance] = strawberry.field(description="The text's source record, with the collection.")

    @strawberry.field(description="The hadith (navigation).")
    async def hadith(self, info: Info) -> Hadith:
        return Hadith.from_record(await load_hadith(info.context, self.hadith_id), await sources(info))

    @classmethod
    def from_record(cls, method: str, record: HadithHitRecord, sources: Sources) -> Self:
        entries = [
            Provenance.of(
                sources,
                record.hadith_id,
                ObjectType.hadith,
                record.source_id,
                source_key=record.source_key,
                edition_id=record.edition_id,
                locator=record.canonical_reference,
            )
        ]
        if record.text_fr is not None and record.text_fr_edition_id:
            entries.append(
                Provenance.of(
                    sources,
                    record.hadith_id,
                    ObjectType.hadith,
                    "hadith-api",
                    edition_id=record.text_fr_edition_id,
                    locator=record.canonical_reference,
                )
            )
        return cls(
            hadith_id=record.hadith_id,
            canonical_reference=record.canonical_reference,
            text_ar=record.text_ar,
            text_fr=record.text_fr,
            match_method=MatchMethod(method),
            score=record.score,
            evidence_status=EvidenceStatus.inference,
            provenance=entries,
        )


@strawberry.type(description="Candidate hadith for a query.")
class HadithSearchResult:
    results: list[HadithHit] = strawberry.field(description="Candidates, best first, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more candidates exist than returned.")
    capability_note: str | None = strawberry.field(description="What this search cannot cover, when it matters.")

    @classmethod
    def from_record(cls, found: HadithCandidates, sources: Sources) -> Self:
        return cls(
            results=[HadithHit.from_record(method, record, sources) for method, record in found.hits],
            truncated=found.truncated,
            capability_note=found.capability_note,
        )


@strawberry.enum(
    description="How a narrator's name matched the query, once both are folded (Arabic: letter forms, أبي = أبو, "
    "ابن = بن; Latin: case, accents, ʿ ʾ marks, ibn/bin/b., al-/an-/ash-..., common spelling variants). Results are "
    "ranked by this tier first, then by score."
)
class MatchTier(Enum):
    exact = strawberry.enum_value("exact", description="A name form equals the query.")
    prefix = strawberry.enum_value("prefix", description="A name form starts with the query.")
    substring = strawberry.enum_value("substring", description="A name form contains the query.")
    fulltext = strawberry.enum_value("fulltext", description="A name form holds every word of the query.")
    fuzzy = strawberry.enum_value(
        "fuzzy",
        description="A name form has the query's consonants, in either script; or, when no form is the query or "
        "starts with it, it is similar to it (trigrams); or, when no other tier finds anyone, it holds the query's "
        "words, those that no name holds read with one letter dropped, doubled or swapped with the next, or (in a "
        "word of four letters or more) added or changed.",
    )


@strawberry.input(description="Filters of search_narrator; null means no filter.")
class NarratorFilters:
    grade_tier: str | None = strawberry.field(
        default=None,
        description=f"One of {', '.join(GRADE_TIERS)}: the tier of Ibn Hajar's verdict in a linked Taqrib notice "
        "(narrators without one never match a grade_tier filter).",
    )
    region: str | None = strawberry.field(
        default=None,
        description="The city a narrator lived in, as AR-Sanad names it (known for bridged narrators only), in Arabic "
        "or by a Latin name: "
        + "; ".join(f"{city} ({', '.join(names)})" for city, names in REGIONS.items())
        + "; other cities in Arabic.",
    )
    generation: str | None = strawberry.field(
        default=None,
        description="A tabaqa number, 1 to 12, from the dataset's generation label (1 = Companions, 2-5 = Followers "
        "and their successors ...).",
    )


@strawberry.type(description="A candidate narrator for a name.")
class NarratorHit:
    narrator_id: int = strawberry.field(description="The narrator.")
    name_ar: str | None = strawberry.field(description="The Arabic name the dataset gives.")
    name_fr: str | None = strawberry.field(description="A French form a source gives; null when none does.")
    canonical_display: str | None = strawberry.field(description="The display form: the Latin transliteration.")
    match_tier: MatchTier = strawberry.field(description="How the name matched.")
    score: float | None = strawberry.field(
        description="In [0, 1], comparable within a match_tier: 1 for exact (ties: the narrator named in more chains "
        "first); otherwise how well the name form matches, weighed with how often the narrator occurs in chains."
    )
    evidence_status: EvidenceStatus = strawberry.field(description="Always inference: a candidate, not an identity.")
    provenance: list[Provenance] = strawberry.field(description="The narrator record and the name form that matched.")

    @strawberry.field(description="The narrator (navigation).")
    async def narrator(self, info: Info) -> NarratorSummary | None:
        return await NarratorSummary.load(info, self.narrator_id)

    @classmethod
    def from_record(cls, tier: str, record: NarratorHitRecord, sources: Sources) -> Self:
        narrator = record.narrator
        return cls(
            narrator_id=narrator.narrator_id,
            name_ar=narrator.name_ar,
            name_fr=narrator.name_fr,
            canonical_display=narrator.canonical_display,
            match_tier=MatchTier[tier],
            score=record.score,
            evidence_status=EvidenceStatus.inference,
            provenance=[
                Provenance.of(
                    sources,
                    narrator.narrator_id,
                    ObjectType.narrator,
                    narrator.source_id,
                    source_key=narrator.source_key,
                ),
                Provenance.of(
                    sources,
                    narrator.narrator_id,
                    ObjectType.narrator,
                    record.form_source_id,
                    source_key=record.form_source_key,
                    locator=f"name form: {record.matched_form}",
                ),
            ],
        )


@strawberry.type(description="Candidate narrators for a name.")
class NarratorSearchResult:
    results: list[NarratorHit] = strawberry.field(description="Candidates, best first, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more candidates exist than returned.")

    @classmethod
    def from_record(cls, found: NarratorCandidates, sources: Sources) -> Self:
        return cls(
            results=[NarratorHit.from_record(tier, record, sources) for tier, record in found.hits],
            truncated=found.truncated,
        )
