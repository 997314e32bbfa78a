"""The notices of the three rijal works (ingest.rijal): read, numbered, and indexed by number and by name key."""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from app.text.arabic import normalize
from ingest.context import ImportContext, Row
from ingest.ids import notice_id
from ingest.narrators import (
    NAME_KEY_TOKENS,
    NameKey,
    name_key,
)
from ingest.sigla import LEADING_SIGLA
from ingest.verdicts import read_verdict, stated_tabaqa


@dataclass(frozen=True)
class Work:
    number: int
    prefix: str
    path: str
    source_id: str


WORKS = (
    Work(1, "taqrib", "rijal/taqrib_entries.jsonl.gz", "openiti-taqrib"),
    Work(2, "kashif", "rijal/kashif_entries.jsonl.gz", "openiti-kashif"),
    Work(3, "mughni", "rijal/mughni_duafa_entries.jsonl.gz", "openiti-mughni"),
)
TAQRIB = WORKS[0]
CORROBORATED_WORKS = WORKS[1:]
UNNUMBERED_PAGE = "PageV00P000"

_HEADWORD_END = frozenset({"عن", "وعنه", "عنه"})
_HEADWORD_TOKENS = range(2, 9)


@dataclass
class Library:
    """The notices of the three works, indexed by number and by name key."""

    notices: dict[int, Row] = field(default_factory=dict)
    keys: dict[int, NameKey] = field(default_factory=dict)
    headwords: dict[int, str] = field(default_factory=dict)
    by_number: dict[tuple[str, int], list[int]] = field(default_factory=lambda: defaultdict(list))
    by_key: dict[tuple[str, NameKey], list[int]] = field(default_factory=lambda: defaultdict(list))

    def matches(self, work: Work, key: NameKey) -> list[int]:
        return self.by_key.get((work.source_id, key), []) if len(key) == NAME_KEY_TOKENS else []

    def resolve(self, number: Any, text: Any) -> int | None:
        """The Taqrib notice with this number whose text starts as the link file quotes it."""
        if not isinstance(number, int) or not isinstance(text, str):
            return None
        found = [n for n in self.by_number.get((TAQRIB.source_id, number), []) if self._starts(n, text)]
        return found[0] if len(found) == 1 else None

    def _starts(self, notice: int, text: str) -> bool:
        return bool(self.notices[notice]["text"].startswith(text[:40]))


def _name_line(text: str) -> str:
    """The first line of a notice after the sigla printed before the name."""
    return LEADING_SIGLA.sub("", text).strip().split("\n", 1)[0]


def _simple_headword(text: str) -> str | None:
    """The words before the first «عن» / «وعنه» of a notice, when that is a short name."""
    words = _name_line(text).split()
    ends = [i for i, word in enumerate(words) if normalize(word) in _HEADWORD_END]
    return " ".join(words[: ends[0]]) if ends and ends[0] in _HEADWORD_TOKENS else None


def _page(milestone: Any) -> str | None:
    """The page milestone; the editions' unnumbered pages are all marked 'PageV00P000', kept as null."""
    return milestone if isinstance(milestone, str) and milestone != UNNUMBERED_PAGE else None


def _notice_row(work: Work, line: int, entry_id: str, entry: dict[str, Any]) -> Row:
    """A notice; for Taqrib, Ibn Hajar's verdict read whole and the tabaqa, as the derived file gives
    it or as the notice states it in words («من رؤوس الطبقة السابعة»)."""
    name, text = entry.get("name_ar"), entry["text"]
    taqrib = work == TAQRIB
    tabaqa = entry.get("tabaqa") if isinstance(entry.get("tabaqa"), int) else stated_tabaqa(text)
    return {
        "notice_id": notice_id(work.number, line),
        "entry_id": entry_id,
        "source_id": work.source_id,
        "entry_number": str(entry["entry_no"]),
        "page": _page(entry.get("page_start")),
        "headword": name if isinstance(name, str) and name.strip() else None,
        "text": text,
        "grade_term": read_verdict(text) if taqrib else None,
        "tabaqa": tabaqa if taqrib else None,
    }


def _shelve(library: Library, work: Work, row: Row) -> None:
    number = row["notice_id"]
    headword = row["headword"] or _simple_headword(row["text"])
    library.notices[number] = row
    library.keys[number] = name_key(row["headword"] or _name_line(row["text"]))
    if headword:
        library.headwords[number] = headword
    library.by_number[(work.source_id, int(row["entry_number"]))].append(number)
    library.by_key[(work.source_id, library.keys[number])].append(number)


def _read_work(ctx: ImportContext, library: Library, work: Work) -> None:
    repeats: Counter[int] = Counter()
    for line, entry in ctx.jsonl(work.path, f"{work.prefix} notices", work.source_id, derived=True):
        number, text = entry.get("entry_no"), entry.get("text")
        if not isinstance(number, int) or not isinstance(text, str) or not text.strip():
            ctx.skip(work.path, line, "entry_no or text missing")
            continue
        repeats[number] += 1
        suffix = f"#{repeats[number]}" if repeats[number] > 1 else ""
        row = _notice_row(work, line, f"{work.prefix}:{number}{suffix}", entry)
        ctx.add("rijal_notice", row)
        _shelve(library, work, row)
