"""A hadith's grades: each one an attribution (this source says this grader gave this grade), never a verdict.

The status is the attribution's: a fact where the source record that states the grade is the hadith's by its
number (hadith-api); an inference where the record is the hadith's by a match of Arabic texts (the LK corpus,
whose rows the crosswalk links by token containment); insufficient_evidence where the record holds no grade.
"""

from app.data.records import GradeRecord
from app.errors import NotFound
from app.limits import NAVIGATION
from resolvers.provenance import Sources, provenance
from schema.common import EvidenceStatus, ObjectType
from schema.grade import GradeClass, GradeList, HadithGrade
from schema.info import Info

MATCHED_BY_TEXT = frozenset({"lk-corpus"})  # sources whose rows are linked to a hadith by its Arabic text


def _status(grade_class: GradeClass, source_id: str) -> EvidenceStatus:
    if grade_class is GradeClass.no_grade:
        return EvidenceStatus.insufficient_evidence
    return EvidenceStatus.inference if source_id in MATCHED_BY_TEXT else EvidenceStatus.fact


def _grade(hadith_id: int, grade: GradeRecord, sources: Sources) -> HadithGrade:
    grade_class = GradeClass(grade.grade_class)
    return HadithGrade(
        grader=grade.grader,
        grade=grade.grade,
        grade_class=grade_class,
        evidence_status=_status(grade_class, grade.source_id),
        provenance=[
            provenance(
                sources,
                hadith_id,
                ObjectType.hadith,
                grade.source_id,
                source_key=grade.source_key,
                edition_id=grade.edition_id,
            )
        ],
    )


async def grades_of_hadith(info: Info, hadith_id: int, limit: int | None) -> GradeList:
    found = await info.context.loaders.grades_by_hadith_id.load((hadith_id, NAVIGATION.resolve(limit)))
    if found is None:
        raise NotFound("No hadith has this id.")
    sources = await info.context.sources.load(info.context.db)
    return GradeList(items=[_grade(hadith_id, grade, sources) for grade in found.items], truncated=found.truncated)
