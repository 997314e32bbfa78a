"""Search results: candidate hadith and candidate narrators, each an inference with its score."""

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import strawberry

from schema.common import EvidenceStatus, Provenance
from schema.info import Info

if TYPE_CHECKING:
    from schema.hadith import Hadith
    from schema.narrator import NarratorSummary


# The values of search_narrator's filters (listed in their descriptions).
GRADE_TIERS = ("companion", "thiqa", "saduq", "maqbul", "daif", "matruk", "majhul")
# The regions most narrators have (AR-Sanad's living city, in Arabic), with the Latin names also accepted.
REGIONS = {
    "الكوفة": ("Kufa", "Koufa", "al-Kufa"),
    "البصرة": ("Basra", "Bassora", "al-Basra"),
    "بغداد": ("Baghdad",),
    "مصر": ("Egypt", "Misr", "Egypte"),
    "المدينة": ("Medina", "Madina", "Madinah", "Medine"),
    "مكة": ("Mecca", "Makka", "Makkah", "La Mecque"),
    "دمشق": ("Damascus", "Dimashq", "Damas"),
    "الشام": ("Sham", "Syria", "Levant", "Syrie"),
    "نيسابور": ("Nishapur", "Naysabur", "Nichapur"),
    "حمص": ("Homs", "Hims"),
    "طرسوس": ("Tarsus",),
    "أصبهان": ("Isfahan", "Asbahan", "Ispahan"),
    "مرو": ("Merv", "Marw"),
    "الري": ("Rayy", "Ray"),
    "العراق": ("Iraq", "Irak"),
    "واسط": ("Wasit",),
    "بلخ": ("Balkh",),
    "اليمن": ("Yemen",),
}


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
    async def hadith(self, info: Info) -> Annotated["Hadith", strawberry.lazy("schema.hadith")]:
        from resolvers.get_hadith import load_hadith

        return await load_hadith(info, self.hadith_id)


@strawberry.type(description="Candidate hadith for a query.")
class HadithSearchResult:
    results: list[HadithHit] = strawberry.field(description="Candidates, best first, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more candidates exist than returned.")
    capability_note: str | None = strawberry.field(description="What this search cannot cover, when it matters.")


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
        "fuzzy", description="A name form is similar (trigrams), or has the query's consonants, in either script."
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
    async def narrator(self, info: Info) -> Annotated["NarratorSummary", strawberry.lazy("schema.narrator")] | None:
        from resolvers.narrator_summary import load_narrator_summary

        return await load_narrator_summary(info, self.narrator_id)


@strawberry.type(description="Candidate narrators for a name.")
class NarratorSearchResult:
    results: list[NarratorHit] = strawberry.field(description="Candidates, best first, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more candidates exist than returned.")
