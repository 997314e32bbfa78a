"""Citations as people say them: collection and number in any order, filler words, number words and
ordinals in French, English and Arabic, a book named on the way; anything else is no citation."""

import pytest

from app.text import arabic
from app.text.number_words import numbers
from app.text.references import Citation
from app.text.spoken_references import spoken_citation


@pytest.mark.parametrize(
    ("query", "code", "number"),
    [
        ("hadith 1 de Boukhari", "bukhari", "1"),
        ("le premier hadith de Sahih al-Bukhari", "bukhari", "1"),
        ("Bukhari number one", "bukhari", "1"),
        ("le hadith numéro 8 de Sahih Muslim", "muslim", "8"),
        ("حديث رقم واحد في صحيح البخاري", "bukhari", "1"),
        ("رواه مسلم برقم ٢٥٦٤", "muslim", "2564"),
        ("Muslim, livre de la foi, hadith 8", "muslim", "8"),
        ("صحيح مسلم، كتاب الإيمان، حديث ٨", "muslim", "8"),
        ("hadith deux cent vingt-quatre de Bukhari", "bukhari", "224"),
        ("Bukhari hadith seventy five", "bukhari", "75"),
        ("the first hadith of Sahih Muslim", "muslim", "1"),
        ("what is hadith number 1 of Bukhari", "bukhari", "1"),
        ("Ibn Majah hadith number four thousand two hundred twenty seven", "ibnmajah", "4227"),
        ("سنن أبي داود حديث رقم أربعة آلاف وستمائة وسبعة", "abudawud", "4607"),
        ("الحديث الأول من صحيح البخاري", "bukhari", "1"),
        ("les quarante hadiths de Nawawi, le treizième", "nawawi40", "13"),
        ("hadith 8a de Muslim", "muslim", "8a"),
    ],
)
def test_a_spoken_citation_names_its_collection_and_number(query: str, code: str, number: str) -> None:
    assert spoken_citation(query) == Citation(code, number, None)


def test_a_book_said_by_number_keeps_both_readings_of_the_two_numbers() -> None:
    assert spoken_citation("le premier hadith du livre deux de Bukhari") == Citation("bukhari", "2.1", ("2", "1"))
    assert spoken_citation("Bukhari one two") == Citation("bukhari", "1.2", ("1", "2"))


@pytest.mark.parametrize(
    "query",
    ["un hadith de Boukhari", "hadith sur la patience de Bukhari 3", "Sahih 12", "Bukhari", "la darara wa la dirar"],
)
def test_anything_else_is_no_spoken_citation(query: str) -> None:
    assert spoken_citation(query) is None


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ("deux cent vingt quatre", [224]),
        ("quatre vingt dix sept", [97]),
        ("soixante et onze", [71]),
        ("vingt et unieme", [21]),
        ("deux mille cinq cent soixante quatre", [2564]),
        ("one hundred and twenty three", [123]),
        ("twentieth", [20]),
        ("3rd", [3]),
        ("deux trois", [2, 3]),
        ("20 5", [20, 5]),
        ("مئتان وأربعة وعشرون", [224]),
        ("الحادي عشر", [11]),
        ("ألفين وخمسمائة وأربعة وستون", [2564]),
        ("ثلاث مئة", [300]),
    ],
)
def test_number_words_say_the_numbers_people_mean(words: str, said: list[int]) -> None:
    assert numbers(arabic.normalize(words).split() if arabic.is_arabic(words) else words.split()) == said
