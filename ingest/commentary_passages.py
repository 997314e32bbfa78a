"""The passages of the Arabic commentaries, computed from their OpenITI texts (`commentary/openiti/`).

The commentaries on the Sunan and on Muslim are split at the editor's hadith markers `[N]`, printed at the start of
a paragraph, inside one, or as a heading of their own (al-Suyuti on Muslim): passage N runs from its marker to the
next one, its paragraphs joined with a space. Its heading is the last heading before it that is not a marker (the
book or the chapter). The commentator introduces the words he explains with «قوله» ("his words:"), which the text
prints just before the next marker: that trailing «قوله» is left out of the passage it ends, with a particle written
on it («وقوله», «بقوله»), and cut from a word it is glued to where the edition lost a space («أعلمقوله»).

Ibn Daqiq al-'Id's commentary on the Forty is divided by the printed numbers of the hadith, headings `### | N -`:
passage N runs from its number to the next, its title the heading (or, for hadith 1, the line) just before its
number; a heading inside it is part of its text (the edition tags the first words of hadith 1, «إنما الأعمال
بالنيات», as one).

A passage's page is the milestone that closes the page on which it starts (ingest.openiti), null for an
unnumbered page. The data scout's files `commentary/*.jsonl.gz`, made from the same texts, are not read: they are
the oracle that tests/ingest/test_commentary_passages.py compares these passages with (docs/data.md gives the
agreement)."""

import re
from dataclasses import dataclass, field

from ingest.openiti import PageWait, Piece, pieces

_MARKER = re.compile(r"\[(\d+)\]")
_HADITH_NUMBER = re.compile(r"(\d+) -")
_INTRODUCING = re.compile(r"(?:(?:^|\s+)[وفبل]?|(?<=\S\S))قوله$")


@dataclass
class Passage:
    number: int  # the marker's number, or the hadith's printed number
    seq: int  # its place in the work, from 1
    heading: str | None
    line: int
    parts: list[str] = field(default_factory=list)
    page: str | None = None

    @property
    def text(self) -> str:
        return " ".join(self.parts)

    def add(self, words: str) -> None:
        if words.strip():
            self.parts.append(words.strip())

    def end_before_next(self) -> None:
        """Leave out the «قوله» that introduces the next passage's words."""
        if self.parts:
            self.parts[-1] = _INTRODUCING.sub("", self.parts[-1])
            self.parts = [part for part in self.parts if part]


class _Split:
    """Passages being read in the order of the text; each waits for the milestone that closes its page."""

    def __init__(self) -> None:
        self.passages: list[Passage] = []
        self.pages = PageWait()
        self.current: Passage | None = None

    def open(self, number: int, heading: str | None, line: int) -> Passage:
        self.current = Passage(number, len(self.passages) + 1, heading, line)
        self.passages.append(self.current)
        self.pages.wait(self.current)
        return self.current

    def read(self) -> list[Passage]:
        return [passage for passage in self.passages if passage.parts]


def marked_passages(text: str) -> list[Passage]:
    """The passages of a commentary split at the editor's markers `[N]`."""
    split, heading = _Split(), None
    for piece in pieces(text):
        if piece.kind == "page":
            split.pages.close(piece.text)
        elif piece.kind == "heading" and (marker := _MARKER.fullmatch(piece.text)):
            _open_marked(split, int(marker.group(1)), heading, piece.line)
        elif piece.kind == "heading":
            heading = piece.text or heading
        else:
            _read_markers(split, heading, piece)
    return split.read()


def _open_marked(split: _Split, number: int, heading: str | None, line: int) -> Passage:
    if split.current:
        split.current.end_before_next()
    return split.open(number, heading, line)


def _read_markers(split: _Split, heading: str | None, piece: Piece) -> None:
    """A paragraph's words, each marker in it opening a passage."""
    before, *rest = _MARKER.split(piece.text)
    if split.current:
        split.current.add(before)
    for number, words in zip(rest[::2], rest[1::2], strict=True):
        _open_marked(split, int(number), heading, piece.line).add(words)


def numbered_passages(text: str) -> list[Passage]:
    """The passages of a commentary divided by the hadith's printed numbers, headings `N -`."""
    split, previous = _Split(), None
    for piece in pieces(text):
        if piece.kind == "page":
            split.pages.close(piece.text)
            continue
        number = _HADITH_NUMBER.fullmatch(piece.text) if piece.kind == "heading" else None
        if number:
            title = previous.text if previous else None
            if title and split.current and split.current.parts[-1:] == [title]:
                split.current.parts.pop()  # read as the last line of the passage before
            split.open(int(number.group(1)), title, piece.line)
        elif split.current:
            split.current.add(piece.text)
        previous = piece
    return split.read()
