"""A hadith's grades: each one an attribution (this source says this grader gave this grade), never a verdict.

The status is the attribution's, as strong as the link between the source record and the hadith:
- fact: a hadith-api record, linked by the crosswalk's number where the crosswalk identified the hadith (its
  English exactly and once, or its in-book reference checked by the English); the crosswalk line is cited;
- inference: a hadith-api record whose link is an English text found more than once, and an LK corpus row
  (linked by Arabic token containment, a measure of likeness), or any source linked otherwise;
- insufficient_evidence: the record's grade field holds no grade.
"""

from app.data.records import GradeRecord, HadithGradesRecord, SourceKey
from app.errors import NotFound
from app.limits import NAVIGATION
from resolvers.provenance import Sources, provenance
from schema.common import EvidenceStatus, ObjectType, Provenance
from schema.grade import GradeClass, GradeList, HadithGrade
from schema.info import Info

NUMBERED = "hadith-api"  # the source whose records are a hadith's through the crosswalk's number
IDENTIFYING = frozenset({"english_exact", "inbook_ref+english_jaccard"})  # crosswalk methods that identify


def _status(grade_class: GradeClass, grade: GradeRecord, found: HadithGradesRecord) -> EvidenceStatus:
    if grade_class is GradeClass.no_grade:
        return EvidenceStatus.insufficient_evidence
    if grade.source_id == NUMBERED and found.numbering_method in IDENTIFYING:
        return EvidenceStatus.fact
    return EvidenceStatus.inference


def _record(sources: Sources, hadith_id: int, source_id: str, key: str | None, edition: str | None) -> Provenance:
    return provenance(sources, hadith_id, ObjectType.hadith, source_id, source_key=key, edition_id=edition)


def _provenance(
    hadith_id: int, grade: GradeRecord, numbering: tuple[SourceKey, ...], sources: Sources
) -> list[Provenance]:
    """The record that states the grade; for a hadith-api record, the crosswalk line that links it too."""
    links = numbering if grade.source_id == NUMBERED else ()
    return [
        _record(sources, hadith_id, grade.source_id, grade.source_key, grade.edition_id),
        *(_record(sources, hadith_id, link.source_id, link.source_key, link.edition_id) for link in links),
    ]


def _grade(hadith_id: int, grade: GradeRecord, found: HadithGradesRecord, sources: Sources) -> HadithGrade:
    grade_class = GradeClass(grade.grade_class)
    return HadithGrade(
        grader=grade.grader,
        grade=grade.grade,
        grade_class=grade_class,
        evidence_status=_status(grade_class, grade, found),
        provenance=_provenance(hadith_id, grade, found.numbering, sources),
    )


async def grades_of_hadith(info: Info, hadith_id: int, limit: int | None) -> GradeList:
    found = await info.context.loaders.grades_by_hadith_id.load((hadith_id, NAVIGATION.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    sources = await info.context.sources.load(info.context.db)
    grades = found.grades
    return GradeList(
        items=[_grade(hadith_id, grade, found, sources) for grade in grades.items], truncated=grades.truncated
    )
