"""What a rijal notice and a narrator's record say alike, besides the name: the evidence a link needs.

A name alone never makes a link LINKED (ingest.rijal). The independent evidence read here, in order:
- tabaqa: the notice's tabaqa is the dataset's generation (Taqrib; the generation is Ibn Hajar's);
- death year: the year the notice gives («مات 236» in al-Kashif and al-Mughni, where «مات 25» is
  250; «مات سنة ست وثلاثين» in Taqrib, which often leaves out the hundreds) is the dataset's within
  DEATH_YEAR_TOLERANCE years (the sources give the same man's death a year or two apart: Harmala b.
  Yahya 243 in al-Kashif, 244 in the dataset);
- teacher or student: a teacher or student of the narrator (in the dataset's student lists, or next
  to him in a chain) is named in the notice, by a name of at least two words («حماد بن زيد», «أبو
  إسحاق السبيعي»; a lone given name is too common to count);
- sigla: the notice's sigla name a collection in whose chains the narrator occurs (for al-Kashif and
  al-Mughni: a book of the sigla of his LINKED Taqrib notice, ingest.rijal).
A notice contradicts the record when its tabaqa differs from the dataset's generation, or its death
year from the dataset's by more than DEATH_YEAR_CONFLICT years (a generation apart; closer years are
reports that differ, as Ibn 'Ajlan's 138 in al-Kashif and 148 in the dataset).

A notice that denies an identity («عمر بن يونس وليس باليمامي», «وليس هو النخعي», «وهو غير يزيد
الفارسي») is never linked to a narrator one of whose names has a denied word (denied_words): his dataset name, and
for al-Kashif and al-Mughni the headword of his LINKED Taqrib notice ('Umar b. Yunus's dataset name
stops at «بن القاسم»; Taqrib gives «اليمامي»).
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.text.arabic import name_key, normalize
from ingest.sigla import SIGLA, notice_collections
from ingest.verdicts import own_text

_DIGIT_DEATH = re.compile(r"(?:مات|توفي|قتل|استشهد)\D{0,12}?(\d{2,3})(?!\d)")
_WORD_DEATH = re.compile(r"(?:مات|توفي|قتل|استشهد)(?: \S+){0,3}? سنة ((?:\S+ ?){1,4})")
_UNITS = {"احدي": 1, "واحد": 1, "اثنتين": 2, "اثنين": 2, "ثنتين": 2, "ثلاث": 3, "اربع": 4, "خمس": 5}
_UNITS |= {"ست": 6, "سبع": 7, "ثمان": 8, "ثماني": 8, "تسع": 9}
_TENS = {"عشر": 10, "عشره": 10, "عشرين": 20, "ثلاثين": 30, "اربعين": 40, "خمسين": 50, "ستين": 60}
_TENS |= {"سبعين": 70, "ثمانين": 80, "تسعين": 90}
_HUNDREDS = {"مايه": 100, "ميه": 100, "مايتين": 200, "ثلاثمايه": 300, "اربعمايه": 400}
_OR = frozenset({"او", "يقال", "قيل"})
CENTURY = 100
CENTURIES = 5
DEATH_YEAR_TOLERANCE = 2
DEATH_YEAR_CONFLICT = 20
DENIALS = (
    re.compile(r"(?<!\S)وليس بـ?(ال\S+)"),
    re.compile(r"(?<!\S)(?:و?ليس هو|وهو غير) (?!ب)(\S+(?: \S+){0,2})"),
)
# «وليس بالقوي», «وليس بالمتين» ... are verdicts, not denials.
VERDICT_ADJECTIVES = frozenset(
    normalize(word)
    for word in ("القوي", "المتين", "الحافظ", "الثبت", "المكثر", "المعروف", "المرضي", "المشهور", "الحجة")
)
# Words after a denial that name no one: kunya and relational words, «عبد» and «الله» of a compound
# name, pronouns and particles, the book sigla.
_NOT_DENIED = frozenset({"هو", "بن", "ابو", "ام", "عم", "عبد", "الله", "الذي", "ذا", "ذاك", "عن", "له", "قبله"}) | SIGLA


@dataclass(frozen=True)
class Record:
    """What the import knows of a narrator apart from the notice: the dataset's generation and death
    year, the collections of his chains, the names of his teachers and students (app.text.arabic.name_key)."""

    name: str
    generation: int | None
    death_year: int | None
    collections: frozenset[str]
    related_names: frozenset[str]


def _number_words(words: str) -> tuple[int, bool] | None:
    """«ست وثلاثين» -> (36, False); «خمس وعشرين ومائة» -> (125, True); of two readings («سبع أو ثمان
    وثلاثين», «اثنتين ويقال ثلاث وأربعين») the second, whose tens the first shares; of two hundreds
    (the editor's «ومائة [ومائتين]») the last. None when unread."""
    units, tens, hundreds = 0, 0, None
    for written in normalize(words).split():
        word = written if written in _UNITS or written in _TENS else written.removeprefix("و")
        if word in _OR:
            units = 0
        elif word in _UNITS:
            units = _UNITS[word]
        elif word in _TENS:
            tens += _TENS[word]
        elif word in _HUNDREDS:
            hundreds = _HUNDREDS[word]
        else:
            break
    year = units + tens + (hundreds or 0)
    return (year, hundreds is not None) if year else None


def death_years(text: str) -> tuple[int, ...]:
    """The years a notice's death date can be: a number of three digits as written; one of two digits
    as written or with the zero that the al-Kashif edition drops («مات 25» is 250); a year in words
    without its hundreds in each of the first centuries."""
    own = own_text(text)
    digits = _DIGIT_DEATH.search(own)
    if digits:
        year = int(digits.group(1))
        return (year,) if year >= CENTURY else (year, year * 10)
    words = _WORD_DEATH.search(own)
    read = _number_words(words.group(1)) if words else None
    if read is None:
        return ()
    year, hundreds = read
    return (year,) if hundreds else tuple(year + CENTURY * century for century in range(CENTURIES))


def denied_words(text: str) -> set[str]:
    """The words by which a notice denies an identity: the nisba after «وليس بـ» (not a verdict such as
    «وليس بالقوي»), the three words after «وليس هو» / «وهو غير» (not «ليس هو بثقة»), less the words
    the notice itself used before them («مسعود ابن مالك أبو رزين ... وهو غير
    أبي رزين عبيد» denies «عبيد», not «رزين») and less kunya and relational words."""
    own = own_text(text)
    denied: set[str] = set()
    for match in (match for denial in DENIALS for match in denial.finditer(own)):
        before = set(name_key(own[: match.start()]).split())
        denied |= set(name_key(match.group(1)).split()) - before - _NOT_DENIED - VERDICT_ADJECTIVES
    return denied


def _before_denials(name: str) -> str:
    """A name up to any denial it carries (Taqrib's derived headword «يوسف ابن مهران البصري وليس هو يوسف
    ابن ماهك ذاك» runs into one)."""
    starts = [match.start() for denial in DENIALS if (match := denial.search(name))]
    return name[: min(starts)] if starts else name


def denies(text: str, names: Iterable[str]) -> bool:
    """The notice denies that it is the man of these names: a word it denies is a word of one of them."""
    words = {word for name in names for word in name_key(_before_denials(name)).split()}
    return bool(denied_words(text) & words)


def short_name(name: str) -> str | None:
    """A name as the notices cite a teacher: «X بن Y» or «أبو X ...» (two or three words); None for a
    name that starts otherwise (a lone given name is too common to identify anyone)."""
    words = name_key(name).split()
    if len(words) >= 3 and words[1] == "بن":
        return " ".join(words[:3])
    if len(words) >= 2 and words[0] in ("ابو", "ام"):
        return " ".join(words[:2])
    return None


def _year_gap(years: tuple[int, ...], dataset: int) -> int:
    return min(abs(year - dataset) for year in years)


def agreement(text: str, tabaqa: int | None, record: Record) -> str | None:
    """The first independent piece of evidence that the notice and the record share, or None."""
    died = death_years(text)
    cited = f" {name_key(own_text(text))} "
    if tabaqa is not None and tabaqa == record.generation:
        return "tabaqa"
    if died and record.death_year and _year_gap(died, record.death_year) <= DEATH_YEAR_TOLERANCE:
        return "death_year"
    if any(f" {name} " in cited for name in record.related_names):
        return "teacher_or_student"
    if notice_collections(text) & record.collections:
        return "sigla"
    return None


def contradiction(text: str, tabaqa: int | None, record: Record) -> str | None:
    """The notice's tabaqa or death year, where both sides give it and they differ."""
    died = death_years(text)
    if tabaqa is not None and record.generation is not None and tabaqa != record.generation:
        return "tabaqa"
    if died and record.death_year and _year_gap(died, record.death_year) > DEATH_YEAR_CONFLICT:
        return "death_year"
    return None
