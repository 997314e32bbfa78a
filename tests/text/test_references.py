"""The citation parser: every form people say and write names its collection and numbers; anything else is
no citation."""

import pytest

from app.text.references import Citation, parse_citation


@pytest.mark.parametrize(
    ("query", "code", "number"),
    [
        ("bukhari:1", "bukhari", "1"),
        ("Bukhari 1", "bukhari", "1"),
        ("Sahih al-Bukhari 1", "bukhari", "1"),
        ("Sahih Bukhari #1", "bukhari", "1"),
        ("Boukhari 7", "bukhari", "7"),
        ("Sahîh al-Bukhârî n°12", "bukhari", "12"),
        ("Sahih de Boukhari n° 3306", "bukhari", "3306"),
        ("Sahih Muslim 8a", "muslim", "8a"),
        ("muslim:8b", "muslim", "8b"),
        ("Muslim 8", "muslim", "8"),
        ("rapporté par Mouslim 1997", "muslim", "1997"),
        ("Jami at-Tirmidhi 2548", "tirmidhi", "2548"),
        ("Jami' at-Tirmidhi 1", "tirmidhi", "1"),
        ("Tirmizi 2155", "tirmidhi", "2155"),
        ("tirmidhi:2846.2", "tirmidhi", "2846.2"),
        ("Sunan an-Nasa'i 742", "nasai", "742"),
        ("Nesai 4315", "nasai", "4315"),
        ("Abu Dawud n° 4625", "abudawud", "4625"),
        ("Sunan Abi Dawud 3400", "abudawud", "3400"),
        ("Abou Daoud 2451", "abudawud", "2451"),
        ("Sunan Ibn Majah 4227", "ibnmajah", "4227"),
        ("Ibn Mâjah 1256", "ibnmajah", "1256"),
        ("Muwatta Malik 809", "malik", "809"),
        ("Nawawi 40 hadith 13", "nawawi40", "13"),
        ("40 Hadith Nawawi 13", "nawawi40", "13"),
        ("nawawi40:1", "nawawi40", "1"),
        ("Forty Hadith of an-Nawawi 1", "nawawi40", "1"),
        ("Hadith Qudsi 37", "qudsi40", "37"),
        ("qudsi40:8", "qudsi40", "8"),
        ("shahwaliullah40:3", "shahwaliullah40", "3"),
        ("صحيح البخاري ١", "bukhari", "1"),
        ("رواه البخاري 1", "bukhari", "1"),
        ("البخاري رقم ٥٩٠٢", "bukhari", "5902"),
        ("رواه مسلم ١٣٣", "muslim", "133"),
        ("سنن أبي داود ٤٦٢٥", "abudawud", "4625"),
        ("جامع الترمذي ١٠٥٩", "tirmidhi", "1059"),
        ("سنن النسائي 3348", "nasai", "3348"),
        ("سنن ابن ماجه 2666", "ibnmajah", "2666"),
        ("موطأ الإمام مالك 5", "malik", "5"),
        ("الأربعون النووية ١٠", "nawawi40", "10"),
        ("Bukhari ١", "bukhari", "1"),
        ("Muslim 8 b", "muslim", "8b"),
    ],
)
def test_one_number_names_the_hadith_of_that_number(query: str, code: str, number: str) -> None:
    assert parse_citation(query) == Citation(code, number, None)


@pytest.mark.parametrize(
    ("query", "citation"),
    [
        ("Bukhari 2:15", Citation("bukhari", "2.15", ("2", "15"))),
        ("Muwatta Malik 1/2", Citation("malik", "1.2", ("1", "2"))),
        ("Muwatta Malik, Book 1, Hadith 2", Citation("malik", "1.2", ("1", "2"))),
        ("Sahih al-Bukhari, Book 1, Hadith 1", Citation("bukhari", "1.1", ("1", "1"))),
        ("البخاري ٢/١٥", Citation("bukhari", "2.15", ("2", "15"))),
        ("Bukhari vol 1 book 2 hadith 15", Citation("bukhari", None, ("2", "15"))),
        ("tirmidhi 815.2", Citation("tirmidhi", "815.2", None)),  # no collection has 815 books
    ],
)
def test_two_numbers_keep_every_reading(query: str, citation: Citation) -> None:
    assert parse_citation(query) == citation


def test_a_bare_number_names_its_sub_numbers_too() -> None:
    numbers = Citation("muslim", "8", None).numbers()

    assert numbers[:3] == ["8", "8a", "8b"]
    assert "8z" in numbers
    assert "8.2" in numbers
    assert Citation("muslim", "8a", None).numbers() == ["8a"]
    assert Citation("bukhari", None, ("2", "15")).numbers() == []


@pytest.mark.parametrize(
    "query",
    [
        "إنما الأعمال بالنيات",
        "Bukhari",
        "bukhari 1 and more",
        "the 40 hadith",
        "Sahih 12",
        "Abu Hurairah",
        "Shu'bah 1 2 3 4",
        "قال رسول الله",
        "ابن ماجه",
    ],
)
def test_anything_else_is_no_citation(query: str) -> None:
    assert parse_citation(query) is None
