"""The numbered notices of the three rijal works, computed from their OpenITI texts (`rijal/openiti/`).

The works' own text begins at the first heading «حرف الألف» (al-Kashif's editor's introduction before it is
numbered too, and is not read). From there each heading `### | N-` opens notice N: its text is the paragraphs up to
the next heading, one line each. So does a biography heading with its text on its line (`### $ N- ...`), and a
paragraph `N-` alone after a heading that is a bare number (al-Kashif prints ten notices so). Any other heading (a
letter of the alphabet, «ذكر من اسمه أحمد», a number without its dash) closes the notice before it and opens none.
A notice's page is the milestone that closes the page on which it starts (ingest.openiti), null for the editions'
unnumbered pages.

A Taqrib notice's headword is its words before the first of Ibn Hajar's verdict (ingest.verdicts), the tabaqa and
the death; none when it states none of them (a Companion «له صحبة», a namesake «تمييز»).

The data scout's files `rijal/{taqrib,kashif,mughni_duafa}_entries.jsonl.gz`, made from the same texts, are not
read: they are the oracle that tests/ingest/test_rijal_entries.py compares these notices with (docs/data.md gives
the agreement)."""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ingest.openiti import PageWait, Piece, pieces
from ingest.verdicts import DEATH, TABAQA, VERDICT_OPENING, own_text

FIRST_HEADING = "حرف الألف"
_NUMBER = re.compile(r"(\d+) ?-(?: ?([^\d\s].*))?")
_BARE_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class Notice:
    entry_no: int
    text: str
    page: str | None
    lines: range  # the lines of the text it is read from


@dataclass
class _Open:
    """A notice being read: its number, its paragraphs, and its page once a milestone closes it."""

    number: int
    line: int
    paragraphs: list[str] = field(default_factory=list)
    page: str | None = None
    end: int = 0  # the line of the heading that closes it

    def notice(self) -> Notice | None:
        text = "\n".join(self.paragraphs)
        return Notice(self.number, text, self.page, range(self.line, self.end)) if text else None


class _Reading:
    """The pieces of a work read in order into notices."""

    def __init__(self) -> None:
        self.read: list[_Open] = []
        self.current: _Open | None = None  # the notice whose paragraphs are being read
        self.pages = PageWait()
        self.after_bare_number = False

    def take(self, piece: Piece) -> None:
        if piece.kind == "page":
            self.pages.close(piece.text)
            return
        if not self.opens(piece):
            if piece.kind == "heading":
                self.close(piece.line)
            elif self.current:
                self.current.paragraphs.append(piece.text)
        self.after_bare_number = piece.kind == "heading" and bool(_BARE_NUMBER.fullmatch(piece.text))

    def opens(self, piece: Piece) -> bool:
        """Whether the piece opens a notice: a heading «N-» (its text, if any, the notice's first words), or a
        paragraph «N-» alone after a heading that is a bare number (al-Kashif prints a few numbers so)."""
        number = _NUMBER.fullmatch(piece.text)
        if number is None or (piece.kind == "paragraph" and (number.group(2) or not self.after_bare_number)):
            return False
        self.close(piece.line)
        self.current = _Open(int(number.group(1)), piece.line, [number.group(2)] if number.group(2) else [])
        self.read.append(self.current)
        self.pages.wait(self.current)
        return True

    def close(self, line: int) -> None:
        if self.current:
            self.current.end, self.current = line, None


def _started(text: str) -> Iterator[Piece]:
    """The pieces from the first heading «حرف الألف» on."""
    found = False
    for piece in pieces(text):
        found = found or (piece.kind == "heading" and piece.text == FIRST_HEADING)
        if found:
            yield piece


def notices(text: str) -> list[Notice]:
    """The numbered notices of a rijal work's OpenITI text, in the order of the text."""
    reading = _Reading()
    for piece in _started(text):
        reading.take(piece)
    reading.close(text.count("\n") + 2)
    return [notice for open_notice in reading.read if (notice := open_notice.notice())]


def headword(text: str) -> str | None:
    """A Taqrib notice's words before the first of its verdict, its tabaqa and its death."""
    own = " ".join(own_text(text).split())
    ends = [found.start() for pattern in (VERDICT_OPENING, TABAQA, DEATH) if (found := pattern.search(own))]
    return (own[: min(ends)].strip() or None) if ends else None
