"""A hadith, its chains and their nodes, and the narrator summary that navigation reaches: the types that
point at each other, together, each mapping its record (`from_record`)."""

from typing import Self

import strawberry

from app.data.records import (
    BookRecord,
    ChainRecord,
    ChapterRecord,
    CollectionRecord,
    HadithChainsRecord,
    HadithRecord,
    NarratorRecord,
    NodeRecord,
    TakhrijRecord,
)
from resolvers.get_hadith_chains import chains_of_hadith
from resolvers.hadith_grades import grades_of_hadith
from resolvers.narrator_summary import hadiths_of_narrator, load_narrator_summary
from resolvers.reading_books import chapter_of_book, chapters_of_book, hadiths_of_book, hadiths_of_chapter
from resolvers.reading_collections import book_of_collection, books_of_collection, sources_of_collection
from resolvers.reading_common import NumberedPage
from resolvers.reading_hadith import hadith_of_collection, neighbour
from resolvers.takhrij import isnad_tree_of_hadith, parallels_of_hadith
from resolvers.tree_graph import GraphNode, merge
from schema.chain_status import ChainCheck, ChainCheckCode, ResolutionStatus, chain_evidence, chain_provenance
from schema.common import EvidenceStatus, Provenance, Sources, hadith_provenance
from schema.grade import GradeList
from schema.info import Info, sources
from schema.reading import (
    ChainLimit,
    CollectionSource,
    GradeLimit,
    HadithLimit,
    ListLimit,
    NarratorHadithLimit,
    Number,
    Page,
    PageNumber,
    ParallelLimit,
    TreeLimit,
    page_of,
)
from schema.takhrij import (
    Madar,
    ParallelList,
    TreeChain,
    TreeEdge,
    TreeVersion,
    madar_note,
    matn_provenance,
    tree_chain,
    tree_edge,
    tree_madar,
    tree_versions,
)


@strawberry.type(description="A collection of hadith (Sahih al-Bukhari, Sahih Muslim ...).")
class Collection:
    id: int = strawberry.field(description="The collection's id.")
    code: str = strawberry.field(description="Its sunnah.com code: bukhari, muslim, abudawud ...")
    name: str | None = strawberry.field(description="Its name, in Latin transliteration.")
    name_ar: str | None = strawberry.field(description="Its Arabic name.")
    name_fr: str | None = strawberry.field(description="Its French name, where a source gives one.")
    hadith_count: int = strawberry.field(description="How many of its hadith this database holds.")

    @strawberry.field(description="The records its hadith rows come from, by role, source and edition (the reader's).")
    async def sources(self, info: Info) -> list[CollectionSource]:
        found = await sources_of_collection(info.context, self.id)
        catalog = await sources(info)
        return [CollectionSource.from_record(record, catalog) for record in found]

    @strawberry.field(description="Its books, in the collection's order (that of their first hadith).")
    async def books(self, info: Info, page: PageNumber = 1, limit: ListLimit = None) -> "Page[Book]":
        asked = await books_of_collection(info.context, self.id, page, limit)
        return page_of(asked, [Book.from_record(record) for record in asked.found.items])

    @strawberry.field(description="Its book of this kitab number ('0' = introduction); NOT_FOUND when none.")
    async def book(self, info: Info, number: Number) -> "Book":
        return Book.from_record(await book_of_collection(info.context, self.id, number))

    @strawberry.field(
        description="Its hadith of this canonical number ('1'; Muslim's '8a'); NOT_FOUND when none has it."
    )
    async def hadith(self, info: Info, number: Number) -> "Hadith":
        return Hadith.from_record(await hadith_of_collection(info.context, self.id, number), await sources(info))

    @classmethod
    def from_record(cls, record: CollectionRecord) -> Self:
        return cls(
            id=record.collection_id,
            code=record.code,
            name=record.name_en,
            name_ar=record.name_ar,
            name_fr=record.name_fr,
            hadith_count=record.hadith_count,
        )


@strawberry.type(description="A book (kitab) of a collection.")
class Book:
    id: int = strawberry.field(description="The book's id.")
    number: str | None = strawberry.field(description="Its number in the collection ('0' = introduction).")
    title: str | None = strawberry.field(description="Its Arabic title.")
    title_en: str | None = strawberry.field(description="Its English title.")
    title_fr: str | None = strawberry.field(description="Its French title, where a source gives one.")
    hadith_count: int = strawberry.field(description="How many of its hadith this database holds.")

    @strawberry.field(description="Its chapters, in the collection's order; empty where no source gives them.")
    async def chapters(self, info: Info, page: PageNumber = 1, limit: ListLimit = None) -> "Page[Chapter]":
        asked = await chapters_of_book(info.context, self.id, page, limit)
        return page_of(asked, [Chapter.from_record(record) for record in asked.found.items])

    @strawberry.field(description="Its chapter of this bab number; NOT_FOUND when none.")
    async def chapter(self, info: Info, number: Number) -> "Chapter":
        return Chapter.from_record(await chapter_of_book(info.context, self.id, number))

    @strawberry.field(description="Its hadith, in the collection's order, with or without chapters.")
    async def hadiths(self, info: Info, page: PageNumber = 1, limit: HadithLimit = None) -> "Page[Hadith]":
        return await Hadith.page_of(info, await hadiths_of_book(info.context, self.id, page, limit))

    @classmethod
    def from_record(cls, record: BookRecord) -> Self:
        return cls(
            id=record.book_id,
            number=record.number,
            title=record.title_ar,
            title_en=record.title_en,
            title_fr=record.title_fr,
            hadith_count=record.hadith_count,
        )


@strawberry.type(description="A chapter (bab) of a book, where a source gives chapters.")
class Chapter:
    id: int = strawberry.field(description="The chapter's id.")
    number: str | None = strawberry.field(description="Its number in the source.")
    title: str | None = strawberry.field(description="Its Arabic title.")
    title_en: str | None = strawberry.field(description="Its English title.")
    hadith_count: int = strawberry.field(description="How many of its hadith this database holds.")

    @strawberry.field(description="Its hadith, in the collection's order.")
    async def hadiths(self, info: Info, page: PageNumber = 1, limit: HadithLimit = None) -> "Page[Hadith]":
        return await Hadith.page_of(info, await hadiths_of_chapter(info.context, self.id, page, limit))

    @classmethod
    def from_record(cls, record: ChapterRecord) -> Self:
        return cls(
            id=record.chapter_id,
            number=record.number,
            title=record.title_ar,
            title_en=record.title_en,
            hadith_count=record.hadith_count,
        )


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
        limit: ChainLimit = None,
    ) -> "HadithChains":
        return HadithChains.from_record(
            await chains_of_hadith(info.context, self.hadith_id, limit), await sources(info)
        )

    @strawberry.field(
        description="The grades that its sources attribute to graders, by source then grader: attributions, "
        "not verdicts of this API (navigation, beyond the contract)."
    )
    async def grades(
        self,
        info: Info,
        limit: GradeLimit = None,
    ) -> GradeList:
        found = await grades_of_hadith(info.context, self.hadith_id, limit)
        return GradeList.from_record(self.hadith_id, found, await sources(info))

    @strawberry.field(
        description="The hadith whose matn is the same report (takhrij), by similarity: inferences from the matns "
        "(navigation, beyond the contract)."
    )
    async def parallels(
        self,
        info: Info,
        limit: ParallelLimit = None,
    ) -> "ParallelList":
        found = await parallels_of_hadith(info.context, self.hadith_id, limit)
        return ParallelList.from_record(found, await sources(info))

    @strawberry.field(
        description="Its chains and those of its first parallels merged by narrator into one tree, with the madar "
        "where one exists and each version's wording (navigation, beyond the contract)."
    )
    async def isnad_tree(
        self,
        info: Info,
        limit: TreeLimit = None,
    ) -> "IsnadTree":
        found = await isnad_tree_of_hadith(info.context, self.hadith_id, limit)
        return IsnadTree.from_record(found, await sources(info))

    @strawberry.field(description="The hadith just before it in its collection's order; null for the first.")
    async def previous(self, info: Info) -> "Hadith | None":
        found = await neighbour(info.context, self.hadith_id, following=False)
        return None if found is None else Hadith.from_record(found, await sources(info))

    @strawberry.field(description="The hadith just after it in its collection's order; null for the last.")
    async def next(self, info: Info) -> "Hadith | None":
        found = await neighbour(info.context, self.hadith_id, following=True)
        return None if found is None else Hadith.from_record(found, await sources(info))

    @classmethod
    async def page_of(cls, info: Info, asked: NumberedPage[HadithRecord]) -> Page[Self]:
        catalog = await sources(info)
        return page_of(asked, [cls.from_record(record, catalog) for record in asked.found.items])

    @classmethod
    def from_record(cls, record: HadithRecord, sources: Sources) -> Self:
        book, chapter = record.book, record.chapter
        return cls(
            hadith_id=record.hadith_id,
            canonical_reference=record.canonical_reference,
            collection=Collection.from_record(record.collection),
            book=None if book is None else Book.from_record(book),
            chapter=None if chapter is None else Chapter.from_record(chapter),
            text_ar=record.text_ar,
            text_fr=record.text_fr,
            evidence_status=EvidenceStatus.fact,
            provenance=hadith_provenance(sources, record),
        )


@strawberry.type(description="A narrator, as navigation from chains, relations and search reaches one.")
class NarratorSummary:
    narrator_id: int = strawberry.field(description="The narrator's stable id (the muslimscholars scholar_indx).")
    name_ar: str | None = strawberry.field(description="The Arabic name the dataset gives.")
    name_fr: str | None = strawberry.field(description="A French form a source gives; none does today.")
    canonical_display: str | None = strawberry.field(description="The display form: the Latin transliteration.")
    generation: int | None = strawberry.field(description="The tabaqa (1-12) of the dataset's generation label.")
    grade_tier: str | None = strawberry.field(description="The tier of Ibn Hajar's verdict in a linked Taqrib notice.")
    region: str | None = strawberry.field(description="Where the narrator lived, where a source says.")
    death_year_hijri: int | None = strawberry.field(description="The death year (AH) the dataset gives.")

    @strawberry.field(description="Hadith in which the narrator occurs as a confirmed chain node, by hadith id.")
    async def hadiths(
        self,
        info: Info,
        limit: NarratorHadithLimit = None,
    ) -> "HadithList":
        page = await hadiths_of_narrator(info.context, self.narrator_id, limit)
        catalog = await sources(info)
        return HadithList(
            items=[Hadith.from_record(record, catalog) for record in page.items], truncated=page.truncated
        )

    @classmethod
    def from_record(cls, record: NarratorRecord) -> Self:
        return cls(
            narrator_id=record.narrator_id,
            name_ar=record.name_ar,
            name_fr=record.name_fr,
            canonical_display=record.canonical_display,
            generation=record.generation,
            grade_tier=record.grade_tier,
            region=record.region,
            death_year_hijri=record.death_year_hijri,
        )

    @classmethod
    async def load(cls, info: Info, narrator_id: int | None) -> Self | None:
        """The summary of a narrator that navigation names (none where no narrator is named)."""
        record = None if narrator_id is None else await load_narrator_summary(info.context, narrator_id)
        return None if record is None else cls.from_record(record)


@strawberry.type(description="A bounded list of hadith.")
class HadithList:
    items: list[Hadith] = strawberry.field(description="The hadith, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more exist than returned.")


@strawberry.type(description="One narrator's place in a chain.")
class ChainNode:
    position: int = strawberry.field(description="1 = the compiler's end of the chain.")
    narrator_id: int | None = strawberry.field(description="The narrator, where the evidence names one; else null.")
    mention_ar: str | None = strawberry.field(
        description="The narrator as the Arabic text mentions him or her: the text's own span, null where no link of "
        "the text stands for this node."
    )
    transmission_term_ar: str | None = strawberry.field(description="The transmission term before the mention.")
    resolution_status: ResolutionStatus = strawberry.field(description="How far the evidence identifies the narrator.")
    confidence: float | None = strawberry.field(description="The measured confidence of that status, where known.")
    node_id: int = strawberry.field(description="The node's stable id (beyond the contract).")
    method: str = strawberry.field(
        description="How the status was reached, e.g. dataset_id+text_names_narrator, dataset_id+relational_mention, "
        "dataset_id_not_in_text (beyond the contract; docs/data-quality.md lists them)."
    )

    @strawberry.field(description="The narrator of this node, where one is named (navigation).")
    async def narrator(self, info: Info) -> NarratorSummary | None:
        return await NarratorSummary.load(info, self.narrator_id)

    @classmethod
    def from_record(cls, node: NodeRecord) -> Self:
        return cls(
            position=node.position,
            narrator_id=node.narrator_id,
            mention_ar=node.mention_ar,
            transmission_term_ar=node.transmission_term_ar,
            resolution_status=ResolutionStatus(node.resolution_status),
            confidence=node.confidence,
            node_id=node.node_id,
            method=node.method,
        )


@strawberry.type(description="A chain of transmission observed for a hadith.")
class Chain:
    chain_id: int = strawberry.field(description="The chain's stable id.")
    chain_number: int = strawberry.field(description="Its number among the hadith's chains, from 1.")
    nodes: list[ChainNode] = strawberry.field(description="Its nodes, by position.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="fact for a chain the cited dataset lists and that passes every integrity check against the "
        "written isnad; insufficient_evidence for one that fails a check, and for one read from the text."
    )
    failed_checks: list[ChainCheck] = strawberry.field(
        description="The integrity checks the chain fails against its written isnad; empty when it passes them all "
        "(beyond the contract)."
    )
    provenance: list[Provenance] = strawberry.field(description="The chain's record and the hadith's reference.")

    @classmethod
    def from_record(cls, chain: ChainRecord, hadith: HadithChainsRecord, sources: Sources) -> Self:
        """A dataset chain that passes its integrity checks is a fact of the dataset; one that fails a check, or a
        chain read from the text by the importer, is not."""
        return cls(
            chain_id=chain.chain_id,
            chain_number=chain.chain_number,
            nodes=[ChainNode.from_record(node) for node in chain.nodes],
            evidence_status=chain_evidence(chain),
            failed_checks=[ChainCheck(code=ChainCheckCode(check.code), reason=check.reason) for check in chain.checks],
            provenance=chain_provenance(sources, chain, hadith),
        )


@strawberry.type(description="The observed chains of a hadith.")
class HadithChains:
    hadith_id: int = strawberry.field(description="The hadith.")
    chains: list[Chain] = strawberry.field(description="Its chains, by chain_number, at most `limit`.")
    truncated: bool = strawberry.field(description="True when the hadith has more chains than returned.")

    @classmethod
    def from_record(cls, found: HadithChainsRecord, sources: Sources) -> Self:
        return cls(
            hadith_id=found.hadith_id,
            chains=[Chain.from_record(chain, found, sources) for chain in found.chains.items],
            truncated=found.chains.truncated,
        )


@strawberry.type(description="A narrator, or an unidentified node kept apart, in a merged isnad tree.")
class TreeNode:
    key: str = strawberry.field(
        description="'narrator:<id>' for a narrator merged across chains; 'node:<node_id>' for a node whose narrator "
        "the evidence does not identify (ambiguous, unresolved), never merged."
    )
    narrator_id: int | None = strawberry.field(description="The narrator; null for a node kept apart.")
    mention_ar: str | None = strawberry.field(description="The first mention of him in the chains' texts.")
    resolution_statuses: list[ResolutionStatus] = strawberry.field(
        description="The statuses of his nodes in the chains, each once."
    )
    chain_count: int = strawberry.field(description="How many chains he stands in: those whose node_keys hold his key.")
    is_madar: bool = strawberry.field(description="True for the madar (the common link) of the tree.")

    @strawberry.field(description="The narrator, where one is named (navigation).")
    async def narrator(self, info: Info) -> NarratorSummary | None:
        return await NarratorSummary.load(info, self.narrator_id)


@strawberry.type(description="The chains of a hadith and of its parallels merged by narrator into one graph.")
class IsnadTree:
    hadith_id: int = strawberry.field(description="The hadith.")
    nodes: list[TreeNode] = strawberry.field(description="The narrators and the nodes kept apart.")
    edges: list[TreeEdge] = strawberry.field(description="The links between them.")
    chains: list[TreeChain] = strawberry.field(description="The chains merged, by hadith then chain number.")
    versions: list[TreeVersion] = strawberry.field(description="The hadith, then each parallel merged, by similarity.")
    madar: Madar | None = strawberry.field(description="The madar, where one exists; null otherwise (see madar_note).")
    madar_note: str | None = strawberry.field(
        description="Why no madar is given (no narrator named by two chains and possible in every other); never a "
        "negation."
    )
    truncated: bool = strawberry.field(description="True when the hadith has more parallels than `limit` merged.")
    evidence_status: EvidenceStatus = strawberry.field(
        description="inference: the merge reads parallels (an inference) and the chains' narrator ids together."
    )
    provenance: list[Provenance] = strawberry.field(description="The hadith's matn record, where it has one.")

    @classmethod
    def from_record(cls, found: TakhrijRecord, sources: Sources) -> Self:
        graph = merge(found.chains)
        references = {found.hadith_id: found.canonical_reference}
        references |= {parallel.hadith_id: parallel.canonical_reference for parallel in found.parallels.items}
        return cls(
            hadith_id=found.hadith_id,
            nodes=[_node(node, graph.madar) for node in graph.nodes],
            edges=[tree_edge(edge) for edge in graph.edges],
            chains=[tree_chain(chain, graph, references) for chain in found.chains],
            versions=tree_versions(found),
            madar=tree_madar(graph, found, sources),
            madar_note=madar_note(graph),
            truncated=found.parallels.truncated,
            evidence_status=EvidenceStatus.inference,
            provenance=matn_provenance(sources, found.hadith_id, found.matn),
        )


def _node(node: GraphNode, madar: GraphNode | None) -> TreeNode:
    return TreeNode(
        key=node.key,
        narrator_id=node.narrator_id,
        mention_ar=node.mention_ar,
        resolution_statuses=[ResolutionStatus(status) for status in node.statuses],
        chain_count=len(node.chain_ids),
        is_madar=node is madar,
    )
