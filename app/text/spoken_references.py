"""Reads a citation as people say it, in French, English or Arabic: «hadith 1 de Boukhari», «le premier
hadith de Sahih al-Bukhari», «Bukhari number one», «le hadith numéro 8 de Sahih Muslim», «Muslim, livre
de la foi, hadith 8», «حديث رقم واحد في صحيح البخاري», «رواه مسلم برقم ٢٥٦٤».

The words may come in any order. Each word is a number (digits, Eastern Arabic digits, number words and
ordinals: app.number_words), a filler word («hadith», «numéro», «le», «of», «رواه», «برقم» ...), a word
of a book or chapter named by its title (after «livre», «book», «kitab», «chapitre», «كتاب», «باب»: the
title is skipped, the number still names the hadith), or a word of the collection's name; the name's
words together must name one collection (app.references), and anything else means no citation.
A number said after «book» (livre, كتاب ...) is the book's: «le premier hadith du livre deux» is
hadith 1 of book 2, read as app.references reads «book 2, hadith 1» (both readings kept).
"""

from dataclasses import dataclass, field

from app.text import arabic, latin, number_words
from app.text.references import MAX_NUMBERS, Citation, collection_code, is_name_word, reading

_LATIN_FILLERS_SAID = (
    "le la les l de du des d un une the a an of in from by at for to et and number numero num "
    "no n nr nb hadith hadiths hadeeth ahadith sahih saheeh sunan jami imam rapporte par selon "
    "narrated reported recorded collected according riwayat rawahu dans quel quelle est c ce "
    "cest what is give me please read cite dis lis donne moi svp tell about say s"
)
_LATIN_FILLERS = frozenset(_LATIN_FILLERS_SAID.split())
_ARABIC_FILLERS = frozenset(
    arabic.normalize(word)
    for word in ("حديث الحديث رقم برقم الرقم في من صحيح سنن جامع رواه أخرجه خرجه الإمام الامام هو").split()  # noqa: SIM905 (a word list reads best as one string)
)
_BOOK_WORDS = frozenset({"livre", "book", "kitab", "chapitre", "chapter", "bab", "section", "كتاب", "باب"})
_ARTICLES_BEFORE_HADITH = frozenset({"un", "une", "one"})  # «un hadith de Boukhari» names no number
_HADITH_WORDS = frozenset({"hadith", "hadiths", "hadeeth", "حديث", "الحديث"})


@dataclass
class _Reading:
    """What the words of a query said, as they are read in order."""

    name: list[str] = field(default_factory=list)
    runs: list[list[str]] = field(default_factory=list)  # runs of number words, each with its role
    book_run: int | None = None  # the run said after a book word
    in_title: bool = False
    after_book: bool = False


def _words(query: str) -> tuple[list[str], bool]:
    if arabic.is_arabic(query):
        return arabic.normalize(query).split(), True
    return latin.words(query.translate(arabic.DIGITS)), False


def _is_number(word: str, following: str | None) -> bool:
    if word in _ARTICLES_BEFORE_HADITH and following in _HADITH_WORDS:
        return False
    return number_words.value(word) is not None or (word[:1].isdigit() and word[-1:].isalpha() and len(word) > 1)


def _number(said: _Reading, word: str, before: str | None) -> None:
    continues = said.runs and before is not None and (_is_number(before, word) or number_words.is_connector(before))
    if not continues:
        if said.after_book:
            said.book_run = len(said.runs)
        said.runs.append([])
    said.runs[-1].append(word)
    said.in_title = said.after_book = False


def _read(words: list[str], in_arabic: bool) -> _Reading:
    said = _Reading()
    fillers = _ARABIC_FILLERS if in_arabic else _LATIN_FILLERS
    for index, word in enumerate(words):
        before = words[index - 1] if index else None
        following = words[index + 1] if index + 1 < len(words) else None
        if _is_number(word, following):
            _number(said, word, before)
        elif word in _BOOK_WORDS:
            said.in_title = said.after_book = True
        elif word in fillers or number_words.is_connector(word):
            said.in_title = said.in_title and word not in _HADITH_WORDS
        elif not said.in_title or is_name_word(word, in_arabic):
            said.name.append(word)
            said.in_title = said.after_book = False
    return said


def _numbers(said: _Reading) -> list[str] | None:
    """The numbers, the book's first; None when a run is no number (a letter after a spoken number)."""
    runs = [said.runs[said.book_run]] if said.book_run is not None else []
    runs += [run for index, run in enumerate(said.runs) if index != said.book_run]
    numbers: list[str] = []
    for run in runs:
        if len(run) == 1 and not number_words.value(run[0]):
            numbers.append(run[0])  # a lettered number: 8a
        else:
            numbers += [str(number) for number in number_words.numbers(run)]
    return numbers


def spoken_citation(query: str) -> Citation | None:
    """The citation a spoken query names, or None when it is not a citation."""
    words, in_arabic = _words(query)
    said = _read(words, in_arabic)
    code = collection_code(" ".join(said.name), in_arabic) if said.name else None
    numbers = _numbers(said) if code else None
    if code is None or not numbers or len(numbers) > MAX_NUMBERS:
        return None
    if code.endswith("40") and len(numbers) > 1 and numbers[0] == "40":  # «les quarante hadiths de Nawawi»
        numbers = numbers[1:]
    return reading(code, numbers)
