"""Search results: candidate hadith and candidate narrators, each an inference with its score."""

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import strawberry

from schema.common import EvidenceStatus, Provenance
from schema.info import Info

if TYPE_CHECKING:
    from schema.hadith import Hadith
    from schema.narrator import NarratorSummary


@strawberry.enum(description="How a hadith matched the query.")
class MatchMethod(Enum):
    exact = strawberry.enum_value("exact", description="The normalized phrase occurs in the normalized text.")
    fulltext = strawberry.enum_value("fulltext", description="Every word of the query occurs in the text.")
    fuzzy = strawberry.enum_value("fuzzy", description="Nothing better matched; trigram similarity.")
    reference = strawberry.enum_value("reference", description="The query is a citation of the hadith.")


@strawberry.type(description="A candidate hadith for a query.")
class HadithHit:
    hadith_id: int = strawberry.field(description="The hadith.")
    canonical_reference: str = strawberry.field(description="Its canonical reference.")
    text_ar: str | None = strawberry.field(description="Its Arabic text.")
    text_fr: str | None = strawberry.field(description="Its French text, where a source gives one.")
    match_method: MatchMethod = strawberry.field(description="How it matched.")
    score: float | None = strawberry.field(description="In [0, 1], comparable within a match_method.")
    evidence_status: EvidenceStatus = strawberry.field(description="Always inference: a candidate, not a proof.")
    provenance: list[Provenance] = strawberry.field(description="The text's source record, with the collection.")

    @strawberry.field(description="The hadith (navigation).")
    async def hadith(self, info: Info) -> Annotated["Hadith", strawberry.lazy("schema.hadith")]:
        from resolvers.get_hadith import load_hadith

        return await load_hadith(info, self.hadith_id)


@strawberry.type(description="Candidate hadith for a query.")
class HadithSearchResult:
    results: list[HadithHit] = strawberry.field(description="Candidates, best first, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more candidates exist than returned.")
    capability_note: str | None = strawberry.field(description="What this search cannot cover, when it matters.")


@strawberry.enum(description="How a narrator's name matched the query.")
class MatchTier(Enum):
    exact = strawberry.enum_value("exact", description="A name form equals the query.")
    prefix = strawberry.enum_value("prefix", description="A name form starts with the query.")
    substring = strawberry.enum_value("substring", description="A name form contains the query.")
    fulltext = strawberry.enum_value("fulltext", description="A name form holds every word of the query.")
    fuzzy = strawberry.enum_value("fuzzy", description="A name form is similar (trigrams).")


@strawberry.input(description="Filters of search_narrator; null means no filter.")
class NarratorFilters:
    grade_tier: str | None = strawberry.field(
        default=None,
        description="companion, thiqa, saduq, maqbul, daif, matruk, majhul (from a linked Taqrib verdict).",
    )
    region: str | None = strawberry.field(default=None, description="A city, as AR-Sanad names it (Arabic).")
    generation: str | None = strawberry.field(default=None, description="A tabaqa number, 1 to 12.")


@strawberry.type(description="A candidate narrator for a name.")
class NarratorHit:
    narrator_id: int = strawberry.field(description="The narrator.")
    name_ar: str | None = strawberry.field(description="The Arabic name the dataset gives.")
    name_fr: str | None = strawberry.field(description="A French form a source gives; null when none does.")
    canonical_display: str | None = strawberry.field(description="The display form: the Latin transliteration.")
    match_tier: MatchTier = strawberry.field(description="How the name matched.")
    score: float | None = strawberry.field(description="In [0, 1], comparable within a match_tier.")
    evidence_status: EvidenceStatus = strawberry.field(description="Always inference: a candidate, not an identity.")
    provenance: list[Provenance] = strawberry.field(description="The narrator record and the name form that matched.")

    @strawberry.field(description="The narrator (navigation).")
    async def narrator(self, info: Info) -> Annotated["NarratorSummary", strawberry.lazy("schema.narrator")] | None:
        from resolvers.narrator_summary import load_narrator_summary

        return await load_narrator_summary(info, self.narrator_id)


@strawberry.type(description="Candidate narrators for a name.")
class NarratorSearchResult:
    results: list[NarratorHit] = strawberry.field(description="Candidates, best first, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more candidates exist than returned.")
