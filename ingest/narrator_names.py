"""Whether the words of a mention name a given narrator, by the units of the forms of his name.

A name is read as units: «عبد», «أبو», «أم» and «ذو» joined to the word they govern («عبد الله» ->
عبدالله, «أبي هريرة» -> ابوهريره), «الله» joined to «عبيد» («عبيد الله» -> عبيدالله) and dropped
elsewhere, «بن», «ابن» and «بنت» dropped (a nasab unit is the father's name itself: «ابن عباس» -> عباس),
the article «ال» and the alif of an accusative tanwin set aside. Two units agree when they are equal, or
one letter apart (added, dropped, changed, or two neighbours swapped) in names of five letters or more, a
compound's head being the same: «خيثمة» / «خثيمة», as the sources spell the same man; not «سلمان» /
«سمان», nor «أبو بكر» / «أبو بشر».

What a mention says of the man is its first clause (up to a comma or a dash: what follows is another form
of the name or a description, «عائشة، زوج النبي», and it stops before «مولى», «زوج», «صاحب», «خادم»,
which name another man, «حمران مولى عثمان»; a comma inside a name, «أبي، سلمة», does not end it; a
relation that opens the mention, «عمه، واسع بن حبان», is followed by the name it stands for) and any gloss
clause («- هو ابن أبي عبيدة -», «يعني ابن
عيينة»), which the name must agree with too. The mention names the narrator when:

- its first unit agrees with one of his units;
- of its other units, at most one in three does not (a nisba, written with the article outside a nasab,
  may always lack: the dataset's forms often give none);
- where it says «X بن Y», one of his forms names Y after X (X's father or a forebear).

«الحميدي عبد الله بن الزبير» names 'Abd Allah b. al-Zubayr al-Humaydi and «محمد بن إبراهيم التيمي»
Muhammad b. Ibrahim b. al-Harith; «عمرو بن شعيب» does not name Shu'ayb b. Muhammad b. 'Abd Allah b.
'Amr, nor «يحيى بن سعيد» Muhammad b. Yahya, nor «عبد الله بن عمر» 'Abd Allah b. 'Amr, nor «في رمضان»
anyone, nor «أبي» (the first word of «أبي هريرة», cut) anyone. A relational mention («أبيه», «جده»)
names nobody by itself: `relation_holds` reads it through the narrator before it.

A narrator's forms are his name in the dataset, the forms seen in isnads (AR-Sanad) and the headwords of
his linked rijal notices (which bring the nisbas the dataset's names often lack: «علقمة بن وقاص الليثي»).
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.text.arabic import name_word, name_words, normalize
from ingest.isnad_parser import KINSHIP_PRONOUNS, is_kinship_pronoun

_HEADS = frozenset({"عبد", "ابو", "ام", "ذو"})
_NASAB = frozenset({"بن", "بنت"})
_SKIPPED = _NASAB | {"يعني", "هو", "وهو"}
_GLOSSES = frozenset({"هو", "وهو", "يعني"})
_DESCRIPTIONS = frozenset({"مولي", "زوج", "صاحب", "خادم"})  # «حمران مولى عثمان», «عائشة زوج النبي»
_RUNS_ON = frozenset({"ابو", "بن", "عبد", "ام", "ذو"})  # a clause ending on one of these is cut mid-name
_ARTICLE = "ال"
_GOD = "الله"
_GOD_JOINS = frozenset({"عبيد"})  # «عبيد الله»; «عبد الله» is joined as a head
_CLAUSE_END = re.compile("[،,\\-–ـ]")
FUZZY_FROM = 5  # names shorter than this must agree exactly («سلمان» is not «سمان», nor «بكر» «بشر»)
MISSES_PER_UNIT = 3  # one unit in this many, after the first, may lack from his forms
_RELATIONS = KINSHIP_PRONOUNS - {"ابي"}  # «أبي» opens a kunya as often as it means «my father»
FATHER = frozenset({"ابيه", "ابي", "ابيها", "ابيهم"})
GRANDFATHER = frozenset({"جده", "جدي", "جدها"})


def name_units(text: str) -> list[str]:
    """The units of a name or a mention, in order, each without its article."""
    words = name_words(text)
    units: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word in _HEADS and index + 1 < len(words):
            units.append(word + words[index + 1])
            index += 1
        elif word == _GOD and units and units[-1] in _GOD_JOINS:
            units[-1] += word
        elif word not in _SKIPPED and word not in _HEADS and word != _GOD:
            units.append(word.removeprefix(_ARTICLE) if len(word) > len(_ARTICLE) + 1 else word)
        index += 1
    return units


def _nisbas(text: str) -> set[str]:
    """The units written with the article that are no one's name in a nasab: «التيمي» in «محمد بن إبراهيم
    التيمي», not «الزبير» in «عبد الله بن الزبير»."""
    words = name_words(text)
    return {
        word.removeprefix(_ARTICLE)
        for before, word in zip(["", *words], words, strict=False)
        if word.startswith(_ARTICLE)
        and word != _GOD
        and len(word) > len(_ARTICLE) + 1
        and before not in _SKIPPED
        and before not in _HEADS
    }


def _before_description(words: list[str]) -> list[str]:
    """The words before «مولى», «زوج», «صاحب», «خادم»: what follows names another man."""
    cut = next((i for i, word in enumerate(words) if i and word in _DESCRIPTIONS), len(words))
    return words[:cut]


def _clauses(mention: str) -> list[str]:
    """The mention's clauses, each a list of normalized words; a clause that ends on «أبي», «ابن» or «عبد», or
    a clause that is a relation alone («عمه، واسع بن حبان»), runs on into the next one."""
    clauses: list[list[str]] = []
    for clause in _CLAUSE_END.split(mention):
        words = _before_description(normalize(clause).split())
        if not words:
            continue
        if clauses and (name_word(clauses[-1][-1]) in _RUNS_ON or words[0] in _SKIPPED):
            clauses[-1] += words
        else:
            clauses.append(words)
    if len(clauses) > 1 and clauses[0] == clauses[0][:1] and clauses[0][0] in _RELATIONS:
        clauses[:2] = [clauses[0] + clauses[1]]
    return [" ".join(words) for words in clauses]


def _said_clauses(mention: str) -> str:
    """What a mention says of the man: its first clause and its glosses, as one text; a relation that opens
    it («عمه أبي سهيل بن مالك») is left out, the name that follows is what it says."""
    first, *rest = _clauses(mention)
    glosses = [clause for clause in rest if clause.split()[0] in _GLOSSES]
    words = first.split()
    if len(words) > 1 and words[0] in _RELATIONS:
        first = " ".join(words[1:])
    return " ".join((first, *glosses))


def mention_units(mention: str) -> list[str]:
    """The units of what a mention says of the man: its first clause and its glosses."""
    return name_units(_said_clauses(mention))


def _one_apart(a: str, b: str) -> bool:
    """One edit (insertion, deletion, substitution, or two neighbours swapped) turns a into b."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    prefix = 0
    while prefix < len(a) and a[prefix] == b[prefix]:
        prefix += 1
    if len(a) < len(b):
        return a[prefix:] == b[prefix + 1 :]
    rest = prefix + 1
    swapped = rest < len(a) and a[prefix] == b[rest] and a[rest] == b[prefix] and a[rest + 1 :] == b[rest + 1 :]
    return swapped or a[rest:] == b[rest:]


def _close(a: str, b: str) -> bool:
    """One letter apart, in names of FUZZY_FROM letters at least; a compound's head must be the same."""
    head = next((h for h in _HEADS if a.startswith(h) and len(a) > len(h)), "")
    if head and not b.startswith(head):
        return False
    a, b = a[len(head) :], b[len(head) :]
    return len(a) >= FUZZY_FROM and len(b) >= FUZZY_FROM and _one_apart(a, b)


def agrees(unit: str, units: frozenset[str]) -> bool:
    return unit in units or any(_close(unit, known) for known in units)


def _in_order(ancestor: str, descendant: str, forms: list[list[str]]) -> bool:
    """Whether some form names `descendant` before `ancestor` («X بن ... Y»: Y is X's forebear)."""
    for units in forms:
        found = [i for i, unit in enumerate(units) if agrees(descendant, frozenset({unit}))]
        if found and any(agrees(ancestor, frozenset({unit})) for unit in units[found[0] + 1 :]):
            return True
    return False


def _pairs_in_order(pairs: list[tuple[str, str]], form: list[str]) -> bool:
    """Every «X بن Y» is in this form, Y after X, word for word."""
    return all(man in form and forebear in form[form.index(man) + 1 :] for man, forebear in pairs)


def _nasab_pairs(mention: str) -> list[tuple[str, str]]:
    """(man, forebear) for each «X بن Y» of a mention: «محمد بن إبراهيم التيمي» -> (محمد, ابراهيم)."""
    words = name_words(mention)
    pairs = []
    for index, word in enumerate(words[1:-1], start=1):
        if word == "بن":
            man, forebear = name_units(" ".join(words[:index]))[-1:], name_units(" ".join(words[index + 1 :]))[:1]
            if man and forebear:
                pairs.append((man[0], forebear[0]))
    return pairs


@dataclass(frozen=True)
class _Form:
    """One form of a narrator's name: its units in order, and as a set."""

    narrator: int
    units: list[str]
    held: frozenset[str]


class NameForms:
    """Every narrator's name units, and the units of his dataset name in order (ism, then nasab)."""

    def __init__(self, names: Iterable[tuple[int, str]], forms: Iterable[tuple[int, str]]) -> None:
        self._lineage: dict[int, list[str]] = {}
        self._forms: dict[int, list[list[str]]] = {}
        for narrator, name in names:
            self._lineage[narrator] = _lineage(name)
            self._forms.setdefault(narrator, []).append(name_units(name))
        for narrator, form in forms:
            self._forms.setdefault(narrator, []).append(name_units(form))
        self._units = {n: frozenset(unit for units in forms for unit in units) for n, forms in self._forms.items()}
        self._known = frozenset(unit for units in self._units.values() for unit in units)
        self._openers: dict[str, list[_Form]] = {}  # unit -> the forms that open with it
        self._forebears: dict[str, list[_Form]] = {}  # unit -> the forms that hold it, not opening with it
        self._named: dict[str, frozenset[int]] = {}
        for narrator, his in self._forms.items():
            for units in his:
                self._index(_Form(narrator, units, frozenset(units)))

    def _index(self, form: _Form) -> None:
        for unit in form.held:
            (self._openers if unit == form.units[0] else self._forebears).setdefault(unit, []).append(form)

    def names(self, mention: str, narrator: int) -> bool:
        """The first unit agrees, at most one in three of the others lacks (a nisba may lack), every «X بن Y»
        is his."""
        text = _said_clauses(mention)
        said, units = name_units(text), self._units.get(narrator, frozenset())
        if is_kinship_pronoun(mention) or not said or not agrees(said[0], units):
            return False
        counted = [unit for unit in said[1:] if unit not in _nisbas(text)]
        if sum(not agrees(unit, units) for unit in counted) > len(counted) // MISSES_PER_UNIT:
            return False
        forms = self._forms[narrator]
        return all(_in_order(forebear, man, forms) for man, forebear in _nasab_pairs(text))

    def named(self, mention: str) -> frozenset[int]:
        """Every narrator whom the mention names word for word: one of his forms holds each of its units (its
        nisbas too, no letter apart), its first unit opens that form (ism, kunya, laqab or nisba, as the form
        comes) or, after «ابن», stands in it after another (a forebear's name), and every «X بن Y» is in its
        order. «يحيى بن سعيد» names Yahya b. Sa'id al-Ansari and al-Qattan; «البراء» does not name 'Ubayd b.
        al-Bara', nor «ابن عباس» al-'Abbas himself, nor «عبد الله بن عمرو» Jabir b. 'Abd Allah b. 'Amr."""
        if mention not in self._named:
            text = _said_clauses(mention)
            self._named[mention] = frozenset() if is_kinship_pronoun(mention) else self._word_for_word(text)
        return self._named[mention]

    def _word_for_word(self, text: str) -> frozenset[int]:
        units, words = name_units(text), name_words(text)
        if not units:
            return frozenset()
        pairs, said = _nasab_pairs(text), frozenset(units)
        forms = (self._forebears if words[0] in _NASAB else self._openers).get(units[0], [])
        return frozenset(f.narrator for f in forms if said <= f.held and _pairs_in_order(pairs, f.units))

    def is_name(self, mention: str) -> bool:
        """Whether a mention opens with a unit of some narrator's name, or is a relational one («أبيه»)."""
        said = mention_units(mention)
        return is_kinship_pronoun(mention) or (bool(said) and said[0] in self._known)

    def relation_holds(self, mention: str, previous: int, narrator: int) -> bool:
        """«أبيه» after a man whose father's name is this narrator's ism (his grandfather's for «جده»)."""
        word = normalize(mention)
        depth = 1 if word in FATHER else 2 if word in GRANDFATHER else 0
        lineage, own = self._lineage.get(previous, []), self._lineage.get(narrator, [])
        if not depth or len(lineage) <= depth or not own:
            return False
        return agrees(own[0], frozenset({lineage[depth]}))


def _lineage(name: str) -> list[str]:
    """The ism and the nasab of a dataset name, in order: «عروة بن الزبير بن العوام» -> عروه, زبير, عوام."""
    words = normalize(name).split()
    lineage = name_units(name)[:1]
    for index, word in enumerate(words[:-1]):
        if name_word(word) == "بن":
            lineage += name_units(" ".join(words[index + 1 : index + 3]))[:1]
    return lineage
