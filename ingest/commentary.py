"""Builds commentary_passage: the passages of the Arabic commentaries, computed from their OpenITI texts
(ingest.commentary_passages), each tied to its hadith. A passage's id is its work's number x 100,000 + its place
in the work (`seq`).

Each passage is tied to the hadith that its marker numbers, then checked: the passage's first two words (its
lemma, the words of the hadith it starts from) must occur together in the hadith's Arabic. Only a checked passage
is VALIDATED, and only a VALIDATED passage of a work whose numbering matches ours is PUBLISHED. A checked passage's
confidence is how rare its quotation of the hadith is among the hadith of the collection: the longest run of its first
words (up to MAX_QUOTE) that the hadith holds, which few hadith hold when it names its hadith well.
"""

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from app.text.arabic import tokens
from ingest import ids
from ingest.commentary_passages import Passage, marked_passages, numbered_passages
from ingest.context import ImportContext, Row

# Two words: on the real data, three consecutive words miss half the lemmas (commentators quote two
# words and explain them), while two are found for 96 % of al-Sindi's passages against 0.3 % for a
# random hadith of the same collection.
LEMMA_WORDS = 2
LEADING_DIGITS = re.compile(r"\d+")
# The longest opening quotation the confidence measures: a commentator quotes a few words; Ibn Daqiq al-'Id
# quotes the whole hadith, whose first eight words are already held by it alone.
MAX_QUOTE = 8


@dataclass(frozen=True)
class Work:
    number: int  # the work's place in passage ids (ids.passage_id)
    text: str  # the OpenITI text in commentary/openiti/
    source_id: str
    collection: str
    marked: bool = True  # split at the editor's markers `[N]`; else at the hadith's printed numbers
    publishable: bool = True  # False where the work's numbering does not follow ours (data README 4.5)

    @property
    def path(self) -> str:
        return f"commentary/openiti/{self.text}.txt.gz"

    @property
    def split(self) -> Callable[[str], list[Passage]]:
        return marked_passages if self.marked else numbered_passages


WORKS = (
    Work(1, "1138IbnCabdHadiNurDinSindi.HashiyaCalaNasai.Shamela0000522-ara1", "openiti-sindi-nasai", "nasai"),
    Work(2, "0911Suyuti.SharhSunanNasai.Shamela0000360-ara1", "openiti-suyuti-nasai", "nasai"),
    Work(3, "0911Suyuti.DibajCalaMuslim.Shamela0001712-ara1", "openiti-suyuti-muslim", "muslim"),
    Work(4, "0911Suyuti.MisbahZujaja.Shamela0000791-ara1", "openiti-suyuti-ibnmajah", "ibnmajah"),
    Work(5, "0911Suyuti.QutMughtadhi.Shamela0007562-ara1", "openiti-suyuti-tirmidhi", "tirmidhi"),
    Work(6, "0911Suyuti.TanwirHawalik.Shamela0005757-ara1", "openiti-suyuti-malik", "malik", publishable=False),
    Work(
        7,
        "0702IbnDaqiqCidQushayri.SharhArbacinaNawawiyya.Shamela0011244-ara1",
        "openiti-ibn-daqiq-nawawi",
        "nawawi40",
        marked=False,
    ),
)


def _whole_number(canonical: str) -> int | None:
    """The number a commentator cites for a hadith: '8b' -> 8, '402.2' -> 402, '12' -> 12."""
    digits = LEADING_DIGITS.match(canonical)
    return int(digits.group()) if digits else None


def _hadith_by_number(hadith_rows: list[Row]) -> dict[tuple[int, int], list[Row]]:
    """(collection id, whole number) -> the hadith of that number and its variants, in collection order."""
    groups: dict[tuple[int, int], list[Row]] = defaultdict(list)
    for row in sorted(hadith_rows, key=lambda r: (r["collection_id"], r["seq_in_collection"])):
        number = _whole_number(row["canonical_number"] or "")
        if number is not None:
            groups[(row["collection_id"], number)].append(row)
    return groups


def lemma(text: str) -> str | None:
    """The first normalized words of a passage, or None when it has fewer than LEMMA_WORDS."""
    words = tokens(text)[:LEMMA_WORDS]
    return " ".join(words) if len(words) == LEMMA_WORDS else None


class QuoteRarity:
    """How many hadith of a collection hold a phrase: its words index the hadith that may hold it."""

    def __init__(self, hadith_rows: list[Row], collections: set[int]) -> None:
        self.texts: dict[int, str] = {}
        self.holding: dict[int, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
        self.sizes: Counter[int] = Counter()
        for row in hadith_rows:
            text = row["text_ar_normalized"]
            if text and row["collection_id"] in collections:
                self.texts[row["hadith_id"]] = f" {text} "
                self.sizes[row["collection_id"]] += 1
                for word in text.split():
                    self.holding[row["collection_id"]][word].add(row["hadith_id"])

    def confidence(self, collection: int, phrase: str) -> float:
        """1 - the share of the collection's hadith whose Arabic holds the phrase (the chance that a hadith
        drawn at random would not hold the passage's quotation), rounded down to 3 decimals: the hadith
        itself holds it, so it never reaches 1."""
        candidates = sorted((self.holding[collection].get(word, set()) for word in phrase.split()), key=len)
        holders = sum(1 for hadith in candidates[0] if f" {phrase} " in self.texts[hadith])
        size = self.sizes[collection]
        return 1000 * (size - holders) // size / 1000


def quotation(text: str, hadith: Row) -> str | None:
    """The longest run of the passage's first words (LEMMA_WORDS to MAX_QUOTE) that the hadith's Arabic holds."""
    words, held = tokens(text)[:MAX_QUOTE], None
    for length in range(LEMMA_WORDS, len(words) + 1):
        phrase = " ".join(words[:length])
        if not _contains(hadith, phrase):
            break
        held = phrase
    return held


def _contains(hadith: Row, phrase: str) -> bool:
    return f" {phrase} " in f" {hadith['text_ar_normalized'] or ''} "


def _resolve(candidates: list[Row], phrase: str | None) -> tuple[Row | None, str]:
    """The hadith a passage comments on, and how it was aligned.

    A number can cover several hadith (Muslim's 8a, 8b ...; a sub-number such as 402.2): the first
    whose Arabic contains the lemma, else the first of them.
    """
    if not candidates:
        return None, "unresolved_number"
    verified = next((h for h in candidates if phrase and _contains(h, phrase)), None)
    if verified is not None:
        return verified, "lemma_verified"
    return candidates[0], "number_only"


class _Passages:
    """The passages of one work, resolved, each verified one with the confidence of its own lemma."""

    def __init__(
        self, ctx: ImportContext, work: Work, hadith: dict[tuple[int, int], list[Row]], rarity: QuoteRarity
    ) -> None:
        self.ctx, self.work, self.hadith, self.rarity = ctx, work, hadith, rarity
        self.collection = ids.COLLECTIONS[work.collection]

    def read(self) -> None:
        """The work's passages; one read from a line whose bytes are not UTF-8 is left out (reported with the
        line)."""
        text = self.ctx.text(self.work.path, "commentary passages", self.work.source_id)
        passages = self.work.split(text)
        ends = [passage.line for passage in passages[1:]] + [text.count("\n") + 2]
        for passage, end in zip(passages, ends, strict=True):
            if not self.ctx.damaged(self.work.path, range(passage.line, end)):
                self._add(passage)

    def _add(self, passage: Passage) -> None:
        target, status = _resolve(self.hadith.get((self.collection, passage.number), []), lemma(passage.text))
        validated = status == "lemma_verified"
        quoted = quotation(passage.text, target) if target and validated else None
        self.ctx.add(
            "commentary_passage",
            {
                "passage_id": ids.passage_id(self.work.number, passage.seq),
                "source_id": self.work.source_id,
                "hadith_id": target["hadith_id"] if target else None,
                "collection_id": self.collection,
                "marker_no": str(passage.number) if self.work.marked else None,
                "seq": passage.seq,
                "passage_kind": "sharh",
                "heading": passage.heading or None,
                "text": passage.text,
                "page": passage.page,
                "alignment_status": status,
                "alignment_confidence": self.rarity.confidence(self.collection, quoted) if quoted else None,
                "validation_status": "VALIDATED" if validated else "UNVALIDATED",
                "publication_status": "PUBLISHED" if validated and self.work.publishable else "UNPUBLISHED",
                "source_key": f"{self.work.path}#{passage.line}",
            },
        )


def build(ctx: ImportContext) -> None:
    hadith = _hadith_by_number(ctx.tables["hadith"])
    rarity = QuoteRarity(ctx.tables["hadith"], {ids.COLLECTIONS[work.collection] for work in WORKS})
    for work in WORKS:
        _Passages(ctx, work, hadith, rarity).read()
