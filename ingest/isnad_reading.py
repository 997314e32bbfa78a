"""Reading a hadith's written isnad whole: every link it names, with the words the text gives the narrator.

A link is a transmission term (حدثنا, أخبرنا, عن, أن, قال, قال لي, سمعت, قرأت على, رأى ...) and the mention that
follows it: the words from the name's start up to the next term, never cut at a comma, so that ism, nasab,
kunya, nisba and laqab stay together («أبو خيثمة، زهير بن حرب»). A mention is a run of name words (words of the
narrators' names, NameWords) opened by any word: it ends at the first word that is in no narrator's name («ابن عباس
كان يحرك ...» -> «ابن عباس»; «عائشة، زوج النبي» -> «عائشة»), at the next term, at a word that opens the
report or an honorific (ingest.isnad_parser.MENTION_ENDS), at a word that refers to another chain («بهذا
الإسناد», «بمثله», «نحوه»), at a colon or a full stop, at the tahwil sign «ح», or where «و» opens another
name: that name is a co-narrator under the same term («حدثنا قتيبة، وابن رمح»), a link of its own marked
`conjoined`. A word is «و» and a name when the word without its «و» is far more often a word of the
narrators' names than the word itself (CONJOINED_RATIO): «وابن», «وأبو», «ومسلم» open a name, «وقاص»,
«وكيع» and «وهو» do not. The tahwil sign «ح» starts a new strand:
links of different strands belong to different chains of the same hadith.

The mention is the text's own span (a slice of the text as written). The reading runs to the end of the
text; what it reads in the matn is never aligned to a narrator unless it names him.
"""

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ingest.isnad_parser import MARKS, MENTION_ENDS, SAYING, TAHWIL, TOKEN, bare_term, is_term, normal

# Ways of receiving that the terms of ingest.isnad_parser leave out: «قرأت على مالك» (the student read to the
# teacher), «أنه رأى عثمان», «سأل سعيد بن جبير», «شهدت».
READING_TERMS = frozenset({"قرات", "قري", "قرانا", "راي", "رايت", "سال", "سالت", "شهدت"})
ON = "علي"  # «على», normalized
TO_US = frozenset({"لي", "لنا"})  # «قال لي فلان», «فقال لنا»: to whom it was said, part of the term
REFERRING = frozenset({"بهذا", "بمثله", "مثله", "نحوه", "بنحوه", "بمعناه", "باسناده", "بمثل", "بنحو"})
CONJOINED_RATIO = 5
MAX_MENTION_WORDS = 14  # the longest whole names with a gloss («- يعني ابن ... -») stay under this
_MARKED = re.compile(f"[{MARKS}]*")
_STOPS = frozenset(":.؟?!؛;")
CONJUNCTION = "و"


@dataclass(frozen=True)
class Link:
    """One link of a written isnad: the term as written, the mention's span, and where it stands."""

    term: str
    mention: str
    start: int  # the mention's first character in the text
    strand: int  # 0 before the first «ح», 1 after it ...
    conjoined: bool  # a co-narrator: joined by «و» to the previous mention under one term


@dataclass
class _Open:
    term: str
    strand: int
    conjoined: bool
    spans: list[tuple[int, int]]


def _tokens(text: str) -> Iterator[tuple[str, int, int]]:
    for match in TOKEN.finditer(text):
        yield normal(match.group()), match.start(), match.end()


class _Reader:
    """Walks the tokens once, opening a link at each term and closing it where its mention ends."""

    def __init__(self, text: str, name_words: Mapping[str, int]) -> None:
        self.text = text
        self.name_words = name_words
        self.links: list[Link] = []
        self.open: _Open | None = None
        self.strand = 0

    def read(self) -> list[Link]:
        for word, start, end in _tokens(self.text):
            self._step(word, self.text[start:end], start, end)
        self._close()
        return self.links

    def _step(self, word: str, raw: str, start: int, end: int) -> None:
        if word == TAHWIL:
            self._close()
            self.strand += 1
        elif word and (is_term(word) or word in READING_TERMS):
            self._close()
            self.open = _Open(raw, self.strand, False, [])
        elif not word:
            if raw in _STOPS:
                self._close()
        elif word in MENTION_ENDS or word in REFERRING:
            self._close()
        elif self.open is not None and not self._reads_to(word):
            self._word(word, start, end)

    def _reads_to(self, word: str) -> bool:
        """The «على» of «قرأت على», the «لي» of «قال لي»: part of the term, not of the mention."""
        assert self.open is not None
        if self.open.spans:
            return False
        term = normal(self.open.term)
        return (word == ON and term in READING_TERMS) or (word in TO_US and bare_term(term) in SAYING)

    def _word(self, word: str, start: int, end: int) -> None:
        assert self.open is not None
        if self.open.spans and self._is_conjoined_name(word):
            term, strand = self.open.term, self.open.strand
            self._close()
            self.open = _Open(term, strand, True, [])
        elif self.open.spans and (word not in self.name_words or len(self.open.spans) == MAX_MENTION_WORDS):
            self._close()
            return
        self.open.spans.append((start, end))

    def _is_conjoined_name(self, word: str) -> bool:
        """«وابن رمح», «وعبد الله»: «و» and a name word, where the word with its «و» is rarely one («وكيع» is)."""
        if not word.startswith(CONJUNCTION):
            return False
        return self.name_words.get(word[1:], 0) > CONJOINED_RATIO * self.name_words.get(word, 0)

    def _close(self) -> None:
        if self.open is not None and self.open.spans:
            first, last = self.open.spans[0][0], self.open.spans[-1][1]
            if self.open.conjoined:
                first = _after_conjunction(self.text, first)
            mention = self.text[first:last]
            self.links.append(Link(self.open.term, mention, first, self.open.strand, self.open.conjoined))
        self.open = None


def _after_conjunction(text: str, start: int) -> int:
    """The first letter after a word's leading «و» and its vowel marks."""
    rest = _MARKED.match(text, start + 1)
    return rest.end() if rest else start + 1


def read_links(text: str, name_words: Mapping[str, int]) -> list[Link]:
    """The links of `text` in order; `name_words` (normalized word -> how many narrators' names hold it)
    tells a co-narrator's «و» from a name's own."""
    return _Reader(text, name_words).read()
