"""The hadith-number crosswalk, computed from the upstream copies: each hadith-json record of the seven
collections gets at most one record of the fawazahmed0 English edition (`eng-<collection>`), whose number is
the hadith-api number, and no fawaz record is given twice. Three passes, each on what the earlier left:

1. the same English (`english_exact`; `english_exact_ambiguous` when fawaz has that English more than once):
   first the fawaz record at the record's own in-book reference (kitab, index in kitab), then the records of
   the same kitab in the order of both editions, then fawaz records with no in-book reference (0/0), then, for
   an English of MIN_WORDS words or more found once in each edition, a record of another kitab; a generic
   formula («This hadith has been narrated on the authority of Zuhri with the same chain») never goes to
   another kitab, where it would find a different hadith;
2. the fawaz record at the same in-book reference when their English words agree (Jaccard >= 0.6,
   `inbook_ref+english_jaccard`);
3. the same opening or ending (`english_contained`): where one edition writes a paragraph that the other
   splits or cuts (fawaz's Malik joins Malik's own comment to the hadith after it; hadith-json drops bracketed
   words and what follows them), a fawaz record of the same kitab, at the same or an adjacent index in kitab or
   between the fawaz records of the nearest paired records before and after, whose English opens or ends with
   the same OPENING words and holds CONTAINED of the shorter text's words. The shorter text must have
   MIN_WORDS words: a generic formula alone is too short to name a hadith.

A record that hadith-json gives no Arabic (Malik's own comments) is never paired: the Arabic editions do not
number it, and the fawaz record that holds its English is the number of the hadith joined to it.

English is compared as words of letters only (hadith-json writes cross-reference numbers into some texts),
lower case, without diacritics, apostrophes or quotes inside a word; the same English is the same letters,
whatever the spaces and hyphens between them.

The data scout's staged `hadith_json_to_fawaz_numbers.csv.gz` is not read by the importer: it is the oracle
that tests/ingest/test_crosswalk_derivation.py measures this crosswalk against (docs/data.md gives the
agreement, eval/crosswalk_derivation_sample.csv the disagreements checked by hand). The importer reads
hadith-json itself (ingest/hadith_sources.py) and hands its records to `pair`."""

import re
import unicodedata
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from ingest.context import ImportContext

FAWAZ_ENGLISH = "hadith/fawaz_hadith_csv/eng-{}.csv.gz"
PURPOSE = "the hadith-number crosswalk, computed from the English of both editions"
JACCARD_MIN = 0.6
OPENING = 10  # words the two texts must open or end with
CONTAINED = 0.9  # share of the shorter text's distinct words that the longer holds
MIN_WORDS = 20  # words of the shorter text
NO_REFERENCE = ("0", "0")  # fawaz's in-book reference of a record that has none

WORD = re.compile(r"[a-z]+")
INNER_MARK = re.compile(r"(?<=[a-z])['’‘`ʼ](?=[a-z])")


def words(text: str) -> list[str]:
    """The English's words: letters only, lower case, without diacritics or marks inside a word."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))
    return WORD.findall(INNER_MARK.sub("", plain))


def _text(words: list[str]) -> str:
    """The English as its letters alone: the same text whatever the spaces and hyphens between its words."""
    return "".join(words)


def jaccard(a: list[str], b: list[str]) -> float:
    left, right = set(a), set(b)
    return len(left & right) / len(left | right) if left | right else 0.0


def contained(a: Collection[str], b: Collection[str]) -> float:
    """The share of the shorter text's distinct words that the other holds."""
    left, right = set(a), set(b)
    shorter = min(len(left), len(right))
    return len(left & right) / shorter if shorter else 0.0


def same_edge(a: list[str], b: list[str]) -> bool:
    """Whether the two texts open or end with the same words and the longer holds the shorter."""
    if min(len(a), len(b)) < MIN_WORDS:  # never less than OPENING
        return False
    same = a[:OPENING] == b[:OPENING] or a[-OPENING:] == b[-OPENING:]
    return same and contained(a, b) >= CONTAINED


@dataclass(frozen=True)
class FawazRecord:
    """A record of the fawaz English edition, at its line of the file."""

    line: int
    hadithnumber: str
    arabicnumber: str
    place: tuple[str, str]  # the in-book reference (book, hadith); NO_REFERENCE where it has none
    words: list[str]


@dataclass(frozen=True)
class Record:
    """A hadith-json record's place and English."""

    place: tuple[str, str]  # (kitab, index in kitab)
    seq: int
    words: list[str]
    arabic: bool  # whether hadith-json gives it an Arabic text


@dataclass(frozen=True)
class Number:
    """The fawaz record paired with a hadith-json record, and the pass that paired them."""

    record: FawazRecord
    method: str

    @property
    def hadithnumber(self) -> str:
        return self.record.hadithnumber


class _Pairing:
    """The passes over one collection; each pairs records that the earlier passes left."""

    def __init__(self, records: list[Record], fawaz: list[FawazRecord]) -> None:
        self.records, self.fawaz = records, fawaz
        self.paired: dict[int, tuple[int, str]] = {}  # record position -> (fawaz position, method)
        self.taken: set[int] = set()
        self.at_place = {f.place: j for j, f in reversed(list(enumerate(fawaz)))}  # the first at each place

    def _open(self, i: int) -> bool:
        """Whether the record may still be paired: not yet, and it has Arabic (Malik's comments have none, and
        fawaz joins them to the hadith after them, whose number it is)."""
        return i not in self.paired and self.records[i].arabic

    def _pair(self, i: int, j: int, method: str) -> None:
        self.paired[i] = (j, method)
        self.taken.add(j)

    def same_text(self) -> None:
        by_text: dict[str, list[int]] = defaultdict(list)
        for j, fawaz in enumerate(self.fawaz):
            by_text[_text(fawaz.words)].append(j)
        told = Counter(_text(record.words) for record in self.records)

        def once(r: Record) -> bool:  # the English is found once in each edition
            return told[_text(r.words)] == len(by_text[_text(r.words)]) == 1

        rounds: list[Callable[[Record, FawazRecord], bool]] = [
            lambda r, f: f.place == r.place,
            lambda r, f: f.place[0] == r.place[0],
            lambda r, f: f.place == NO_REFERENCE and (once(r) or len(r.words) >= MIN_WORDS),
            lambda r, f: once(r) and len(r.words) >= MIN_WORDS,
        ]
        for fits in rounds:
            for i, record in enumerate(self.records):
                same = by_text.get(_text(record.words), []) if record.words and self._open(i) else []
                free = [j for j in same if j not in self.taken and fits(record, self.fawaz[j])]
                if free:
                    self._pair(i, free[0], "english_exact" if len(same) == 1 else "english_exact_ambiguous")

    def same_place(self) -> None:
        for i, record in enumerate(self.records):
            j = self.at_place.get(record.place)
            if not self._open(i) or j is None or j in self.taken:
                continue
            if jaccard(record.words, self.fawaz[j].words) >= JACCARD_MIN:
                self._pair(i, j, "inbook_ref+english_jaccard")

    def same_edge(self) -> None:
        anchors = sorted(self.paired)
        for i, record in enumerate(self.records):
            if not self._open(i):
                continue
            found = [j for j in self._near(i, anchors) if same_edge(record.words, self.fawaz[j].words)]
            if found:
                self._pair(i, found[0], "english_contained")

    def _near(self, i: int, anchors: list[int]) -> list[int]:
        """The free fawaz records of the record's kitab at its index in kitab or the next to it, or between the
        fawaz records of the nearest paired records before and after it."""
        kitab, index = self.records[i].place
        at = bisect_left(anchors, i)
        low = self.paired[anchors[at - 1]][0] if at else -1
        high = self.paired[anchors[at]][0] if at < len(anchors) else len(self.fawaz)
        near = set(range(low + 1, high))
        if index.isdigit():
            places = ((kitab, str(int(index) + step)) for step in (-1, 0, 1))
            near |= {j for place in places if (j := self.at_place.get(place)) is not None}
        return sorted(j for j in near if j not in self.taken and self.fawaz[j].place[0] == kitab)

    def numbers(self) -> Iterator[tuple[Record, Number | None]]:
        self.same_text()
        self.same_place()
        self.same_edge()
        for i, record in enumerate(self.records):
            pair = self.paired.get(i)
            yield record, Number(self.fawaz[pair[0]], pair[1]) if pair else None


def _fawaz(ctx: ImportContext, collection: str) -> list[FawazRecord]:
    path = FAWAZ_ENGLISH.format(collection)
    found: list[FawazRecord] = []
    for line, r in ctx.csv(path, PURPOSE, "fawaz-hadith"):
        try:
            float(r["hadithnumber"])
        except ValueError:
            ctx.skip(path, line, f"unreadable hadithnumber {r['hadithnumber']!r}")
            continue
        place = (r["book"], r["hadith"])
        found.append(FawazRecord(line, r["hadithnumber"], r["arabicnumber"], place, words(r["text"])))
    return found


def pair(ctx: ImportContext, collection: str, records: list[Record]) -> list[tuple[Record, Number | None]]:
    """Each hadith-json record of the collection with its fawaz record, if one is found."""
    return list(_Pairing(records, _fawaz(ctx, collection)).numbers())
