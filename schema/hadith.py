"""A hadith as `get_hadith` returns it, with its collection, book and chapter."""

from typing import TYPE_CHECKING, Annotated

import strawberry

from schema.common import EvidenceStatus, Provenance
from schema.info import Info

if TYPE_CHECKING:
    from schema.chain import HadithChains
    from schema.grade import GradeList
    from schema.takhrij import IsnadTree, ParallelList


@strawberry.type(description="A collection of hadith (Sahih al-Bukhari, Sahih Muslim ...).")
class Collection:
    id: int = strawberry.field(description="The collection's id.")
    code: str = strawberry.field(description="Its sunnah.com code: bukhari, muslim, abudawud ...")
    name: str | None = strawberry.field(description="Its name, in Latin transliteration.")
    name_ar: str | None = strawberry.field(description="Its Arabic name.")
    name_fr: str | None = strawberry.field(description="Its French name, where a source gives one.")


@strawberry.type(description="A book (kitab) of a collection.")
class Book:
    id: int = strawberry.field(description="The book's id.")
    number: str | None = strawberry.field(description="Its number in the collection ('0' = introduction).")
    title: str | None = strawberry.field(description="Its Arabic title.")
    title_en: str | None = strawberry.field(description="Its English title.")
    title_fr: str | None = strawberry.field(description="Its French title, where a source gives one.")


@strawberry.type(description="A chapter (bab) of a book, where a source gives chapters.")
class Chapter:
    id: int = strawberry.field(description="The chapter's id.")
    number: str | None = strawberry.field(description="Its number in the source.")
    title: str | None = strawberry.field(description="Its Arabic title.")
    title_en: str | None = strawberry.field(description="Its English title.")


@strawberry.type(description="A canonical hadith and its corpus reference.")
class Hadith:
    hadith_id: int = strawberry.field(description="The hadith's stable id.")
    canonical_reference: str = strawberry.field(
        description="sunnah.com form 'bukhari:1' / 'muslim:8a'; 'code/kitab/index' where no source numbers it."
    )
    collection: Collection = strawberry.field(description="Its collection.")
    book: Book | None = strawberry.field(description="Its book (kitab); null where no source places it.")
    chapter: Chapter | None = strawberry.field(description="Its chapter (bab); null where no source gives one.")
    text_ar: str | None = strawberry.field(description="The Arabic text, with isnad and diacritics.")
    text_fr: str | None = strawberry.field(
        description="A French text where a source gives one (a translation of the sunnah.com English)."
    )
    evidence_status: EvidenceStatus = strawberry.field(description="Always fact: the text is in the cited source.")
    provenance: list[Provenance] = strawberry.field(description="The source records the hadith comes from.")

    @strawberry.field(description="Its observed chains, by chain_number (navigation; see get_hadith_chains).")
    async def chains(
        self,
        info: Info,
        limit: Annotated[int | None, strawberry.argument(description="How many chains at most (5, max 20).")] = None,
    ) -> Annotated["HadithChains", strawberry.lazy("schema.chain")]:
        from resolvers.get_hadith_chains import chains_of_hadith

        return await chains_of_hadith(info, self.hadith_id, limit)

    @strawberry.field(
        description="The grades that its sources attribute to graders, by source then grader: attributions, "
        "not verdicts of this API (navigation, beyond the contract)."
    )
    async def grades(
        self,
        info: Info,
        limit: Annotated[int | None, strawberry.argument(description="How many grades at most (5, max 20).")] = None,
    ) -> Annotated["GradeList", strawberry.lazy("schema.grade")]:
        from resolvers.hadith_grades import grades_of_hadith

        return await grades_of_hadith(info, self.hadith_id, limit)

    @strawberry.field(
        description="The hadith whose matn is the same report (takhrij), by similarity: inferences from the matns "
        "(navigation, beyond the contract)."
    )
    async def parallels(
        self,
        info: Info,
        limit: Annotated[int | None, strawberry.argument(description="How many parallels at most (5, max 20).")] = None,
    ) -> Annotated["ParallelList", strawberry.lazy("schema.takhrij")]:
        from resolvers.parallels import parallels_of_hadith

        return await parallels_of_hadith(info, self.hadith_id, limit)

    @strawberry.field(
        description="Its chains and those of its first parallels merged by narrator into one tree, with the madar "
        "where one exists and each version's wording (navigation, beyond the contract)."
    )
    async def isnad_tree(
        self,
        info: Info,
        limit: Annotated[
            int | None, strawberry.argument(description="How many parallels' chains to merge at most (5, max 20).")
        ] = None,
    ) -> Annotated["IsnadTree", strawberry.lazy("schema.takhrij")]:
        from resolvers.isnad_tree import isnad_tree_of_hadith

        return await isnad_tree_of_hadith(info, self.hadith_id, limit)
