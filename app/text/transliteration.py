"""Arabic written in Latin letters, read back into Arabic: «innama al-a'malu bin-niyyat», «ad-dinu
an-nasiha», «la darara wa la dirar», «inna Allaha jamīlun yuḥibbu al-jamāl».

The spellings people and speech recognisers use are all read: academic transliteration with or without
its diacritics (ḥ ṣ ḍ ṭ ẓ ā ī ū ʿ ʾ), plain ASCII, the digits of chat Arabic (3 ع, 7 ح, 2 ء, 5 خ, 9 ق),
French spellings (ou, ch, dj, e). `reading` splits a query into Arabic words: the attached words said
apart (wa-, fa-, bi-, li-, ka-, the article al-/el- and its sun-letter forms an-n, ash-sh, ad-d; «bin-
niyyat» is bi + an-niyyat; «rasulullah», «lillahi» end with Allah's name; wa-/fa-/bi- glued to a hamza,
«wa'ana», «fa2idha»), and gives each word's stem its candidate spellings in Arabic letters, each with a
cost: doubled consonants written once (shadda), a vowel either left unwritten (short) or written as its
long letter (ا ي و), a letter that several Arabic letters share read as each (h: ه ح, s: س ص, t: ت ط, d:
د ض, z: ز ظ ذ, k: ك ق), a word-initial vowel as alif, the endings -a/-ah/-at as ta marbuta, -a/-ā as
alif, alif maqsura or hamza (ḥayāʾ, ḥattā), -an as the accusative alif, -un/-in (tanwin) dropped, a pronoun
suffix (-huma, -hum, -ha, -na ...) as its own spelling. Where a reading may go two ways, both are kept and
the vocabulary chooses: the article's lam and the word's written once or twice («alladhi» الذي, «al-layl»
الليل), «al» and a vowel as the article or the word's own letters («alanbiya'i», «alayhi»), a word's last
letter as the next word's article or its own («innamal a'malu», «al-halal bayyin»). Only the BEAM cheapest
candidates of a word are kept, among equal costs those that read each letter its likeliest way (the order
of its readings); the search keeps those the corpus's vocabulary holds (resolvers/romanized.py), so that
only real words survive. A query of more than MAX_LETTERS letters is not read (the reading's time grows
with its letters), nor a word of more than MAX_WORD_LETTERS.

`latin_signs` counts the words that show a query is French or English rather than Arabic: letters
Arabic transliteration never uses (p, v, x, c outside ch), French accents (é è ê ç), and the function
words of French and English (which also read as Arabic words only by chance: «la», «man», «in»).
"""

import heapq
import itertools
import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

from app.text import arabic

BEAM = 128  # candidate spellings kept per word, the cheapest first
MAX_LETTERS = 100  # a longer query is not read as Arabic (the famous sayings have under 70 letters)
MAX_WORD_LETTERS = 20  # a longer word has no Arabic spelling
ALLAH = "ALLAH"  # the stem of Allah's name, glued or not («rasulullah», «lillahi»)
_ACADEMIC = str.maketrans(
    {
        "ā": "A", "â": "A", "á": "A", "ī": "I", "î": "I", "í": "I", "ū": "U", "û": "U", "ú": "U", "ô": "U",
        "ḥ": "7", "ṣ": "S", "ḍ": "D", "ṭ": "T", "ẓ": "Z", "ḏ": "V", "ṯ": "C", "š": "W", "ǧ": "j", "ġ": "G",
        "ḫ": "5", "ẖ": "5", "ʿ": "3", "ʽ": "3", "‘": "3", "`": "3", "ʾ": "2", "ʼ": "2", "’": "'", "ʻ": "3",
    }
)  # fmt: skip
# The internal alphabet: lower-case ASCII as people write it; upper-case letters and digits name one
# Arabic letter each (A I U long vowels, S D T Z emphatics, V ذ, C ث, W ش, G غ).
_EXACT = {
    "A": "ا", "I": "ي", "U": "و", "S": "ص", "D": "ض", "T": "ط", "Z": "ظ", "V": "ذ", "C": "ث", "W": "ش",
    "G": "غ", "3": "ع", "7": "ح", "5": "خ", "9": "ق", "6": "ط",
}  # fmt: skip
# (spelling, [(Arabic, cost)]): the longest spelling at a position is read first.
_CONSONANTS: dict[str, list[tuple[str, int]]] = {
    "sh": [("ش", 0)], "ch": [("ش", 0)], "kh": [("خ", 0)], "gh": [("غ", 0)], "th": [("ث", 0), ("ت", 1)],
    "dh": [("ذ", 0), ("ض", 0), ("ظ", 0)], "dj": [("ج", 0)], "aa": [("ا", 0)], "ii": [("ي", 0)], "ee": [("ي", 0)],
    "uu": [("و", 0)], "oo": [("و", 0)], "ou": [("و", 0), ("", 0)],
    "b": [("ب", 0)], "t": [("ت", 0), ("ط", 0)], "j": [("ج", 0)], "g": [("ج", 1), ("غ", 1)],
    "h": [("ه", 0), ("ح", 0)], "d": [("د", 0), ("ض", 0)], "r": [("ر", 0)], "z": [("ز", 0), ("ظ", 0), ("ذ", 0)],
    "s": [("س", 0), ("ص", 0)], "f": [("ف", 0)], "q": [("ق", 0)], "k": [("ك", 0), ("ق", 0)], "l": [("ل", 0)],
    "m": [("م", 0)], "n": [("ن", 0)], "w": [("و", 0)], "y": [("ي", 0)], "'": [("ع", 0), ("ا", 0), ("ء", 0), ("", 2)],
    "2": [("ا", 0), ("ء", 0), ("", 0), ("ي", 1)], "u'": [("و", 0), ("وع", 1), ("ع", 1)],
    "i'": [("ي", 0), ("يع", 1), ("ع", 1)], "u2": [("و", 0)], "i2": [("ي", 0)],
}  # fmt: skip
_VOWELS = {"a": "ا", "i": "ي", "u": "و", "e": "ي", "o": "و"}
_ENDINGS = (  # (ending, [(Arabic, cost)]), tried on the stem's end before the letters
    (re.compile(r"(?<=[^aeiou_])at$"), [("ات", 0), ("ه", 1), ("ت", 1)]),
    (re.compile(r"(?<=[^aeiou_])(?:atun|atan|atin|atu|ati|ata|ah|eh)$"),
     [("ه", 0), ("ات", 1), ("ت", 1), ("", 1), ("ا", 1)]),
    (re.compile(r"(?<=[^aeiou_])(?:a|e)$"), [("ه", 0), ("", 0), ("ا", 0), ("ي", 0), ("اء", 0)]),
    (re.compile(r"A$"), [("ا", 0), ("ي", 0), ("اء", 0)]),
    (re.compile(r"(?<=[^aeiou_])(?:u|ou)$"), [("", 0), ("و", 0), ("وا", 1)]),
    (re.compile(r"(?<=[^aeiou])(?:un|on|oun)$"), [("", 0), ("ون", 0), ("ن", 1)]),
    (re.compile(r"(?<=[^aeiou])(?:in|ine)$"), [("", 0), ("ين", 0), ("ن", 1)]),
    (re.compile(r"(?<=[^aeiou])an$"), [("ا", 0), ("ان", 0), ("", 1)]),
)  # fmt: skip
_PRONOUNS = {  # the pronoun suffixes whose vowels a letter-by-letter reading spells least likely
    "huma": "هما", "kuma": "كما", "hunna": "هن", "kunna": "كن", "hum": "هم", "kum": "كم", "ha": "ها", "na": "نا",
}  # fmt: skip
_PRONOUN = re.compile(r"(?<=[aiuy])(?:" + "|".join(sorted(_PRONOUNS, key=len, reverse=True)) + ")$")
_SAID_APART = {
    "wa": "و", "fa": "ف", "bi": "ب", "li": "ل", "ka": "ك", "al": "ال", "el": "ال", "il": "ال",
    "wal": "وال", "bil": "بال", "fal": "فال", "lil": "لل",
}  # fmt: skip
_PREFIXES = {"wa": "و", "w": "و", "fa": "ف", "f": "ف", "bi": "ب", "b": "ب", "li": "ل", "la": "ل", "ka": "ك"}
_ARTICLE = re.compile(r"^(?:a|e|i|u)?l$|^(?:a|e)?([tdrzsnlTDSZ]|th|dh|sh|ch)$")
_SUN = re.compile(r"^(wa|fa|bi|li|ka)?(?:a|e)?([tdrzsnTDSZ]|th|dh|sh|ch)\2(?=[a-zA-Z'2357]{2})")
_GLUED_ARTICLE = re.compile(r"^(?:(wa|fa|bi|li|ka)?(?:a|e)?l)(?=[b-df-hj-np-tv-zA-Z'2357][a-zA-Z'2357]{2})")
_VOWEL_ARTICLE = re.compile(r"^[ae]l(?=[aeiouAIU'2][a-zA-Z'2357]{2})")
_HAMZA_CLITIC = re.compile(r"^(?:wa|fa|bi|li|ka)(?=['2][aeiouAIU])")
_ALLAH = re.compile(r"^(.*?)[aiue]?ll+(?:aa?|A)h[aiu]?$")
_WORD = re.compile(r"[a-zA-Z'23579-]+")
_DOUBLED = re.compile(r"(sh|ch|th|dh|kh|gh|dj|[b-df-hj-np-tv-zBCDGSTVWZ37593])\1")
_BEFORE_DOUBLED = re.compile(
    r"([aeiou])(?=(sh|ch|th|dh|kh|gh|dj|[b-df-hj-np-tv-z])\2)"
)  # a vowel before a shadda is short: birr
_FRENCH_LETTERS = re.compile("[éèêëçœæùàÿ]")
_ELIDED = re.compile(r"\b(?:l|d|j|m|n|s|t|c|qu)['’](?=[^\W\d_])")  # French elision: l'islam, d'Allah, qu'il
_ARABIC_FUNCTION_WORDS = frozenset({"la", "ma", "man", "in", "an", "ya", "wa"})
_NOT_ARABIC = re.compile(r"[pvx]|c(?!h)|tion|ment$|ing$|ness$")
_LATIN_FUNCTION_WORDS_SAID = (
    "le la les un une des du de au aux et ou est sont ce cet cette ces qui que quoi dont il "
    "elle ils elles on nous vous je tu me te se mon ma mes ton ta tes son sa ses leur leurs en "
    "dans par pour sur avec sans sous entre pas ne plus tout tous toute toutes mais donc car si "
    "comme quand tres bien aussi a y dit fait the an of and or to in on at by for with from is "
    "are was were be been it its he she they we you his her their our your this that these "
    "those what which who whom how when where why not no all any some one about into than then "
    "so as do does did has have had will would shall should can could may might must said says "
    "say moi toi lui eux nos vos notre votre ceux celle celui ainsi alors chez vers selon depuis "
    "pendant apres avant encore deja jamais rien chaque autre autres meme peu him them my us"
)
_LATIN_FUNCTION_WORDS = frozenset(_LATIN_FUNCTION_WORDS_SAID.split())


@dataclass(frozen=True)
class ArabicWord:
    """A word of the query read as Arabic: its prefixes (و ف ب ك ل, the article), the Latin spelling of its
    stem, and the stem's candidate spellings in Arabic letters with their costs, cheapest first."""

    prefixes: str
    latin: str
    candidates: tuple[tuple[str, int], ...]


def _internal(query: str) -> str:
    text = unicodedata.normalize("NFC", query.lower()).translate(_ACADEMIC)
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@dataclass(frozen=True)
class LatinSigns:
    """What shows that a query is French or English: words spelled with letters Arabic transliteration never
    uses, and the share of its words that are French or English function words (those that are also Arabic
    words, «la», «ma», «man», «in», «an», count for neither)."""

    spelled: int
    function_share: float


def is_function_word(word: str) -> bool:
    """Whether a word is a French or English function word that is no Arabic word too."""
    return word in _LATIN_FUNCTION_WORDS and word not in _ARABIC_FUNCTION_WORDS


def latin_signs(query: str) -> LatinSigns:
    """The signs that the query is French or English (see LatinSigns)."""
    words = re.findall(r"[^\W\d_]+", query.lower())
    spelled = sum(bool(_FRENCH_LETTERS.search(word) or _NOT_ARABIC.search(_internal(word))) for word in words)
    function = sum(is_function_word(_internal(word)) for word in words) + len(_ELIDED.findall(query.lower()))
    return LatinSigns(spelled, function / max(len(words), 1))


RANKS = 256  # a spelling's key is cost * RANKS + rank: the rank (under RANKS) orders spellings of equal cost
Ranked = dict[str, int]  # spelling -> key


@lru_cache(maxsize=1 << 12)
def _spellings(stem: str) -> tuple[tuple[str, int], ...]:
    """The cheapest BEAM spellings of a stem in Arabic letters, with their costs; among spellings of equal
    cost, those that read each letter its likeliest way first."""
    if stem == ALLAH:
        return (("الله", 0),)
    if len(stem) > MAX_WORD_LETTERS:
        return ()
    ranked = _ranked(_DOUBLED.sub(r"\1", _BEFORE_DOUBLED.sub(r"\1_", stem.replace("ou", "u"))))
    kept = heapq.nsmallest(BEAM, ((key, form) for form, key in ranked.items()))
    return tuple((form, key // RANKS) for key, form in kept)


def _ranked(stem: str) -> Ranked:
    """The spellings of a stem (shadda and «ou» already read): letter by letter, the ending read as a whole; a
    pronoun suffix (-huma, -ha, -kum ...) also read as its own spelling after the spellings of what it follows
    («ra'aytumuhuma»: رأيتمو + هما), so that a long verb form keeps its spelling within the beam."""
    ranked = _letters(stem)
    if (suffix := _PRONOUN.search(stem)) is not None and suffix.start() >= 3:
        for form, key in _letters(stem[: suffix.start()]).items():
            ranked[form + _PRONOUNS[suffix.group()]] = min(key, ranked.get(form + _PRONOUNS[suffix.group()], key))
    return ranked


def _letters(stem: str) -> Ranked:
    """The BEAM cheapest spellings of a stem read letter by letter, its ending as a whole (_ENDINGS)."""
    ending, endings = stem, [("", 0)]
    for pattern, options in _ENDINGS:
        if (found := pattern.search(stem)) is not None and found.start() >= 2:
            ending, endings = stem[: found.start()], options
            break
    beam: list[tuple[int, str]] = [(0, "")]
    position = 0
    while position < len(ending):
        size, options = _options(ending, position)
        grown: Ranked = {}
        for key, text in beam:
            for letter, step in _steps(options):
                grown[text + letter] = min(key + step, grown.get(text + letter, key + step))
        beam = heapq.nsmallest(BEAM, ((key, text) for text, key in grown.items()))
        position += size
    best: Ranked = {}
    for key, text in beam:
        for letter, step in _steps(endings):
            if form := arabic.normalize(text + letter):
                best[form] = min(key + step, best.get(form, key + step))
    return best


def _steps(options: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Each reading of a letter with what it adds to a spelling's key: its cost, and its order as the rank."""
    return [(letter, cost * RANKS + order) for order, (letter, cost) in enumerate(options)]


def _options(stem: str, position: int) -> tuple[int, list[tuple[str, int]]]:
    """What the spelling at `position` may be in Arabic letters: (letters read, [(Arabic, cost)])."""
    char, pair = stem[position], stem[position : position + 2]
    if char in _EXACT:  # a long vowel that starts the word follows its alif: īmān
        return 1, [(("ا" if position == 0 and char in "IU" else "") + _EXACT[char], 0)]
    if pair in _CONSONANTS:
        return 2, _CONSONANTS[pair]
    if char in _VOWELS:
        return _vowel(stem, position)
    return 1, _CONSONANTS.get(char, [("", 2)])


def _vowel(stem: str, position: int) -> tuple[int, list[tuple[str, int]]]:
    """A vowel: at the start, its alif (or ʿayn); short before a doubled consonant (marked «_»); else written
    as its long letter or not at all."""
    char = stem[position]
    if stem[position + 1 : position + 2] == "_":
        return 2, [("ا", 0)] if position == 0 else [("", 0), (_VOWELS[char], 2)]
    if position == 0:
        return 1, [("ا", 0), ("ع", 1)] + ([("ا" + _VOWELS[char], 0)] if char != "a" else [])
    return 1, [("", 0), (_VOWELS[char], 0)]


def _split(token: str) -> list[tuple[str, str]]:
    """A token as (prefixes in Arabic, stem in Latin) words: its hyphenated clitics, the article, Allah."""
    parts = [part for part in token.split("-") if part]
    words: list[tuple[str, str]] = []
    prefix = ""
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if not last and (part in _PREFIXES or _ARTICLE.match(part) or part in ("bil", "wal", "fil", "lil", "bin")):
            prefix += _clitic(part)
            continue
        words += _allah(prefix, part)
        prefix = ""
    return words


def _clitic(part: str) -> str:
    if part in _PREFIXES:
        return _PREFIXES[part]
    if part in ("bil", "bin"):
        return "بال"
    if part in ("wal", "fil", "lil"):
        return {"wal": "وال", "fil": "في ال", "lil": "لل"}[part]
    return "ال"


def _allah(prefix: str, part: str) -> list[tuple[str, str]]:
    """«rasulullah» -> rasul + Allah, «lillahi» -> لله, «billahi» -> بالله."""
    found = _ALLAH.match(part)
    if found is None:
        return [_article(prefix, part)]
    before = found.group(1)
    if before in ("", "a", "al", "el"):
        return [(prefix, ALLAH)]
    if before in ("l", "li"):
        return [(prefix + "ل", ALLAH)]
    if before.endswith("l") and len(before) > 2:  # «alhamdulillah»: al-hamdu li-llah
        return [_article(prefix, before[:-1]), ("ل", ALLAH)]
    if before in _PREFIXES or before in ("wal", "bil", "lil", "fil"):
        return [(prefix + _PREFIXES.get(before, _PREFIXES.get(before[:1], "")), ALLAH)]
    return [_article(prefix, before), ("", ALLAH)]


def _article(prefix: str, part: str) -> tuple[str, str]:
    """The article glued to the word: «annasiha», «ad-din», «wal-yawmi», «ennasiha»; wa-, fa-, bi-, li-, ka-
    glued to a word that starts with a hamza: «wa'ana», «fa2idha», «bi'anna»."""
    if (clitic := _HAMZA_CLITIC.match(part)) is not None:
        return prefix + _PREFIXES[clitic.group()], part[clitic.end() :]
    if (sun := _SUN.match(part)) is not None:
        return prefix + _PREFIXES.get(sun.group(1) or "", "") + "ال", part[sun.start(2) :]
    if (glued := _GLUED_ARTICLE.match(part)) is not None:
        return prefix + _PREFIXES.get(glued.group(1) or "", "") + "ال", part[glued.end() :]
    return prefix, part


def _liaisons(tokens: list[str]) -> tuple[list[str], dict[int, str]]:
    """The article said with the word before it, given back to its word: «yawmil akhir» -> yawmi al-akhir,
    «innamal a'malu», «bismillahir rahmanir rahim» -> ... ar-rahmani ar-rahim; and, for a word that may as
    well end in that letter itself («al-halal bayyin»), the word as said, by its place."""
    out, said = list(tokens), {}
    for index in range(len(out) - 1):
        word, following = out[index], out[index + 1]
        short = word[:-1] in ("fi", "bi", "li", "wa", "fa", "ala", "'ala", "3ala", "ila", "'an", "3an")
        if (len(word) < 4 and not short) or word[-2] not in "aiu" or following.startswith(("al", "el", "allah")):
            continue
        if word[-1] == "l" and following[0] in "aeioubjhkgfqmwy'3725":  # the moon letters
            out[index], out[index + 1] = word[:-1], "al-" + following
        elif word[-1] in "tdrzsn" and following[0] == word[-1]:
            out[index], out[index + 1] = word[:-1], "a" + word[-1] + "-" + following
        else:
            continue
        if not short:
            said[index] = word
    return out, said


def _merged(*spellings: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Spellings of one word read two ways, each at its least cost, the cheapest first."""
    best: dict[str, int] = {}
    for form, cost in itertools.chain(*spellings):
        best[form] = min(cost, best.get(form, cost))
    return tuple(sorted(best.items(), key=lambda item: item[1]))


def _candidates(prefixes: str, stem: str) -> tuple[tuple[str, int], ...]:
    """The stem's spellings; after the article, a stem said with its lam («alladhi», «wallati») also without
    it, the article's lam and the word's written once (الذي، والتي); a stem that starts with «al» and a vowel
    («alanbiya'i», «alamr») also as the article glued to a word of its own."""
    spelled = _spellings(stem)
    if prefixes.endswith("ال"):
        return _merged(spelled, tuple((form[1:], cost) for form, cost in spelled if form.startswith("ل")))
    if _VOWEL_ARTICLE.match(stem):
        return _merged(spelled, tuple(("ال" + form, cost) for form, cost in _spellings(stem[2:])))
    return spelled


def reading(query: str) -> list[ArabicWord]:
    """The query's words read as Arabic (see the module docstring); a word said apart from the next one
    («wa», «bi», «al») is its prefix."""
    tokens, as_said = _liaisons(_WORD.findall(_internal(query)))
    if sum(len(said) for said in tokens) > MAX_LETTERS:
        return []
    words: list[ArabicWord] = []
    prefix = ""
    for index, said in enumerate(tokens):
        if index < len(tokens) - 1 and said in _SAID_APART:
            prefix += _SAID_APART[said]
            continue
        if index < len(tokens) - 1 and said == "fil":  # fi l-ardi
            words.append(ArabicWord("", "fi", (("في", 0),)))
            prefix = "ال"
            continue
        for prefixes, stem in _split(said):
            words.append(ArabicWord(prefix + prefixes, stem, _candidates(prefix + prefixes, stem)))
            prefix = ""
        if index in as_said:  # «halal» as well as «hala» + al-: the vocabulary chooses
            whole = _spellings(_split(as_said[index])[-1][1])
            words[-1] = replace(words[-1], candidates=_merged(words[-1].candidates, whole))
    return words
