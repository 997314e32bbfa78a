"""The class of a grade's wording: the table of ingest/grades.py, read exactly, and the API's enum is its list."""

import pytest

from ingest.grades import CLASS_OF_WORDING, CLASSES, WORDINGS, grade_class
from schema.grade import GradeClass


def test_the_api_enum_lists_the_classes_of_the_table() -> None:
    """The importer stores a class by its value; the API answers its member's name: both are the table's."""
    assert [GradeClass(name).name for name in CLASSES] == [member.name for member in GradeClass]


def test_no_wording_is_listed_under_two_classes() -> None:
    assert len(CLASS_OF_WORDING) == sum(len(wordings) for wordings in WORDINGS.values())


@pytest.mark.parametrize(
    ("wording", "expected"),
    [
        ("Hasan Sahih", "hasan_sahih"),
        ("hasan  sahih ", "hasan_sahih"),  # spaces and case are not the wording
        ("Isnaad Hasan", "hasan_isnad"),
        ("Sahih Isnaad", "sahih_isnad"),
        ("Mauquf Sahih", "sahih_mawquf"),
        ("Sahih Muquf", "sahih_mawquf"),
        ("Daif - Weak", "daif"),
        ("صحيح الإسناد مقطوع", "sahih_isnad_maqtu"),
        ("ضعيف جدا", "very_daif"),
        ("-", "no_grade"),
        ("Sahih Muslim", "in_sahihayn"),
        ("Sahih Bukhari (7284، 7285) Sahih Muslim (20)", "in_sahihayn"),
        ("Sahih Muslim (274 After  421)", "in_sahihayn"),
        # a verdict on the isnad with a reference, a reservation on part of the text: read the wording itself
        ("Isnaad Sahih Sahih Muslim (1780)", "unclassified"),
        ("صحيح دون قوله من الإناء الواحد", "unclassified"),
        ("Shadh, Sahih", "unclassified"),
    ],
)
def test_a_wording_takes_the_class_of_the_table_or_none(wording: str, expected: str) -> None:
    assert grade_class(wording) == expected
