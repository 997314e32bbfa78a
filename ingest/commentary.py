"""Builds commentary_passage: the Arabic commentaries (OpenITI), split at the editor's hadith markers.

Each passage is tied to the hadith that its marker numbers, then checked: the passage's first two words (its
lemma, the words of the hadith it starts from) must occur together in the hadith's Arabic. Only a checked passage
is VALIDATED, and only a VALIDATED passage of a work whose numbering matches ours is PUBLISHED.
"""

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from app.arabic import tokens
from ingest import ids
from ingest.context import ImportContext, Row

# Two words: on the real data, three consecutive words miss half the lemmas (commentators quote two
# words and explain them), while two are found for 96 % of al-Sindi's passages against 0.3 % for a
# random hadith of the same collection.
LEMMA_WORDS = 2
LEADING_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class Work:
    number: int  # the work's place in passage ids (ids.passage_id)
    name: str  # the file name in commentary/
    source_id: str
    collection: str
    number_field: str  # the passage field that numbers its hadith
    heading_field: str
    publishable: bool = True  # False where the work's numbering does not follow ours (data README 4.5)

    @property
    def path(self) -> str:
        return f"commentary/{self.name}.jsonl.gz"


WORKS = (
    Work(1, "sindi_hashiya_nasai", "openiti-sindi-nasai", "nasai", "marker_no", "heading"),
    Work(2, "suyuti_zahr_ruba_nasai", "openiti-suyuti-nasai", "nasai", "marker_no", "heading"),
    Work(3, "suyuti_dibaj_muslim", "openiti-suyuti-muslim", "muslim", "marker_no", "heading"),
    Work(4, "suyuti_misbah_zujaja_ibnmajah", "openiti-suyuti-ibnmajah", "ibnmajah", "marker_no", "heading"),
    Work(5, "suyuti_qut_mughtadhi_tirmidhi", "openiti-suyuti-tirmidhi", "tirmidhi", "marker_no", "heading"),
    Work(
        6,
        "suyuti_tanwir_hawalik_muwatta",
        "openiti-suyuti-malik",
        "malik",
        "marker_no",
        "heading",
        publishable=False,
    ),
    Work(
        7,
        "ibn_daqiq_sharh_arbain_nawawi",
        "openiti-ibn-daqiq-nawawi",
        "nawawi40",
        "best_text_match_hadithnumber",
        "title",
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
    """The passages of one work, resolved; the confidence is known once the whole work is read."""

    def __init__(self, ctx: ImportContext, work: Work, hadith: dict[tuple[int, int], list[Row]]) -> None:
        self.ctx, self.work, self.hadith = ctx, work, hadith
        self.collection = ids.COLLECTIONS[work.collection]
        self.rows: list[Row] = []

    def read(self) -> None:
        for line, obj in self.ctx.jsonl(self.work.path, "commentary passages", self.work.source_id, derived=True):
            text, number, seq = (obj.get("text") or "").strip(), obj.get(self.work.number_field), obj.get("seq")
            if not text or not isinstance(number, int) or not isinstance(seq, int):
                self.ctx.skip(self.work.path, line, f"empty text, or no integer {self.work.number_field} or seq")
                continue
            self._add(line, obj, text, number)

    def _add(self, line: int, obj: dict[str, Any], text: str, number: int) -> None:
        target, status = _resolve(self.hadith.get((self.collection, number), []), lemma(text))
        validated = status == "lemma_verified"
        marker = obj.get("marker_no")
        self.rows.append(
            {
                "passage_id": ids.passage_id(self.work.number, line),
                "source_id": self.work.source_id,
                "hadith_id": target["hadith_id"] if target else None,
                "collection_id": self.collection,
                "marker_no": None if marker is None else str(marker),
                "seq": obj["seq"],
                "passage_kind": "sharh",
                "heading": (obj.get(self.work.heading_field) or "").strip() or None,
                "text": text,
                "page": obj.get("page_start") or None,
                "alignment_status": status,
                "alignment_confidence": None,
                "validation_status": "VALIDATED" if validated else "UNVALIDATED",
                "publication_status": "PUBLISHED" if validated and self.work.publishable else "UNPUBLISHED",
                "source_key": f"{self.work.path}#{line}",
            }
        )

    def write(self) -> None:
        """A verified passage's confidence is the work's measured rate: the share of its resolved
        passages whose lemma is found in the hadith of their number."""
        resolved = [r for r in self.rows if r["hadith_id"] is not None]
        verified = [r for r in resolved if r["alignment_status"] == "lemma_verified"]
        rate = round(len(verified) / len(resolved), 3) if resolved else None
        for row in self.rows:
            if row["alignment_status"] == "lemma_verified":
                row["alignment_confidence"] = rate
            self.ctx.add("commentary_passage", row)


def build(ctx: ImportContext) -> None:
    hadith = _hadith_by_number(ctx.tables["hadith"])
    for work in WORKS:
        passages = _Passages(ctx, work, hadith)
        passages.read()
        passages.write()
