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
        ("al kalima at-tayyiba sadaqa", "الكلمة الطيبة صدقة"),
        ("al haya min al iman", "الحياء من الإيمان"),
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


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("ra'aytumuhuma", "رأيتموهما"),
        ("raʾaytumūhumā", "رأيتموهما"),
        ("ra2aytoumouhouma", "رأيتموهما"),
        ("yasta'dhina", "يستأذن"),
        ("yastaʾdhina", "يستأذن"),
        ("raja'aha", "راجعها"),
        ("nasartumuhum", "نصرتموهم"),
    ],
)
def test_a_verb_with_its_suffixed_pronoun_keeps_its_spelling_within_the_beam(query: str, said: str) -> None:
    (spellings,) = _spelled(query)

    assert arabic.normalize(said) in spellings


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("wa2ana", "وأنا"),
        ("wa'ana", "وأنا"),
        ("fa2idha", "فإذا"),
        ("fa'arsalaha", "فأرسلها"),
        ("bi'anna", "بأن"),
    ],
)
def test_a_conjunction_glued_to_a_hamza_is_said_apart(query: str, said: str) -> None:
    (word,) = reading(query)

    assert word.prefixes == arabic.normalize(said)[0]
    assert arabic.normalize(said) in _spelled(query)[0]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("alladhi", "الذي"),
        ("bimithli alladhi", "بمثل الذي"),
        ("wallati taliha", "والتي تليها"),
        ("wa-llati", "والتي"),
        ("allahumma", "اللهم"),
        ("alladhina amanu", "الذين آمنوا"),
    ],
)
def test_the_article_said_with_a_lam_is_written_with_one(query: str, said: str) -> None:
    spelled = _spelled(query)

    assert all(word in spellings for word, spellings in zip(arabic.normalize(said).split(), spelled, strict=True))


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("taʿālā", "تعالى"),
        ("ḥattā", "حتى"),
        ("al-wusṭā", "الوسطى"),
        ("7adjdjihim", "حجهم"),
        ("alanbiya2i", "الأنبياء"),
        ("al-anbiyāʾi", "الأنبياء"),
    ],
)
def test_long_a_ending_doubled_dj_and_the_article_glued_to_a_vowel(query: str, said: str) -> None:
    (spellings,) = _spelled(query)

    assert arabic.normalize(said) in spellings


def test_a_word_that_lends_its_last_letter_as_the_article_may_as_well_keep_it() -> None:
    halal, bayyin = _spelled("halal bayyin")[:2]
    innama = _spelled("innamal a3malu")[0]

    assert {"هلا", "حلال"} <= halal
    assert "البين" in bayyin
    assert "انما" in innama


def test_spellings_of_equal_cost_read_each_letter_its_likeliest_way_first() -> None:
    (word,) = reading("qatala")
    cheapest = [spelling for spelling, cost in word.candidates if cost == 0]

    assert cheapest[0] == "قتله"
    assert cheapest.index("قتل") < cheapest.index("قاتل")
