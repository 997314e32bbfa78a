"""What the data-access layer returns: plain, immutable records, one per thing read."""

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SourceRecord:
    source_id: str
    title: str
    source_type: str
    author: str | None
    repository: str | None
    commit_sha: str | None
    upstream_path: str | None
    licence: str | None


@dataclass(frozen=True, slots=True)
class SourceKey:
    """A record of a source that a claim comes from."""

    role: str
    source_id: str
    edition_id: str | None
    source_key: str | None


@dataclass(frozen=True, slots=True)
class CollectionRecord:
    collection_id: int
    code: str
    name_en: str | None
    name_ar: str | None
    name_fr: str | None
    hadith_count: int


@dataclass(frozen=True, slots=True)
class BookRecord:
    book_id: int
    number: str | None
    title_ar: str | None
    title_en: str | None
    title_fr: str | None
    hadith_count: int


@dataclass(frozen=True, slots=True)
class ChapterRecord:
    chapter_id: int
    number: str | None
    title_ar: str | None
    title_en: str | None
    hadith_count: int


@dataclass(frozen=True, slots=True)
class CollectionSourceRecord:
    """Records of one role (text_ar, text_fr, numbering ...) that a collection's hadith rows come from."""

    role: str
    source_id: str
    edition_id: str | None
    language: str | None  # the edition's, where the records have one
    hadith_count: int


@dataclass(frozen=True, slots=True)
class NeighboursRecord:
    """The hadith before and after one in its collection's order; None at either end."""

    previous_id: int | None
    next_id: int | None


@dataclass(frozen=True, slots=True)
class HadithRecord:
    hadith_id: int
    canonical_reference: str
    canonical_number: str | None
    in_book_reference: str | None
    text_ar: str | None
    text_fr: str | None
    collection: CollectionRecord
    book: BookRecord | None
    chapter: ChapterRecord | None
    sources: tuple[SourceKey, ...]


@dataclass(frozen=True, slots=True)
class ChainRecord:
    chain_id: int
    hadith_id: int
    chain_number: int
    origin: str
    alignment_score: float | None
    source_id: str
    source_key: str
    nodes: tuple["NodeRecord", ...]  # by position
    checks: tuple["CheckRecord", ...]  # the integrity checks it fails, in the order they ran


@dataclass(frozen=True, slots=True)
class CheckRecord:
    """An integrity check a chain fails: its code and the reason, as the import wrote them."""

    code: str
    reason: str


@dataclass(frozen=True, slots=True)
class HadithChainsRecord:
    """A hadith's chains, with what their provenance cites of the hadith: its reference and its own record."""

    hadith_id: int
    canonical_reference: str
    text: SourceKey
    chains: "Page[ChainRecord]"


@dataclass(frozen=True, slots=True)
class NodeRecord:
    node_id: int
    chain_id: int
    position: int
    narrator_id: int | None
    mention_ar: str | None
    transmission_term_ar: str | None
    resolution_status: str
    confidence: float | None
    method: str
    source_key: str


@dataclass(frozen=True, slots=True)
class PassageRecord:
    passage_id: int
    hadith_id: int
    source_id: str
    marker_no: str | None
    seq: int
    passage_kind: str
    heading: str | None
    text: str
    page: str | None
    alignment_status: str
    alignment_confidence: float | None
    source_key: str


@dataclass(frozen=True, slots=True)
class GradeRecord:
    """A grade of a hadith as its source record states it, with the class of its wording."""

    grader: str
    grade: str
    grade_class: str
    source_id: str
    edition_id: str | None
    source_key: str | None


@dataclass(frozen=True, slots=True)
class HadithGradesRecord:
    """A hadith's grades, with how its number was found: the crosswalk method and line that link the hadith to
    the hadith-api records whose grades it takes."""

    numbering_method: str | None
    numbering: tuple[SourceKey, ...]
    grades: "Page[GradeRecord]"


@dataclass(frozen=True, slots=True)
class NarratorRecord:
    narrator_id: int
    name_ar: str | None
    name_latin: str | None
    canonical_display: str | None
    name_fr: str | None
    generation: int | None
    grade_tier: str | None
    region: str | None
    birth_year_hijri: int | None
    death_year_hijri: int | None
    chain_node_count: int
    source_id: str
    source_key: str


@dataclass(frozen=True, slots=True)
class VariantRecord:
    narrator_id: int
    form: str
    script: str
    kind: str
    source_id: str
    source_key: str | None


@dataclass(frozen=True, slots=True)
class LegacyFieldRecord:
    narrator_id: int
    field: str
    value: str
    source_id: str
    source_key: str | None


@dataclass(frozen=True, slots=True)
class NoticeLinkRecord:
    narrator_id: int
    notice_id: int
    entry_id: str
    text: str
    page: str | None
    work_source_id: str
    status: str
    method: str
    confidence: float | None
    link_source_id: str


@dataclass(frozen=True, slots=True)
class AssertionRecord:
    narrator_id: int
    field: str
    value: str
    scholar: str
    source_id: str
    notice_id: int | None
    locator: str | None
    source_key: str | None


@dataclass(frozen=True, slots=True)
class RelationRecord:
    relation_id: int
    teacher_id: int
    student_id: int
    status: str
    method: str
    confidence: float | None
    source_id: str
    source_key: str


@dataclass(frozen=True, slots=True)
class OccurrenceRecord:
    """A confirmed chain node of a narrator, with its hadith."""

    narrator_id: int
    hadith_id: int
    canonical_reference: str
    chain_id: int
    chain_source_id: str
    chain_source_key: str
    node_id: int
    position: int
    node_source_key: str


@dataclass(frozen=True, slots=True)
class ObservationRecord:
    """Two narrators adjacent in an observed chain: `upper` is nearer the Prophet than `lower`."""

    hadith_id: int
    canonical_reference: str
    chain_id: int
    chain_source_id: str
    chain_source_key: str
    upper_node: NodeRecord
    lower_node: NodeRecord
    chain_checks_passed: bool


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """A bounded list: its items, and whether more exist beyond them."""

    items: tuple[T, ...]
    truncated: bool


@dataclass(frozen=True, slots=True)
class ProfileRecord:
    """A narrator with what its profile reads: name forms, dataset fields, linked rijal notices, assertions."""

    narrator: NarratorRecord
    variants: Page[VariantRecord]
    legacy_fields: tuple[LegacyFieldRecord, ...]
    notice_links: Page[NoticeLinkRecord]
    assertions: tuple[AssertionRecord, ...]


@dataclass(frozen=True, slots=True)
class OccurrencePageRecord:
    """One page of a narrator's confirmed chain occurrences, with the counts of them all."""

    occurrence_count: int
    distinct_hadith_count: int
    occurrences: Page[OccurrenceRecord]


@dataclass(frozen=True, slots=True)
class PairRecord:
    """What links two narrators: the relations recorded between them, and their chain observations when asked."""

    relations: Page[RelationRecord]
    observations: Page[ObservationRecord] | None


@dataclass(frozen=True, slots=True)
class TeachingRecord:
    """A narrator's first teachers, or students: the relations recorded with him on that side, and their count."""

    count: int
    relations: Page[RelationRecord]


@dataclass(frozen=True, slots=True)
class HadithHitRecord:
    hadith_id: int
    canonical_reference: str
    collection_code: str
    text_ar: str | None
    text_fr: str | None
    score: float | None
    source_id: str
    edition_id: str | None
    source_key: str
    text_fr_edition_id: str | None


@dataclass(frozen=True, slots=True)
class NarratorHitRecord:
    narrator: NarratorRecord
    matched_form: str
    form_source_id: str
    form_source_key: str | None
    score: float


@dataclass(frozen=True, slots=True)
class MatnRecord:
    """A hadith's normalized matn, as the LK corpus splits it from its isnad."""

    text: str
    source_id: str
    source_key: str


@dataclass(frozen=True, slots=True)
class ParallelRecord:
    """A hadith whose matn is the same report as another's (ingest/parallels.py)."""

    parallel_rank: int
    hadith_id: int
    canonical_reference: str
    similarity: float
    matn: MatnRecord | None


@dataclass(frozen=True, slots=True)
class TakhrijRecord:
    """A hadith's matn and first parallels; with their chains for an isnad tree (none asked: empty)."""

    hadith_id: int
    canonical_reference: str
    matn: MatnRecord | None
    parallels: "Page[ParallelRecord]"
    chains: tuple[ChainRecord, ...]  # of the hadith and of the parallels listed, by hadith then chain_number
