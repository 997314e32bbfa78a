"""The fuzzy tier's «phrase but for one word» query (app/data/search/wording.py): a transliterated word
whose likeliest reading few texts hold stands in it as any of its readings, so that the texts choose."""

from app.data.search.common import FuzzyWord
from app.data.search.wording import _fuzzy_params


def _word(terms: tuple[str, ...], counts: tuple[int, ...], read: bool = True) -> FuzzyWord:
    rare = tuple(term for term, count in zip(terms, counts, strict=True) if count <= 1000)
    return FuzzyWord(terms[0], terms, 1.0, rare, counts, frozenset(terms) if read else frozenset())


def test_a_transliterated_word_whose_likeliest_reading_is_rare_stands_as_any_of_its_readings() -> None:
    words = [
        _word(("هذه",), (1610,)),
        _word(("وسط", "وسطي"), (300, 40)),
        _word(("التي",), (900,)),
        _word(("طلحه", "تليها"), (700, 20)),
    ]
    _, params = _fuzzy_params(words, ["هذه", "وسط", "التي", "طلحه"])

    phrases = params["group_0"].split(" | (")
    assert phrases[0] == "(('وسط' | 'وسطي') <1> ('التي') <1> ('طلحه' | 'تليها'))"
    assert phrases[3].endswith("('وسط' | 'وسطي') <1> ('التي'))")


def test_a_common_likeliest_reading_and_a_word_not_transliterated_stand_as_themselves() -> None:
    words = [
        _word(("من",), (17000,)),
        _word(("هذا", "هذه"), (8000, 1610)),
        _word(("حديث", "حدث"), (6000, 240)),
        _word(("حجهم",), (3,), read=False),
    ]
    _, params = _fuzzy_params(words, ["من", "هذا", "حديث", "حجهم"])

    assert params["group_0"].startswith("('هذا' <1> 'حديث' <1> 'حجهم') | ('من' <2> 'حديث' <1> 'حجهم')")
