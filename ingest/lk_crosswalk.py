"""The LK crosswalk, computed from the upstream copies: each row of the LK corpus (six books) gets at most one
hadith-json record of its collection, by the rule the data README gives for the staged `lk_to_hadith_json.csv.gz`:
the Arabic token containment of the row's whole Arabic (`Arabic_Hadith`) and the record's (the share of the
shorter text's distinct normalized words that the other holds, ingest.crosswalk.contained), MATCH or more.

A row is looked for in its own kitab: LK's file `<Book>/Chapter<N>.csv` is hadith-json's kitab N (on the full data,
of the rows whose best record over the whole collection is one record, every one lies in its own kitab but one, a
near tie, 0.750 against 0.742, whose record in its own kitab is the one in order). Its candidates are found
through the rarest words of each text: a text that holds MATCH of a shorter text's words holds one at least of
any `_rarest` of them, so no record that reaches MATCH is missed. Two passes, in LK's order:

1. `arabic_containment`: the row has MIN_WORDS distinct words or more, and one record has the highest
   containment;
2. the rest (a tie, or a shorter row): of the records with the highest containment, those that lie where the row
   stands in LK's order, between the records of the nearest rows matched before and after it (inclusive: LK cuts
   some records in two, and hadith-json joins some follow-up chains to the hadith before them). LK's rows run in
   the books' order (on the full data, of two rows in a row matched in the first pass, 98.9 % go to the same
   record or the next one, 7 of 33,762 to an earlier one), so the place is evidence. The row is matched where one
   record lies there (`arabic_containment+order`), else to the one of them with the row's very words (`+same_words`),
   else to the one whose first OPENING words are the row's (`+same_opening`: a row that LK joins from two records
   is the record whose isnad it opens with). Where none of them or several lie there, the row stays unmatched
   (`ambiguous`): a short or generic text that several hadith hold alike names none of them.

A row is unmatched (`no_match`) where no record of its kitab reaches MATCH. The staged file is not read by the
importer: it is the oracle of tests/ingest/test_lk_crosswalk_derivation.py (docs/data.md gives the agreement;
eval/lk_crosswalk_sample.csv the disagreements checked by hand). The crosswalk is computed once per import
(`computed`); each hadith's LK row (`links`) gives its bab, grade and matn in the hadith step, and its isnad in the
chains step where it has no dataset chain."""

import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from app.text.arabic import tokens
from ingest.context import ImportContext
from ingest.crosswalk import OPENING, contained
from ingest.hadith_sources import LK_BOOKS, LK_CORPUS, LkKey, LkLink, read_hadith_json

MATCH = 0.7  # the data README's threshold of a match
MIN_WORDS = 15  # distinct words a row needs to be matched on its text alone, out of LK's order
MATCHED = "arabic_containment"
IN_ORDER = "arabic_containment+order"
SAME_WORDS = "arabic_containment+order+same_words"
SAME_OPENING = "arabic_containment+order+same_opening"
AMBIGUOUS = "ambiguous"
NO_MATCH = "no_match"
PURPOSE = "the LK crosswalk, computed from the Arabic of LK and hadith-json"

Target = tuple[str, int]  # hadith-json (kitab, idInBook)


@dataclass(frozen=True)
class LkRow:
    """An LK corpus row: its key, its line, the kitab of its file and its Arabic's distinct words."""

    key: LkKey
    line: int
    kitab: str
    words: frozenset[str]
    opening: tuple[str, ...]  # its first OPENING words


@dataclass(frozen=True)
class Record:
    """A hadith-json record: its place (kitab, idInBook), its seq_in_collection, its Arabic's distinct words."""

    target: Target
    seq: int
    words: frozenset[str]
    opening: tuple[str, ...]


@dataclass(frozen=True)
class Match:
    """An LK row and the record it was matched to (None where it was not), with the best containment found."""

    collection: str
    row: LkRow
    target: Target | None
    containment: float
    method: str


def _rarest(words: frozenset[str], found: Counter[str]) -> list[str]:
    """The words of a text of which a text that holds MATCH of them holds one at least, the rarest first."""
    missed = len(words) - math.ceil(round(MATCH * len(words), 9))  # the most words such a text may miss
    return sorted(words, key=lambda word: (found[word], word))[: missed + 1]


class _Kitab:
    """A kitab's records, and how many of its texts (LK rows and records) hold each word."""

    def __init__(self, records: list[Record], rows: list[LkRow]) -> None:
        self.records = records
        self.found: Counter[str] = Counter()
        for words in [*(record.words for record in records), *(row.words for row in rows)]:
            self.found.update(words)
        self.holding: dict[str, list[int]] = defaultdict(list)  # word -> the records that hold it
        self.rare: dict[str, list[int]] = defaultdict(list)  # word -> the records it is one of the rarest of
        for i, record in enumerate(records):
            for word in record.words:
                self.holding[word].append(i)
            for word in _rarest(record.words, self.found):
                self.rare[word].append(i)

    def candidates(self, row: LkRow) -> list[tuple[float, Record]]:
        """The records whose containment with the row is MATCH or more, with it."""
        near = {i for word in _rarest(row.words, self.found) for i in self.holding.get(word, ())}
        near |= {i for word in row.words for i in self.rare.get(word, ())}
        shares = ((contained(row.words, self.records[i].words), self.records[i]) for i in sorted(near))
        return [(share, record) for share, record in shares if share >= MATCH]


class _Matching:
    """The two passes over one collection's rows, in LK's order."""

    def __init__(self, collection: str, rows: list[LkRow], records: list[Record]) -> None:
        self.collection, self.rows = collection, rows
        by_kitab: dict[str, list[Record]] = defaultdict(list)
        for record in records:
            by_kitab[record.target[0]].append(record)
        rows_by_kitab: dict[str, list[LkRow]] = defaultdict(list)
        for row in rows:
            rows_by_kitab[row.kitab].append(row)
        kitabs = {kitab: _Kitab(by_kitab[kitab], kitab_rows) for kitab, kitab_rows in rows_by_kitab.items()}
        self.best: list[tuple[float, list[Record]]] = []  # per row: the highest containment, its records
        for row in rows:
            found = kitabs[row.kitab].candidates(row)
            top = max((share for share, _ in found), default=0.0)
            self.best.append((top, [record for share, record in found if share == top]))
        self.matched: dict[int, tuple[Record, str]] = {}

    def on_text(self) -> None:
        for i, (row, (_, top)) in enumerate(zip(self.rows, self.best, strict=True)):
            if len(top) == 1 and len(row.words) >= MIN_WORDS:
                self.matched[i] = (top[0], MATCHED)

    def in_order(self) -> None:
        anchors = sorted(self.matched)
        following = {}  # row -> the seq of the record of the next row matched on its text
        for i, j in zip([-1, *anchors], [*anchors, len(self.rows)], strict=True):
            for k in range(i + 1, j):
                following[k] = self.matched[j][0].seq if j < len(self.rows) else None
        last: int | None = None  # the seq of the record of the last row matched
        for i in range(len(self.rows)):
            if i in self.matched:
                last = self.matched[i][0].seq
                continue
            high = following[i]
            placed = [
                record
                for record in self.best[i][1]
                if (last is None or record.seq >= last) and (high is None or record.seq <= high)
            ]
            found = self._one(self.rows[i], placed)
            if found:
                self.matched[i] = found
                last = found[0].seq

    @staticmethod
    def _one(row: LkRow, placed: list[Record]) -> tuple[Record, str] | None:
        """The one record of those in place: the only one, else the only one with the row's very words, else the
        only one that opens with the row's opening words (a row that LK joins from two records is the record whose
        isnad it opens with)."""
        if len(placed) == 1:
            return placed[0], IN_ORDER
        same = [record for record in placed if record.words == row.words]
        if len(same) == 1:
            return same[0], SAME_WORDS
        opening = [record for record in placed if record.opening == row.opening]
        return (opening[0], SAME_OPENING) if len(opening) == 1 else None

    def matches(self) -> Iterator[Match]:
        self.on_text()
        self.in_order()
        for i, (row, (share, top)) in enumerate(zip(self.rows, self.best, strict=True)):
            found = self.matched.get(i)
            if found:
                yield Match(self.collection, row, found[0].target, share, found[1])
            else:
                yield Match(self.collection, row, None, share, AMBIGUOUS if top else NO_MATCH)


def lk_rows(ctx: ImportContext, collection: str) -> list[LkRow]:
    """The LK corpus rows of a collection, in file order, keyed by file, number and rank among equal numbers (a
    few numbers repeat in a file)."""
    seen: Counter[tuple[str, str]] = Counter()
    rows = []
    for line, row in ctx.csv(LK_CORPUS.format(LK_BOOKS[collection]), PURPOSE, "lk-corpus"):
        pair = (row["source_file"], row["Hadith_number"].removesuffix(".0"))
        seen[pair] += 1
        kitab = row["source_file"].rsplit("Chapter", 1)[-1].removesuffix(".csv")
        words = tokens(row["Arabic_Hadith"])
        rows.append(LkRow((*pair, seen[pair]), line, kitab, frozenset(words), tuple(words[:OPENING])))
    return rows


def _records(ctx: ImportContext, collection: str) -> list[Record]:
    records = []
    for r in read_hadith_json(ctx, collection):
        words = tokens(r.arabic or "")
        records.append(Record((r.kitab, r.id_in_book), r.seq, frozenset(words), tuple(words[:OPENING])))
    return records


def match(collection: str, rows: list[LkRow], records: list[Record]) -> list[Match]:
    """Each LK row of a collection, in order, with the record it was matched to."""
    return list(_Matching(collection, rows, records).matches())


def _every_match(ctx: ImportContext) -> list[Match]:
    return [m for code in LK_BOOKS for m in match(code, lk_rows(ctx, code), _records(ctx, code))]


def computed(ctx: ImportContext) -> list[Match]:
    """Every LK row of the six books, in the order of LK_BOOKS and of the files; computed once per import."""
    return ctx.once(_every_match)


def links(ctx: ImportContext) -> dict[str, dict[Target, LkLink]]:
    """Per collection, hadith-json (kitab, idInBook) -> its LK row: of the rows matched to it, the one with the
    highest containment, the first in LK's order of two as high."""
    found: dict[str, dict[Target, LkLink]] = defaultdict(dict)
    for m in computed(ctx):
        best = found[m.collection].get(m.target) if m.target else None
        if m.target and (best is None or m.containment > best.containment):
            found[m.collection][m.target] = LkLink(m.row.key, m.containment)
    return found
