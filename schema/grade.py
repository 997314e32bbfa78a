"""A hadith's grades: each one an attribution (this source says this grader gave this grade), never a verdict.

The status is the attribution's, as strong as the link between the source record and the hadith:
- fact: a hadith-api record, linked by the crosswalk's number where the crosswalk identified the hadith (its
  English exactly and once, or its in-book reference checked by the English); the fawaz record it paired is cited;
- inference: a hadith-api record whose link is an English text found more than once, and an LK corpus row
  (linked by Arabic token containment, a measure of likeness), or any source linked otherwise;
- insufficient_evidence: the record's grade field holds no grade.
"""

from enum import Enum
from typing import Self

import strawberry

from app.data.records import GradeRecord, HadithGradesRecord, SourceKey
from schema.common import EvidenceStatus, ObjectType, Provenance, Sources

NUMBERED = "hadith-api"  # the source whose records are a hadith's through the crosswalk's number
IDENTIFYING = frozenset({"english_exact", "inbook_ref+english_jaccard"})  # crosswalk methods that identify


@strawberry.enum(
    description="The class of a grade's wording, by the table of ingest/grades.py (docs/data-quality.md); "
    "never a verdict of this API."
)
class GradeClass(Enum):
    sahih = strawberry.enum_value(
        "sahih", description="Sahih (authentic); with 'agreed upon' or 'mutawatir' where the wording adds it."
    )
    sahih_li_ghayrihi = strawberry.enum_value(
        "sahih_li_ghayrihi", description="Sahih through other chains (li-ghayrihi)."
    )
    sahih_matn = strawberry.enum_value(
        "sahih_matn", description="The text (matn) is sahih; nothing said of this isnad."
    )
    hasan_sahih = strawberry.enum_value(
        "hasan_sahih", description="Hasan sahih (al-Tirmidhi's term, as the grader uses it)."
    )
    hasan = strawberry.enum_value("hasan", description="Hasan (good).")
    hasan_li_ghayrihi = strawberry.enum_value(
        "hasan_li_ghayrihi", description="Hasan through other chains (li-ghayrihi)."
    )
    daif = strawberry.enum_value("daif", description="Da'if (weak).")
    very_daif = strawberry.enum_value("very_daif", description="Da'if jiddan (very weak).")
    munkar = strawberry.enum_value("munkar", description="Munkar (denounced), alone or with 'da'if'.")
    shadh = strawberry.enum_value("shadh", description="Shadh (anomalous).")
    mawdu = strawberry.enum_value("mawdu", description="Mawdu' (fabricated).")
    batil = strawberry.enum_value("batil", description="Batil (false).")
    sahih_isnad = strawberry.enum_value(
        "sahih_isnad", description="Its isnad is sahih: a verdict on this chain, not on the text."
    )
    hasan_sahih_isnad = strawberry.enum_value(
        "hasan_sahih_isnad", description="Its isnad is hasan sahih: a verdict on this chain."
    )
    hasan_isnad = strawberry.enum_value("hasan_isnad", description="Its isnad is hasan: a verdict on this chain.")
    daif_isnad = strawberry.enum_value("daif_isnad", description="Its isnad is da'if: a verdict on this chain.")
    very_daif_isnad = strawberry.enum_value(
        "very_daif_isnad", description="Its isnad is very weak: a verdict on this chain."
    )
    sahih_mawquf = strawberry.enum_value(
        "sahih_mawquf", description="Sahih as a companion's word (mawquf), not the Prophet's."
    )
    sahih_li_ghayrihi_mawquf = strawberry.enum_value(
        "sahih_li_ghayrihi_mawquf", description="Sahih li-ghayrihi as a companion's word (mawquf)."
    )
    hasan_mawquf = strawberry.enum_value("hasan_mawquf", description="Hasan as a companion's word (mawquf).")
    daif_mawquf = strawberry.enum_value("daif_mawquf", description="Da'if as a companion's word (mawquf).")
    sahih_isnad_mawquf = strawberry.enum_value(
        "sahih_isnad_mawquf", description="Its isnad is sahih, to a companion (mawquf)."
    )
    hasan_isnad_mawquf = strawberry.enum_value(
        "hasan_isnad_mawquf", description="Its isnad is hasan, to a companion (mawquf)."
    )
    daif_isnad_mawquf = strawberry.enum_value(
        "daif_isnad_mawquf", description="Its isnad is da'if, to a companion (mawquf)."
    )
    sahih_maqtu = strawberry.enum_value(
        "sahih_maqtu", description="Sahih as a successor's word (maqtu'), not the Prophet's."
    )
    hasan_maqtu = strawberry.enum_value("hasan_maqtu", description="Hasan as a successor's word (maqtu').")
    daif_maqtu = strawberry.enum_value("daif_maqtu", description="Da'if as a successor's word (maqtu').")
    sahih_isnad_maqtu = strawberry.enum_value(
        "sahih_isnad_maqtu", description="Its isnad is sahih, to a successor (maqtu')."
    )
    hasan_isnad_maqtu = strawberry.enum_value(
        "hasan_isnad_maqtu", description="Its isnad is hasan, to a successor (maqtu')."
    )
    daif_isnad_maqtu = strawberry.enum_value(
        "daif_isnad_maqtu", description="Its isnad is da'if, to a successor (maqtu')."
    )
    sahih_isnad_mursal = strawberry.enum_value(
        "sahih_isnad_mursal", description="Its isnad is sahih up to a successor who omits the companion (mursal)."
    )
    daif_mursal = strawberry.enum_value("daif_mursal", description="Da'if, and mursal (the companion omitted).")
    mawquf = strawberry.enum_value("mawquf", description="Mawquf (a companion's word); no verdict on its authenticity.")
    maqtu = strawberry.enum_value("maqtu", description="Maqtu' (a successor's word); no verdict on its authenticity.")
    mursal = strawberry.enum_value(
        "mursal", description="Mursal (the companion omitted); no verdict on its authenticity."
    )
    no_grade = strawberry.enum_value(
        "no_grade", description="The source's grade field holds a placeholder ('-'), not a grade."
    )
    in_sahihayn = strawberry.enum_value(
        "in_sahihayn",
        description="The grader refers the hadith to Sahih al-Bukhari and/or Sahih Muslim, and says nothing else.",
    )
    unclassified = strawberry.enum_value(
        "unclassified",
        description="A wording the table does not hold (a reservation on part of the text ...): read the grade.",
    )


def _status(grade_class: GradeClass, grade: GradeRecord, found: HadithGradesRecord) -> EvidenceStatus:
    if grade_class is GradeClass.no_grade:
        return EvidenceStatus.insufficient_evidence
    if grade.source_id == NUMBERED and found.numbering_method in IDENTIFYING:
        return EvidenceStatus.fact
    return EvidenceStatus.inference


def _record(sources: Sources, hadith_id: int, source_id: str, key: str | None, edition: str | None) -> Provenance:
    return Provenance.of(sources, hadith_id, ObjectType.hadith, source_id, source_key=key, edition_id=edition)


def _provenance(
    hadith_id: int, grade: GradeRecord, numbering: tuple[SourceKey, ...], sources: Sources
) -> list[Provenance]:
    """The record that states the grade; for a hadith-api record, the fawaz record that links it too."""
    links = numbering if grade.source_id == NUMBERED else ()
    return [
        _record(sources, hadith_id, grade.source_id, grade.source_key, grade.edition_id),
        *(_record(sources, hadith_id, link.source_id, link.source_key, link.edition_id) for link in links),
    ]


@strawberry.type(
    description="A grade that a source attributes to a grader. It is an attribution: the fact is that the source "
    "says this grader gave this grade, not that the hadith is sahih or da'if."
)
class HadithGrade:
    grader: str = strawberry.field(
        description="The grader the source names (Al-Albani, Zubair Ali Zai ...); 'LK corpus annotation' where the "
        "source names none."
    )
    grade: str = strawberry.field(description="The grade, verbatim as the source words it.")
    grade_class: GradeClass = strawberry.field(
        description="The class of that wording; unclassified where the table does not know it, never a guess."
    )
    evidence_status: EvidenceStatus = strawberry.field(
        description="Of the attribution, never of the hadith's authenticity. fact: a hadith-api record states this "
        "grader's grade and the crosswalk identified the hadith as that record (its English exactly and once, or "
        "its in-book reference checked by the English); inference: a record linked by likeness (an English text "
        "found more than once; an LK corpus row by Arabic token containment); insufficient_evidence: the "
        "record's grade field holds no grade."
    )
    provenance: list[Provenance] = strawberry.field(
        description="The source record that states the grade, then the fawaz record that the crosswalk paired with the "
        "hadith, which links it, where one does."
    )

    @classmethod
    def from_record(cls, hadith_id: int, grade: GradeRecord, found: HadithGradesRecord, sources: Sources) -> Self:
        grade_class = GradeClass(grade.grade_class)
        return cls(
            grader=grade.grader,
            grade=grade.grade,
            grade_class=grade_class,
            evidence_status=_status(grade_class, grade, found),
            provenance=_provenance(hadith_id, grade, found.numbering, sources),
        )


@strawberry.type(description="A bounded list of a hadith's grades.")
class GradeList:
    items: list[HadithGrade] = strawberry.field(description="The grades, by source then grader, at most `limit`.")
    truncated: bool = strawberry.field(description="True when more exist than returned.")

    @classmethod
    def from_record(cls, hadith_id: int, found: HadithGradesRecord, sources: Sources) -> Self:
        grades = found.grades
        return cls(
            items=[HadithGrade.from_record(hadith_id, grade, found, sources) for grade in grades.items],
            truncated=grades.truncated,
        )
