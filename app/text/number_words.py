"""Numbers said in words, in French, English and Arabic: cardinals («deux cent vingt-quatre», «seventy
five», «مئتان وأربعة وعشرون»), ordinals («premier», «vingt et unième», «first», «twentieth», «الأول»,
«الحادي عشر») and digits with an ordinal ending («1er», «2e», «3rd»), up to the thousands.

`value` reads one word (folded Latin: lower case, no accents; Arabic: app.arabic.normalize'd);
`numbers` reads a run of them into the numbers it says: «vingt trois» is 23, «deux trois» is 2 then 3
(a word joins the number before it only where the place it fills is still free: «cent vingt»,
«twenty five», Arabic units before their tens «خمسة وعشرون», French «quatre-vingt» and «soixante-dix»).
"""

import re
from dataclasses import dataclass

from app.text import arabic

HUNDRED, THOUSAND = 100, 1000


def _counting(words: str, first: int, step: int = 1) -> dict[str, int]:
    """The words of a list that counts: the first says `first`, each next `step` more."""
    return {word: first + step * index for index, word in enumerate(words.split())}


_LATIN_CARDINALS = {
    **_counting("zero un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize", 0),
    **_counting("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen", 0),
    **_counting("fifteen sixteen seventeen eighteen nineteen", 15),
    **_counting("vingt trente quarante cinquante soixante septante huitante nonante", 20, 10),
    **_counting("twenty thirty forty fifty sixty seventy eighty ninety", 20, 10),
    "une": 1, "vingts": 20, "octante": 80, "cent": HUNDRED, "cents": HUNDRED, "hundred": HUNDRED,
    "mille": THOUSAND, "mil": THOUSAND, "thousand": THOUSAND,
}  # fmt: skip
_LATIN_ORDINALS = {
    "premier": 1, "premiere": 1, "second": 2, "seconde": 2, "first": 1, "third": 3, "fifth": 5, "eighth": 8,
    "ninth": 9, "twelfth": 12, "cinquieme": 5, "neuvieme": 9,
}  # fmt: skip
_ARABIC_UNITS = ("واحد", "اثن", "ثلاث", "اربع", "خمس", "ست", "سبع", "ثمان", "تسع")
_ARABIC_CARDINALS = {
    **{word: value for value, unit in enumerate(_ARABIC_UNITS, 1) for word in (unit, unit + "ه")},
    "احد": 1, "واحده": 1, "اثنان": 2, "اثنين": 2, "اثنا": 2, "اثني": 2, "ثماني": 8, "ثمانيه": 8,
    "عشر": 10, "عشره": 10,
    **{word: value * 10 for value, unit in enumerate(_ARABIC_UNITS[2:], 3) for word in (unit + "ون", unit + "ين")},
    "عشرون": 20, "عشرين": 20, "ستون": 60, "ستين": 60, "ثمانون": 80, "ثمانين": 80,
    "مئه": HUNDRED, "مائه": HUNDRED, "مئتان": 200, "مئتين": 200, "مائتان": 200, "مائتين": 200,
    **{unit.removesuffix("ه") + hundred: value * HUNDRED for value, unit in enumerate(_ARABIC_UNITS[2:], 3)
       for hundred in ("مئه", "مائه")},
    "الف": THOUSAND, "الاف": THOUSAND, "الفان": 2 * THOUSAND, "الفين": 2 * THOUSAND,
}  # fmt: skip
_ARABIC_ORDINALS = {
    **_counting("اول ثاني ثالث رابع خامس سادس سابع ثامن تاسع عاشر", 1),
    "اولى": 1, "حادي": 1, "ثانيه": 2,
}  # fmt: skip
_ARABIC = {arabic.normalize(word): said for word, said in (_ARABIC_CARDINALS | _ARABIC_ORDINALS).items()}
_DIGIT_ORDINAL = re.compile(r"(\d+)(?:er|re|ere|eme|e|st|nd|rd|th)")
_CONNECTORS = frozenset({"et", "and", "و"})


def _latin_ordinal(word: str) -> int | None:
    """«troisième» (folded: troisieme), «trentième», «vingt et unième», «fourth», «twentieth»."""
    if word in _LATIN_ORDINALS:
        return _LATIN_ORDINALS[word]
    for ending, added in (("iemes", ""), ("ieme", ""), ("ieme", "e"), ("ieth", "y"), ("th", "")):
        base = word.removesuffix(ending) + added
        if word.endswith(ending) and base in _LATIN_CARDINALS:
            return _LATIN_CARDINALS[base]
    return None


def _arabic(word: str) -> int | None:
    """An Arabic number word, with an attached و or the article: «وعشرون», «الأول», «الحادي»."""
    for prefix in ("", "و", "ال", "وال"):
        if word.startswith(prefix) and word[len(prefix) :] in _ARABIC:
            return _ARABIC[word[len(prefix) :]]
    return None


def value(word: str) -> int | None:
    """The number one word says (a multiplier says 100 or 1000), or None when it says none."""
    if word.isdigit():
        return int(word)
    if (ordinal := _DIGIT_ORDINAL.fullmatch(word)) is not None:
        return int(ordinal.group(1))
    return _LATIN_CARDINALS.get(word) or _latin_ordinal(word) or _arabic(word)


def is_connector(word: str) -> bool:
    """«et», «and», «و» standing alone: inside a number, they join its words."""
    return word in _CONNECTORS


@dataclass
class _Number:
    thousands: int = 0
    rest: int = 0  # under a thousand
    arabic_unit: bool = False  # the last word was an Arabic unit, which its tens may follow
    written: bool = False  # in digits: no word joins it

    def joins(self, word: str, said: int, arabic: bool) -> bool:
        """Adds the word's value to the number when the place it fills is still free."""
        if said == THOUSAND and self.thousands == 0:
            self.thousands, self.rest = max(self.rest, 1) * THOUSAND, 0
        elif said == HUNDRED and self.rest < 10:
            self.rest = max(self.rest, 1) * HUNDRED
        elif word in ("vingt", "vingts") and self.rest % 10 == 4:  # quatre-vingt
            self.rest += 76
        elif self._fits(said, arabic):
            self.rest += said
        else:
            return False
        self.arabic_unit = arabic and 0 < said < 10
        return True

    def _fits(self, said: int, arabic: bool) -> bool:
        if said >= THOUSAND:
            return self.rest == 0 and self.thousands == 0
        place = HUNDRED if said >= HUNDRED else 10 if said >= 10 else 1
        if self.arabic_unit and 10 <= said < HUNDRED and said % 10 == 0:  # خمسة وعشرون, أحد عشر
            return True
        if 10 <= said < 20 and self.rest % HUNDRED in (60, 80) and not arabic:  # soixante-dix, quatre-vingt-onze
            return True
        return self.rest % (place * 10) == 0

    @property
    def total(self) -> int:
        return self.thousands + self.rest


def numbers(words: list[str]) -> list[int]:
    """The numbers a run of number words says, in order (connectors skipped); digits are a number each."""
    said: list[_Number] = []
    for word in words:
        number = value(word)
        if number is None or is_connector(word):
            continue
        written = not word.isalpha()
        if written or not said or said[-1].written or not said[-1].joins(word, number, _arabic(word) is not None):
            said.append(_Number(written=written))
            said[-1].joins(word, number, _arabic(word) is not None)
    return [number.total for number in said]
