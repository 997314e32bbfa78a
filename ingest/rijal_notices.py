"""The notices of the three rijal works (ingest.rijal): computed from their OpenITI texts (ingest.rijal_entries),
numbered, and indexed by name key.

A notice's id is its work's number x 100,000 + its place among the work's notices, in the order of the text."""

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from app.text.arabic import normalize
from ingest.context import ImportContext, Row
from ingest.ids import notice_id
from ingest.narrators import (
    NAME_KEY_TOKENS,
    NameKey,
    name_key,
)
from ingest.rijal_entries import Notice, headword, notices
from ingest.sigla import LEADING_SIGLA
from ingest.verdicts import read_verdict, stated_tabaqa


@dataclass(frozen=True)
class Work:
    number: int
    prefix: str
    path: str
    source_id: str


WORKS = (
    Work(1, "taqrib", "rijal/openiti/0852IbnHajarCasqalani.TaqribTahdhib.Shamela0008609-ara1.txt.gz", "openiti-taqrib"),
    Work(2, "kashif", "rijal/openiti/0748Dhahabi.Kashif.Shamela0002171-ara1.txt.gz", "openiti-kashif"),
    Work(3, "mughni", "rijal/openiti/0748Dhahabi.MughniFiDucafa.Shamela0005836-ara1.txt.gz", "openiti-mughni"),
)
TAQRIB = WORKS[0]
CORROBORATED_WORKS = WORKS[1:]

_HEADWORD_END = frozenset({"عن", "وعنه", "عنه"})
_HEADWORD_TOKENS = range(2, 9)


@dataclass
class Library:
    """The notices of the three works, indexed by name key."""

    notices: dict[int, Row] = field(default_factory=dict)
    keys: dict[int, NameKey] = field(default_factory=dict)
    headwords: dict[int, str] = field(default_factory=dict)
    by_key: dict[tuple[str, NameKey], list[int]] = field(default_factory=lambda: defaultdict(list))

    def matches(self, work: Work, key: NameKey) -> list[int]:
        return self.by_key.get((work.source_id, key), []) if len(key) == NAME_KEY_TOKENS else []


def _name_line(text: str) -> str:
    """The first line of a notice after the sigla printed before the name."""
    return LEADING_SIGLA.sub("", text).strip().split("\n", 1)[0]


def _simple_headword(text: str) -> str | None:
    """The words before the first «عن» / «وعنه» of a notice, when that is a short name."""
    words = _name_line(text).split()
    ends = [i for i, word in enumerate(words) if normalize(word) in _HEADWORD_END]
    return " ".join(words[: ends[0]]) if ends and ends[0] in _HEADWORD_TOKENS else None


def _notice_row(work: Work, place: int, entry_id: str, notice: Notice) -> Row:
    """A notice; for Taqrib, its headword, Ibn Hajar's verdict read whole and the tabaqa it states in words
    («من رؤوس الطبقة السابعة»)."""
    taqrib = work == TAQRIB
    return {
        "notice_id": notice_id(work.number, place),
        "entry_id": entry_id,
        "source_id": work.source_id,
        "entry_number": str(notice.entry_no),
        "page": notice.page,
        "headword": headword(notice.text) if taqrib else None,
        "text": notice.text,
        "grade_term": read_verdict(notice.text) if taqrib else None,
        "tabaqa": stated_tabaqa(notice.text) if taqrib else None,
    }


def _shelve(library: Library, work: Work, row: Row) -> None:
    number = row["notice_id"]
    headword = row["headword"] or _simple_headword(row["text"])
    library.notices[number] = row
    library.keys[number] = name_key(row["headword"] or _name_line(row["text"]))
    if headword:
        library.headwords[number] = headword
    library.by_key[(work.source_id, library.keys[number])].append(number)


def _read_work(ctx: ImportContext, library: Library, work: Work) -> None:
    """The work's notices; one read from a line whose bytes are not UTF-8 is left out (reported with the line),
    and the others keep their places."""
    computed = notices(ctx.text(work.path, f"{work.prefix} notices", work.source_id))
    repeats: Counter[int] = Counter()
    for place, notice in enumerate(computed, start=1):
        if ctx.damaged(work.path, notice.lines):
            continue
        repeats[notice.entry_no] += 1
        suffix = f"#{repeats[notice.entry_no]}" if repeats[notice.entry_no] > 1 else ""
        row = _notice_row(work, place, f"{work.prefix}:{notice.entry_no}{suffix}", notice)
        ctx.add("rijal_notice", row)
        _shelve(library, work, row)
