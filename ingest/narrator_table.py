"""The narrator table, computed from the upstream copies: one narrator per scholar_indx of the muslimscholars
narrator index (`getrawisindex.json`: scholar_indx -> the number of its row in `all_rawis.csv`), with the name,
class label, dates and reliability grade of that row in the takhrij-backend copy of `all_rawis.csv` (the same
rows in the same order, a few columns kept).

A row's `name` is written «Latin ( Arabic ( honorific» or «Latin Arabic». The Latin name is what stands before
the first Arabic letter; the Arabic name what follows it, kept to Arabic letters, spaces and hyphens (which
separate a narrator's other names: «أبو هريرة - عبد الرحمن بن صخر»). Arabic presentation forms are read as the
letters they draw («أﺑﻲ» is «أبي»), bidirectional marks are dropped, and runs of spaces are one space.

The data scout's join of the same files, `narrators_reconstructed.csv.gz`, is not read: it is the oracle that
tests/ingest/test_narrator_table.py compares this table with (docs/data.md gives the agreement)."""

import re
import unicodedata
from dataclasses import dataclass

from ingest.context import ImportContext
from ingest.errors import MissingInput

INDEX_FILE = "narrators/kaggle_muslimscholars/getrawisindex.json.gz"
ROWS_FILE = "narrators/all_rawis_reduced/all_rawis_reduced.csv.gz"
INDEX_PURPOSE = "narrator ids -> rows of all_rawis.csv"
ROWS_PURPOSE = "narrators, names, dates"

_ARABIC_LETTER = re.compile(r"[\u0600-\u06FF]")
_NOT_KEPT_IN_ARABIC = re.compile(r"[^\u0600-\u06FF\s-]")
_PRESENTATION_FORMS = re.compile(r"[\uFB50-\uFDFF\uFE70-\uFEFF]+")
_BIDI_MARKS = re.compile(r"[\u200e\u200f\u202a-\u202e]")


@dataclass(frozen=True)
class NarratorSource:
    """One narrator as the upstream files give him: his id and the fields of his row."""

    scholar_indx: int
    name_latin: str
    name_ar: str
    label: str  # the class label ('Comp.(RA) [1st Generation]')
    birth: str
    death: str
    reliability: str  # made by the takhrij-backend repository's author


def _words(text: str) -> str:
    return " ".join(text.split())


def split_name(raw: str) -> tuple[str, str]:
    """The Latin and the Arabic name of an all_rawis `name` (either may be empty)."""
    text = _BIDI_MARKS.sub(" ", _PRESENTATION_FORMS.sub(lambda m: unicodedata.normalize("NFKC", m[0]), raw))
    first = _ARABIC_LETTER.search(text)
    if first is None:
        return _words(text.replace("(", " ")), ""
    return _words(text[: first.start()].rstrip(" (")), _words(_NOT_KEPT_IN_ARABIC.sub(" ", text[first.start() :]))


def _index(ctx: ImportContext) -> dict[int, int]:
    found = ctx.json(INDEX_FILE, INDEX_PURPOSE, "muslimscholars")
    if not isinstance(found, dict) or not all(
        key.isdigit() and isinstance(row, int) and not isinstance(row, bool) for key, row in found.items()
    ):
        raise MissingInput(INDEX_FILE, INDEX_PURPOSE, "is not an object of scholar ids and row numbers")
    return {int(key): row for key, row in found.items()}


def narrator_sources(ctx: ImportContext) -> list[NarratorSource]:
    """Each narrator of the index with his row, by id; a damaged row leaves its narrator out (reported with its
    line). The rows are matched by position: a file whose count of rows is not the index's is refused. Read once
    per import for the steps that read it (the narrators, the chain alignment, the Taqrib candidates)."""
    return ctx.once(_read_sources)


def _read_sources(ctx: ImportContext) -> list[NarratorSource]:
    index = _index(ctx)
    rows = ctx.csv_in_order(ROWS_FILE, ROWS_PURPOSE, "takhrij-backend")
    if sorted(index.values()) != list(range(len(rows))):
        reason = f"has {len(rows):,} rows where the index names {len(index):,}: no row can be matched"
        raise MissingInput(ROWS_FILE, ROWS_PURPOSE, reason)
    return [_source(scholar, row) for scholar, position in sorted(index.items()) if (row := rows[position])]


def _source(scholar: int, row: dict[str, str]) -> NarratorSource:
    latin, arabic = split_name(row["name"])
    fields = (row["grade"], row["birth_date_hijri"], row["death_date_hijri"], row["reliability_grade"])
    return NarratorSource(scholar, latin, arabic, *fields)
