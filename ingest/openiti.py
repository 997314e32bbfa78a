"""The OpenITI mARkdown texts read as a stream of pieces: the structural headings, the paragraphs and the page
milestones, in the order of the file.

The metadata header, up to `#META#Header#End#`, is skipped. A line `# ...` opens a paragraph and each line
`~~...` continues it (joined with a space); a line `### ` is a heading, its text after the marks of its kind (`|`,
`||`, `$` ...). A page milestone `PageVxxPyyy` stands on its own line (`# PageV01P187`) or at the end of a text
line; it closes the page whose text comes before it (a book's last words are followed by its last page's
milestone; a volume of al-Kashif opens with its half-title, then page 3 with no milestone for the blank page 2
between them), and is given as a piece of its own after the paragraph it ends. The editions' unnumbered pages
are all marked `PageV00P000`. The `msNNN` milestones (the text's own division into chunks) are dropped, and
runs of spaces are one space.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, Protocol

HEADER_END = "#META#Header#End#"
UNNUMBERED_PAGE = "PageV00P000"
_PAGE = re.compile(r"(?<!\S)PageV\d+P\d+(?!\S)")
_MILESTONE = re.compile(r"(?<!\S)ms\d+(?!\w)")
_HEADING = re.compile(r"### [|$]+")
_PARAGRAPH = "#"
_CONTINUATION = "~~"

Kind = Literal["heading", "paragraph", "page"]


@dataclass(frozen=True)
class Piece:
    kind: Kind
    text: str  # a page's milestone ('PageV01P187')
    line: int  # the line of the file where it starts


class Paged(Protocol):
    page: str | None


class PageWait:
    """What starts in a text (a notice, a passage) waits for the milestone that closes the page it starts on."""

    def __init__(self) -> None:
        self.waiting: list[Paged] = []

    def wait(self, item: Paged) -> None:
        self.waiting.append(item)

    def close(self, milestone: str) -> None:
        """Give each waiting item its page: the milestone, or none for an unnumbered page."""
        for item in self.waiting:
            item.page = None if milestone == UNNUMBERED_PAGE else milestone
        self.waiting = []


class _Reader:
    """Gathers the lines of a paragraph; yields it once the next piece starts."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self.line = 0
        self.pages: list[Piece] = []

    def flush(self) -> Iterator[Piece]:
        if self.words:
            yield Piece("paragraph", " ".join(self.words), self.line)
        yield from self.pages
        self.words, self.pages, self.line = [], [], 0

    def take(self, text: str, line: int) -> None:
        """The words of a text line; its page milestones wait for the end of the paragraph."""
        self.pages += [Piece("page", page, line) for page in _PAGE.findall(text)]
        self.words += _MILESTONE.sub(" ", _PAGE.sub(" ", text)).split()
        self.line = self.line or line


def pieces(text: str) -> Iterator[Piece]:
    """The headings, paragraphs and page milestones of a text, in order."""
    lines = text.split("\n")
    start = next((i + 1 for i, line in enumerate(lines) if line.strip() == HEADER_END), 0)
    reader = _Reader()
    for number, line in enumerate(lines[start:], start=start + 1):
        if line.startswith(_CONTINUATION):
            reader.take(line[len(_CONTINUATION) :], number)
            continue
        yield from reader.flush()
        if heading := _HEADING.match(line):
            yield Piece("heading", " ".join(_MILESTONE.sub(" ", line[heading.end() :]).split()), number)
        elif line.startswith(_PARAGRAPH):
            reader.take(line[len(_PARAGRAPH) :], number)
    yield from reader.flush()
