"""The Taqrib candidates of the narrators that occur in chains, computed from the upstream copies: the narrator
table (ingest.narrator_table), the chains of `all_hadiths_chain.json` (which narrators occur, and how often) and
the Taqrib notices read from OpenITI (ingest.rijal_notices).

A narrator's candidates are the Taqrib notices with his name key (the first three normalized words of his Arabic
name, «ابن» written «بن»: ingest.narrators.name_key; a notice's key is its headword's). Where no notice has it,
the notices whose key opens with his first two words, when those two words can name a man: a kunya («أبو
بردة»), a name and a nisba («مكحول الشامي»); never a name and «بن» («وهيب بن»), which names only a given name
(«وهيب بن خالد» is not «وهيب ابن الورد»). One candidate is the narrator's candidate ('name3', 'name2').

Of several (namesakes), one is his when every other one is ruled out and it agrees with his generation (its
tabaqa is his generation, or both say Companion): 'name3_namesakes', 'name2_namesakes'. A namesake is ruled out
when it states another tabaqa, when it is a Companion's and the dataset does not class the narrator as one, or
when it states no tabaqa and is not a Companion's: Ibn Hajar gives every man of the books a tabaqa but the
Companions, and a notice without one is a cross-reference or a man listed to be told apart («الحكم ابن عتيبة
ابن النهاس ... لا أعرف له رواية»). A Companion's notice is not ruled out by the generation of a narrator classed
as a Companion: «أم كلثوم بنت عقبة», whom the dataset classes as a Companion of the third generation, is not
«أم كلثوم بنت ثمامة» of the third tabaqa, since her own notice, a Companion's, gives none. Where several are
left, those whose name goes on otherwise than his past the key are ruled out too (_differs: «محمد بن مسلم بن
تدرس» is not «محمد ابن مسلم ابن عبيد الله ابن شهاب», both of the fourth tabaqa); not a sole one, since the
sources report a grandfather differently.

The method names only the name evidence: the rijal step judges each candidate on the evidence
(ingest.rijal_links), and where his generation chose among namesakes the method says so.

The data scout's `narrator_to_taqrib_candidates.jsonl.gz`, made by a like rule from the staged files, is not
read: it is the oracle that tests/ingest/test_taqrib_candidates_derivation.py compares these candidates with
(docs/data.md gives the agreement; eval/taqrib_candidates_sample.csv the hand-checked disagreements)."""

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from app.text.arabic import name_words
from ingest.chain_alignment import upstream_chains
from ingest.context import ImportContext
from ingest.narrator_table import NarratorSource, narrator_sources
from ingest.narrators import (
    NAME_KEY_TOKENS,
    NameKey,
    clean_name_ar,
    generation,
    grade_tier,
    is_companion_label,
    name_key,
)
from ingest.rijal_notices import TAQRIB, Library

CHAINS_PURPOSE = "narrators that occur in chains, and how often"
NAME3, NAME2 = "name3", "name2"
NAMESAKES = "_namesakes"
_SHORT_KEY = 2
_NOT_A_NAME = frozenset({"بن", "بنت"})  # «X بن» names only a given name
_COMPOUNDS = frozenset({"عبد", "ابو", "ام", "ذو"})  # the first word of a compound name or kunya


@dataclass(frozen=True)
class Candidate:
    """A narrator's Taqrib candidate: the notice's id, the name evidence, his occurrences in the chains and the
    dataset's class label (Companion or not)."""

    narrator: int
    notice: int
    method: str
    occurrences: int
    label: str


def chain_occurrences(ctx: ImportContext) -> Counter[int]:
    """How often each scholar id occurs in the upstream chains."""
    return Counter(scholar for chain in upstream_chains(ctx, CHAINS_PURPOSE) for scholar in chain.scholars)


class TaqribNames:
    """The Taqrib notices by name key and by the two words a key opens with, with what rules one out."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.by_two: dict[NameKey, list[int]] = defaultdict(list)
        self.companions: dict[int, bool] = {}
        self.names: dict[int, list[str]] = {}
        for notice, key in library.keys.items():
            if library.notices[notice]["source_id"] == TAQRIB.source_id and len(key) >= _SHORT_KEY:
                self.by_two[key[:_SHORT_KEY]].append(notice)

    def named(self, key: NameKey) -> tuple[str, list[int]]:
        """(name evidence, the notices) of a name's key: its three words, else its first two when they can name
        a man."""
        found = self.library.matches(TAQRIB, key)
        if found or len(key) < _SHORT_KEY or key[1] in _NOT_A_NAME:
            return NAME3, found
        return NAME2, self.by_two.get(key[:_SHORT_KEY], [])

    def _companion(self, notice: int) -> bool:
        if notice not in self.companions:
            row = self.library.notices[notice]
            self.companions[notice] = grade_tier(row["grade_term"], row["tabaqa"], row["text"]) == "companion"
        return self.companions[notice]

    def _name(self, notice: int) -> list[str]:
        """The words of the notice's headword (else its first line), each in one case (name_words)."""
        if notice not in self.names:
            row = self.library.notices[notice]
            self.names[notice] = name_words(row["headword"] or row["text"].split("\n", 1)[0])
        return self.names[notice]

    def ruled_out(self, notice: int, generation: int | None, companion: bool) -> bool:
        """The notice states another tabaqa, is a Companion's for a narrator not classed as one, or states no
        tabaqa and is not a Companion's."""
        tabaqa = self.library.notices[notice]["tabaqa"]
        if tabaqa is not None:
            return generation is not None and tabaqa != generation
        return not (companion and self._companion(notice))

    def named_alike(self, name: list[str], found: list[int]) -> list[int]:
        """Of several notices, those whose name does not go on otherwise than `name` (_differs); one notice as
        it is (the sources report a grandfather differently: «عثمان بن حكيم بن دينار الأودي», Ibn Hajar's «عثمان
        ابن حكيم ابن ذبيان الأودي», both dead in 219)."""
        return [notice for notice in found if not self.differs(name, notice)] if len(found) > 1 else found

    def differs(self, name: list[str], notice: int) -> bool:
        """The notice's name goes on past the key otherwise than `name` (name_words): _differs."""
        return _differs(name, self._name(notice))

    def agrees(self, notice: int, generation: int | None, companion: bool) -> bool:
        tabaqa: int | None = self.library.notices[notice]["tabaqa"]
        if tabaqa is not None:
            return tabaqa == generation
        return companion and self._companion(notice)


def _differs(name: list[str], other: list[str]) -> bool:
    """Two names of one key that go on differently: the second half of a compound the key cuts («بكر بن عبد
    الرحمن» / «بكر ابن عبد الله»), the father of a compound name the key ends before («عبد الرحمن بن ثابت» /
    «عبد الرحمن ابن جبير»), or the grandfather both give («محمد بن مسلم بن تدرس» / «محمد ابن مسلم ابن عبيد
    الله»)."""
    key = NAME_KEY_TOKENS
    if len(name) < key:
        return False
    if name[key - 1] in _COMPOUNDS or name[key - 1] == "بن":
        at = key
    elif name[key : key + 1] == other[key : key + 1] == ["بن"]:
        at = key + 1
    else:
        return False
    return len(name) > at and len(other) > at and name[at] != other[at]


def _candidate(notices: TaqribNames, source: NarratorSource, occurrences: int) -> Candidate | None:
    name = clean_name_ar(source.name_ar)
    key = name_key(name) if name else ()
    if len(key) < _SHORT_KEY:
        return None
    words = name_words(name or "")
    method, found = notices.named(key[:NAME_KEY_TOKENS])
    if len(found) > 1:
        born, companion = generation(source.label), is_companion_label(source.label)
        kept = notices.named_alike(words, [n for n in found if not notices.ruled_out(n, born, companion)])
        found = kept if len(kept) == 1 and notices.agrees(kept[0], born, companion) else []
        method += NAMESAKES
    if len(found) != 1:
        return None
    return Candidate(source.scholar_indx, found[0], method, occurrences, source.label)


def candidates(sources: Iterable[NarratorSource], occurrences: Counter[int], library: Library) -> list[Candidate]:
    """The candidate of each narrator that occurs in the chains and has one, in the order of the narrators."""
    notices = TaqribNames(library)
    found = (_candidate(notices, s, occurrences[s.scholar_indx]) for s in sources if s.scholar_indx in occurrences)
    return [candidate for candidate in found if candidate is not None]


def taqrib_candidates(ctx: ImportContext, library: Library) -> list[Candidate]:
    """The candidates, read from the narrator table's and the chains' upstream files."""
    return candidates(narrator_sources(ctx), chain_occurrences(ctx), library)
