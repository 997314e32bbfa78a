"""The class of a grade's wording: the table of ingest/grades.py, read exactly."""

import pytest

from ingest.grades import CLASS_OF_WORDING, WORDINGS, grade_class


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
