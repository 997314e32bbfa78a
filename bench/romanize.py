"""Diacritised Arabic written in Latin letters, as people write it, in three styles: `academic` (ā ḥ ṣ ʿ, the
case endings said, the article joined by hyphens: «innamā al-aʿmālu bi-n-niyyāti»), `plain` (ASCII, ' for ʿ,
long vowels as short ones, the last word without its case ending: «innama al-a'malu bin-niyyat») and `chat`
(French spellings ou, ch, dj, the digits 3 7 2, words glued as said: «innama la3malou binniyat»). In every
style, the relative pronouns and اللهم are written as everyone writes them («alladhī», «wallatī»,
«allahumma»), and an alif and lam that carry a vowel are no article («wālahu» وَالاَهُ).

Used by bench/speech_queries.py to write romanized queries from real hadith text: never by the API, whose
reading goes the other way (app/text/transliteration.py).
"""

from app.text import arabic

FATHA, DAMMA, KASRA, SUKUN, SHADDA = "\u064e", "\u064f", "\u0650", "\u0652", "\u0651"
TANWIN = {"\u064b": "an", "\u064c": "un", "\u064d": "in"}
VOWELS = {FATHA: "a", DAMMA: "u", KASRA: "i"}
LONG = {FATHA: ("ا", "ى"), DAMMA: ("و",), KASRA: ("ي",)}
SUN = set("تثدذرزسشصضطظلن")
STYLES = ("academic", "plain", "chat")
_LETTERS = {  # letter -> (academic, plain, chat)
    "ب": ("b", "b", "b"), "ت": ("t", "t", "t"), "ث": ("th", "th", "th"), "ج": ("j", "j", "dj"),
    "ح": ("ḥ", "h", "7"), "خ": ("kh", "kh", "kh"), "د": ("d", "d", "d"), "ذ": ("dh", "dh", "dh"),
    "ر": ("r", "r", "r"), "ز": ("z", "z", "z"), "س": ("s", "s", "s"), "ش": ("sh", "sh", "ch"),
    "ص": ("ṣ", "s", "s"), "ض": ("ḍ", "d", "d"), "ط": ("ṭ", "t", "t"), "ظ": ("ẓ", "z", "dh"),
    "ع": ("ʿ", "'", "3"), "غ": ("gh", "gh", "gh"), "ف": ("f", "f", "f"), "ق": ("q", "q", "q"),
    "ك": ("k", "k", "k"), "ل": ("l", "l", "l"), "م": ("m", "m", "m"), "ن": ("n", "n", "n"),
    "ه": ("h", "h", "h"), "ة": ("t", "t", "t"), "و": ("w", "w", "w"), "ي": ("y", "y", "y"),
    "ء": ("ʾ", "'", "2"), "أ": ("ʾ", "'", "2"), "إ": ("ʾ", "'", "2"), "ؤ": ("ʾ", "'", "2"), "ئ": ("ʾ", "'", "2"),
    "آ": ("ʾā", "a", "a"), "ا": ("", "", ""), "ٱ": ("", "", ""), "ى": ("", "", ""),
}  # fmt: skip
ALLAH = {  # Allah's name, and the prayer made of it, as everyone writes them
    "الله": "allah", "والله": "wallah", "بالله": "billah", "لله": "lillah", "فالله": "fallah", "تالله": "tallah",
    "اللهم": "allahumma",
}  # fmt: skip
_LONG_VOWELS = {"a": ("ā", "a", "a"), "i": ("ī", "i", "i"), "u": ("ū", "u", "ou")}
_SHORT = {"a": ("a", "a", "a"), "i": ("i", "i", "i"), "u": ("u", "u", "ou")}


def _units(word: str) -> list[tuple[str, str]]:
    """The word as (letter, marks) pairs."""
    units: list[tuple[str, str]] = []
    for char in word:
        if char in _LETTERS:
            units.append((char, ""))
        elif units:
            units[-1] = (units[-1][0], units[-1][1] + char)
    return units


def _vowel(marks: str) -> str | None:
    return next((VOWELS[mark] for mark in marks if mark in VOWELS), None)


def _article(units: list[tuple[str, str]], style: int) -> tuple[str, int]:
    """The word's proclitic and article, as said («al-», «an-», «wa-l-», «bi-n-»), and the units they take. An
    alif and a lam that carry a vowel, or a lam before an alif, are no article («wālāhu» وَالاَهُ); a lam that
    carries a shadda is the article's and the word's, said as one, as people write it («alladhī», «wallatī»)."""
    start = 1 if len(units) > 3 and units[0][0] in "وفبك" and _vowel(units[0][1]) else 0
    if len(units) - start < 3 or units[start][0] not in "اٱ" or units[start + 1][0] != "ل":
        return "", 0
    proclitic = _LETTERS[units[0][0]][style] + _vowel(units[0][1]) if start else ""  # type: ignore[operator]
    if SHADDA in units[start + 1][1]:
        return proclitic or "a", start + 1
    if _vowel(units[start][1] + units[start + 1][1]) or units[start + 2][0] in "اى":
        return "", 0
    said = proclitic + "-" if start else ""
    moon = units[start + 2][0] not in SUN
    article = "l-" if moon else _LETTERS[units[start + 2][0]][style] + "-"
    return said + ("" if start else "a") + article, start + 2


def _said_after(letter: str, marks: str, style: int, at_pause: bool, inside: bool) -> str:
    """What is said after a letter: its short vowel or tanwin, nothing at a pause (plain and chat styles), a
    long a after an alif inside the word."""
    vowel = _vowel(marks)
    tanwin = next((TANWIN[mark] for mark in marks if mark in TANWIN), None)
    if at_pause:
        return "an" if tanwin == "an" and style == 1 else ""
    if tanwin:
        return ("a" if letter == "ة" and style > 0 else "") + tanwin.replace("u", _SHORT["u"][style])
    if vowel:
        return _SHORT[vowel][style]
    return _LONG_VOWELS["a"][style] if letter in "اى" and inside else ""


def _is_long(marks: str, following: tuple[str, str] | None) -> bool:
    """A short vowel followed by its unmarked letter (ا ى after a fatha, و after a damma, ي after a kasra)."""
    vowel = _vowel(marks)
    return (
        following is not None
        and vowel is not None
        and following[0] in LONG[_mark_of(vowel)]
        and not _vowel(following[1])
    )


def romanize_word(word: str, style: int, last: bool) -> str:
    """One diacritised word in a style (an index of STYLES); `last`: the last word of a phrase, whose case
    ending the plain and chat styles drop."""
    if (allah := ALLAH.get(arabic.normalize(word))) is not None:
        return allah
    units = _units(word)
    said, index = _article(units, style)
    if said and index < len(units) and units[index][0] in SUN and units[index - 1][0] == "ل":  # said once: an-nas
        units[index] = (units[index][0], units[index][1].replace(SHADDA, ""))
    out, first = [said], index
    while index < len(units):
        letter, marks = units[index]
        following = units[index + 1] if index + 1 < len(units) else None
        at_pause = last and style > 0 and (following is None or (following[0] in "اى" and not following[1]))
        consonant = (
            "" if (index == first and letter in "اىٱأإ") or (at_pause and letter == "ة") else _LETTERS[letter][style]
        )
        out.append(consonant * (2 if SHADDA in marks else 1))
        if _is_long(marks, following):
            out.append(_LONG_VOWELS[_vowel(marks) or "a"][style])
            index += 2
            continue
        if "\u0670" in marks:  # the dagger alif: a long a (Allah)
            out.append(_LONG_VOWELS["a"][style])
        if "\u064b" in marks and following is not None and following[0] in "اى":
            index += 1  # the alif that carries the accusative ending
        out.append(_said_after(letter, marks, style, at_pause, index > first))
        index += 1
    return "".join(out)


def _mark_of(vowel: str) -> str:
    return {"a": FATHA, "u": DAMMA, "i": KASRA}[vowel]


def romanize(phrase: str, style: str) -> str:
    """A diacritised phrase in a style of STYLES."""
    words = phrase.split()
    index = STYLES.index(style)
    said = [romanize_word(word, index, last=position == len(words) - 1) for position, word in enumerate(words)]
    joined = " ".join(word for word in said if word)
    return joined.replace("-", "") if style == "chat" else joined
