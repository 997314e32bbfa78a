"""Arabic in Latin letters read back into Arabic: every spelling people use gives the word's Arabic among its
candidates; French and English show themselves by their letters and function words."""

import pytest

from app.text import arabic
from app.text.transliteration import MAX_LETTERS, latin_signs, reading


def _spelled(query: str) -> list[set[str]]:
    """Each word's candidate spellings, with its prefixes, as the search compares them."""
    return [{arabic.normalize(word.prefixes + spelling) for spelling, _ in word.candidates} for word in reading(query)]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("innama al-a'malu bin-niyyat", "إنما الأعمال بالنيات"),
        ("innamā al-aʿmālu bi-n-niyyāt", "إنما الأعمال بالنيات"),
        ("innamal a3malu binniyat", "إنما الأعمال بالنيات"),
        ("ad-dinu an-nasiha", "الدين النصيحة"),
        ("eddine ennasiha", "الدين النصيحة"),
        ("la darara wa la dirar", "لا ضرر ولا ضرار"),
        ("inna Allāha jamīlun yuḥibbu al-jamāl", "إن الله جميل يحب الجمال"),
        ("man kana you2minou billahi wal yawmil akhir", "من كان يؤمن بالله واليوم الآخر"),
        ("al-birru husnu al-khuluq", "البر حسن الخلق"),
    ],
)
def test_each_word_has_its_arabic_among_its_spellings(query: str, said: str) -> None:
    words = arabic.normalize(said).split()
    spelled = _spelled(query)

    assert len(spelled) == len(words)
    assert all(word in spellings for word, spellings in zip(words, spelled, strict=True))


def test_a_word_has_at_most_beam_spellings_the_cheapest_first() -> None:
    (word,) = reading("yastaʾdhinuhu")
    costs = [cost for _, cost in word.candidates]

    assert 0 < len(costs) <= 256
    assert costs == sorted(costs)


@pytest.mark.parametrize(
    ("query", "latin"),
    [
        ("innama al-a'malu bin-niyyat", False),
        ("la darara wa la dirar", False),
        ("la taghdab", False),
        ("les actions ne valent que par les intentions", True),
        ("Allah est beau et il aime la beauté", True),
        ("the prophet said", True),
        ("Muhammad, informe-moi sur l’islam. Le Messager d’Allah", True),
    ],
)
def test_french_and_english_show_themselves(query: str, latin: bool) -> None:
    signs = latin_signs(query)

    assert (signs.spelled > 0 or signs.function_share > 0.4) == latin


def test_a_query_longer_than_a_spoken_phrase_is_not_read_as_arabic() -> None:
    said = "kataba " * (MAX_LETTERS // len("kataba") + 1)

    assert reading(said) == []
    assert reading("kataba") != []
