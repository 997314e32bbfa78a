"""The root Query: the eight tools of the contract, and the web's entry points beside them (the reader's
collections and hadith of the day, which are no tools), each delegating to its resolver."""

from datetime import date
from typing import Annotated

import strawberry
from strawberry.schema.config import StrawberryConfig

from resolvers.get_hadith import get_hadith
from resolvers.get_hadith_chains import get_hadith_chains
from resolvers.get_hadith_commentary import get_hadith_commentary
from resolvers.get_narrator_hadiths import get_narrator_hadiths
from resolvers.get_narrator_profile import get_narrator_profile
from resolvers.get_transmission_relation import get_transmission_relation
from resolvers.reading_collections import collection, collections
from resolvers.reading_hadith import random_hadith
from resolvers.search_hadith import search_hadith
from resolvers.search_narrator import search_narrator
from schema.commentary import HadithCommentary
from schema.common import OBJECT_ID_SCALAR, ObjectId
from schema.hadith import Collection, Hadith, HadithChains
from schema.info import Info, sources
from schema.narrator import NarratorHadiths, NarratorProfile
from schema.relation import TransmissionRelation
from schema.search import HadithSearchResult, NarratorFilters, NarratorSearchResult


def _arg(description: str) -> strawberry.types.arguments.StrawberryArgumentAnnotation:
    return strawberry.argument(description=description)


HadithId = Annotated[int, _arg("The hadith's stable id (bukhari:1 is 100001).")]
NarratorId = Annotated[int, _arg("The narrator's stable id (the muslimscholars scholar_indx).")]
Query_ = Annotated[str, _arg("The words, citation or name to look for (1 to 500 characters).")]
Limit = Annotated[int | None, _arg("How many items at most; null takes the default (see the contract's table).")]


@strawberry.type(
    description="The eight read-only tools of the hadith and narrator graph, and the web's entry points (collections, "
    "collection, random_hadith)."
)
class Query:
    @strawberry.field(description="Candidate hadith by Arabic wording, French wording or citation.")
    async def search_hadith(
        self,
        info: Info,
        query: Query_,
        query_language: Annotated[str | None, _arg("ar, fr or auto (the script decides).")] = "auto",
        collection_id: Annotated[int | None, _arg("Only this collection (1 bukhari ... 7 malik).")] = None,
        limit: Limit = None,
    ) -> HadithSearchResult:
        found = await search_hadith(info.context, query, query_language, collection_id, limit)
        return HadithSearchResult.from_record(found, await sources(info))

    @strawberry.field(description="A canonical hadith and its corpus reference.")
    async def get_hadith(self, info: Info, hadith_id: HadithId) -> Hadith:
        return Hadith.from_record(await get_hadith(info.context, hadith_id), await sources(info))

    @strawberry.field(description="The observed chains of a hadith, each node keeping its resolution status.")
    async def get_hadith_chains(self, info: Info, hadith_id: HadithId, limit: Limit = None) -> HadithChains:
        return HadithChains.from_record(await get_hadith_chains(info.context, hadith_id, limit), await sources(info))

    @strawberry.field(description="Candidate narrators for an Arabic or transliterated name.")
    async def search_narrator(
        self,
        info: Info,
        query: Query_,
        query_language: Annotated[str | None, _arg("ar, latin or auto (the script decides).")] = "auto",
        filters: Annotated[NarratorFilters | None, _arg("Narrow the candidates; null fields do not filter.")] = None,
        limit: Limit = None,
    ) -> NarratorSearchResult:
        found = await search_narrator(info.context, query, query_language, filters, limit)
        return NarratorSearchResult.from_record(found, await sources(info))

    @strawberry.field(description="A narrator's profile: identity, legacy data, rijal entries, assertions.")
    async def get_narrator_profile(
        self,
        info: Info,
        narrator_id: NarratorId,
        entry_limit: Annotated[int | None, _arg("How many rijal notices at most (default 10, max 20).")] = None,
    ) -> NarratorProfile:
        profile = await get_narrator_profile(info.context, narrator_id, entry_limit)
        return NarratorProfile.from_record(profile, await sources(info))

    @strawberry.field(description="A page of a narrator's confirmed occurrences in chains, with full counts.")
    async def get_narrator_hadiths(
        self,
        info: Info,
        narrator_id: NarratorId,
        page: Annotated[int | None, _arg("The page, from 1.")] = 1,
        limit: Limit = None,
    ) -> NarratorHadiths:
        found = await get_narrator_hadiths(info.context, narrator_id, page, limit)
        return NarratorHadiths.from_record(found, await sources(info))

    @strawberry.field(description="Recorded relations between two narrators, and chain observations apart.")
    async def get_transmission_relation(
        self,
        info: Info,
        narrator_a_id: Annotated[int, _arg("One narrator.")],
        narrator_b_id: Annotated[int, _arg("The other narrator (not the same one).")],
        include_chain_observations: Annotated[
            bool | None, _arg("Also report chains where the two stand adjacent (default true).")
        ] = True,
        limit: Limit = None,
    ) -> TransmissionRelation:
        pair = await get_transmission_relation(
            info.context, narrator_a_id, narrator_b_id, include_chain_observations, limit
        )
        return TransmissionRelation.from_record(pair, await sources(info))

    @strawberry.field(description="The published, validated commentary passages on a hadith.")
    async def get_hadith_commentary(
        self,
        info: Info,
        hadith_id: HadithId,
        language: Annotated[str | None, _arg("fr, ar, or null for every passage.")] = None,
        limit: Limit = None,
    ) -> HadithCommentary:
        found = await get_hadith_commentary(info.context, hadith_id, language, limit)
        return HadithCommentary.from_record(found, await sources(info))

    @strawberry.field(
        description="The web's entry point, not a tool: every collection, by id, with its names, hadith count and "
        "sources; the reader navigates from them to books, chapters and hadith."
    )
    async def collections(self, info: Info) -> list[Collection]:
        return [Collection.from_record(record) for record in await collections(info.context)]

    @strawberry.field(description="The web's entry point to one collection, not a tool; NOT_FOUND for an unknown code.")
    async def collection(
        self, info: Info, code: Annotated[str, _arg("Its sunnah.com code: bukhari, muslim, nawawi40 ...")]
    ) -> Collection:
        return Collection.from_record(await collection(info.context, code))

    @strawberry.field(
        description="A hadith of the day for web pages, not a tool: the same hadith for the same date and collection "
        "(while the data is the same), so that a cache may keep it; not a recommendation."
    )
    async def random_hadith(
        self,
        info: Info,
        date: Annotated[date, _arg("The day it is for (YYYY-MM-DD).")],
        collection_id: Annotated[int | None, _arg("Only this collection (1 bukhari ... 10); null: any.")] = None,
    ) -> Hadith:
        return Hadith.from_record(await random_hadith(info.context, date, collection_id), await sources(info))


CONFIG = StrawberryConfig(auto_camel_case=False, scalar_map={ObjectId: OBJECT_ID_SCALAR})
