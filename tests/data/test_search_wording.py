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


def _unknown(word: str, corrections: tuple[str, ...], counts: tuple[int, ...]) -> FuzzyWord:
    """A word no text holds, with the terms one letter off it that texts hold."""
    return FuzzyWord(word, corrections, 1.0, corrections, counts)


def test_a_word_no_text_holds_is_the_only_one_the_phrase_leaves_out() -> None:
    words = [
        _word(("ازهد",), (40,), read=False),
        _word(("في",), (20000,), read=False),
        _word(("دنيا",), (560,), read=False),
        _unknown("يحبكك", ("يحبك",), (7,)),
    ]
    _, params = _fuzzy_params(words, ["ازهد", "في", "دنيا", "يحبكك"])

    assert params["group_0"] == "('ازهد' <1> 'في' <1> 'دنيا')"


def test_two_words_no_text_holds_leave_no_phrase_but_for_one_word() -> None:
    words = [
        _word(("ازهد",), (40,), read=False),
        _word(("في",), (20000,), read=False),
        _unknown("الدنيى", ("دنيا",), (560,)),
        _unknown("يحبكك", ("يحبك",), (7,)),
    ]
    groups, params = _fuzzy_params(words, ["ازهد", "في", "الدنيى", "يحبكك"])

    assert "<" not in " ".join(params[f"group_{i}"] for i in range(groups))
    assert params["group_0"] == "('ازهد')"
