"""A CSV file's records by physical line: each record with the lines it covers, and what is wrong with it.

A line is what an editor numbers: it ends with «\\n» only. The LK corpus holds bare «\\r» inside its quoted
fields; csv's own line count reads each of them as a line, and every later line number went wrong.

A stray «"» makes csv read the lines after it into one field until the next «"». When the field count
changes the record is plainly bad; when it does not (the closing «"» opened the same field of a later line),
the swallowed lines sit inside a field as line breaks. Most files hold every record on one line, so any line
break in a field is damage; the LK corpus holds real line breaks in its text columns (measured on the real
files: `MULTILINE_COLUMNS`), where a line that starts with the record's own first field is a swallowed record.
"""

import csv
import io
from _csv import Reader
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

LK_CORPUS = "hadith/lk_hadith_corpus/"

# Columns whose values the real files hold over several lines, per folder (every other file: none).
MULTILINE_COLUMNS: dict[str, frozenset[str]] = {
    LK_CORPUS: frozenset(
        {
            "Section_English",
            "Section_Arabic",
            "English_Hadith",
            "English_Isnad",
            "English_Matn",
            "English_Grade",
            "Arabic_Hadith",
            "Arabic_Matn",
            "Arabic_Comment",
        }
    ),
}


@dataclass(frozen=True)
class Record:
    """One record: its fields (none when csv could not read it), its first and last line, and its fault."""

    fields: list[str]
    first: int
    last: int
    fault: str | None

    def line_faults(self) -> Iterator[tuple[int, str]]:
        """(line, reason) for each line of a faulty record: a record over several lines costs each of them."""
        if self.fault is None:
            return
        if self.first == self.last:
            yield self.last, self.fault
            return
        for line in range(self.first, self.last + 1):
            yield line, f"{self.fault}: a quote opened at line {self.first} runs to line {self.last}"


def multiline_columns(path: str) -> frozenset[str]:
    return next((columns for folder, columns in MULTILINE_COLUMNS.items() if path.startswith(folder)), frozenset())


def _read(reader: Reader) -> Iterator[list[str] | csv.Error]:
    """Each record, or the error that stopped one (a quote left open past csv's field size limit); csv starts
    afresh at the next line."""
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield exc
            continue
        yield record


def _swallowed(header: Sequence[str], fields: Sequence[str], multiline: frozenset[str]) -> str | None:
    """The column that holds lines of other records, if one does."""
    next_record = f"\n{fields[0]}," if fields[0] else None
    for name, value in zip(header, fields, strict=True):
        if "\n" in value and (name not in multiline or (next_record is not None and next_record in value)):
            return name
    return None


def _fault(header: Sequence[str], fields: list[str] | csv.Error, multiline: frozenset[str]) -> str | None:
    if isinstance(fields, csv.Error):
        return f"not readable as CSV ({fields})"
    if len(fields) != len(header):
        return f"{len(fields)} fields, expected {len(header)}"
    column = _swallowed(header, fields, multiline)
    if column is not None:
        return f"{column} holds the lines of other records"
    return None


def read_records(text: str, path: str) -> tuple[list[str], Iterator[Record]] | None:
    """The header and the records of `text`; None when it has no header."""
    reader = csv.reader(io.StringIO(text, newline="\n"))
    header = next(reader, None)
    if header is None:
        return None
    return header, _records(reader, header, multiline_columns(path))


def _records(reader: Reader, header: list[str], multiline: frozenset[str]) -> Iterator[Record]:
    first = reader.line_num + 1
    for fields in _read(reader):
        last = reader.line_num
        fault = _fault(header, fields, multiline)
        yield Record(fields if isinstance(fields, list) else [], first, last, fault)
        first = last + 1
