"""What every step of an import shares: the data folder, the rows built so far, the bad-row ledger."""

import csv
import gzip
import hashlib
import io
import json
import zlib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.errors import MissingInput, TooManyBadRows

BAD_ROW_SHARE = 0.01
EXAMPLES_KEPT = 5

Row = dict[str, Any]


def _undecodable_lines(raw: bytes) -> dict[int, str]:
    """Each line whose bytes are not UTF-8, with where in the line they start."""
    found = {}
    for line_no, line in enumerate(raw.splitlines(), start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            found[line_no] = f"bytes that are not UTF-8 at offset {exc.start} of the line"
    return found


@dataclass
class FileLedger:
    path: str
    source_id: str
    purpose: str
    derived: bool
    sha256: str
    rows_read: int = 0
    bad: list[str] = field(default_factory=list)
    undecodable: dict[int, str] = field(default_factory=dict)  # line -> where its bytes are not UTF-8


class ImportContext:
    """The data folder, the tables being built, and the record of every file read."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.tables: dict[str, list[Row]] = defaultdict(list)
        self.files: dict[str, FileLedger] = {}

    def add(self, table: str, row: Row) -> None:
        self.tables[table].append(row)

    def skip(self, path: str, line: int, reason: str) -> None:
        """Record a malformed row; it is left out and reported as file:line."""
        self.files[path].bad.append(f"{path}:{line}: {reason}")

    def _open(self, path: str, purpose: str, source_id: str, derived: bool) -> bytes:
        full = self.data_dir / path
        try:
            raw = full.read_bytes()
        except FileNotFoundError:
            raise MissingInput(path, purpose, "file not found") from None
        except OSError as exc:
            raise MissingInput(path, purpose, f"cannot be read ({exc.strerror})") from None
        earlier = self.files.get(path)
        if earlier is not None and purpose not in earlier.purpose.split("; "):
            purpose = f"{earlier.purpose}; {purpose}"  # a file read for two things is recorded for both
        self.files[path] = FileLedger(path, source_id, purpose, derived, hashlib.sha256(raw).hexdigest())
        if path.endswith(".gz"):
            try:
                raw = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error):
                raise MissingInput(path, purpose, "is not a readable gzip file (truncated or damaged)") from None
        if not raw.strip():
            raise MissingInput(path, purpose, "is empty")
        return raw

    def _text(self, path: str, purpose: str, source_id: str, derived: bool) -> str:
        """The file as text, a byte-order mark dropped; a line with bytes that are not UTF-8 is kept with
        them replaced, and recorded so that its row is skipped as malformed (file, line and offset)."""
        raw = self._open(path, purpose, source_id, derived)
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            self.files[path].undecodable = _undecodable_lines(raw)
            return raw.decode("utf-8-sig", errors="replace")

    def _close(self, path: str) -> None:
        ledger = self.files[path]
        if len(ledger.bad) > BAD_ROW_SHARE * max(ledger.rows_read, 1):
            raise TooManyBadRows(path, len(ledger.bad), ledger.rows_read, ledger.bad[:EXAMPLES_KEPT])

    def jsonl(
        self, path: str, purpose: str, source_id: str, *, derived: bool = False
    ) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number, object) for each JSON-object line; malformed lines are skipped and counted."""
        text = self._text(path, purpose, source_id, derived)
        ledger = self.files[path]
        for line_no, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            ledger.rows_read += 1
            if line_no in ledger.undecodable:
                self.skip(path, line_no, ledger.undecodable[line_no])
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                self.skip(path, line_no, "not valid JSON")
                continue
            if not isinstance(obj, dict):
                self.skip(path, line_no, "not a JSON object")
                continue
            yield line_no, obj
        self._close(path)

    def csv(
        self, path: str, purpose: str, source_id: str, *, derived: bool = False
    ) -> Iterator[tuple[int, dict[str, str]]]:
        """(line number, row) for each CSV record; rows with the wrong field count are skipped. A record over
        several lines that has the wrong count (a stray «"» that swallowed the lines after it) costs each line
        it took, reported with its span, so that the 1 % rule counts them all."""
        text = self._text(path, purpose, source_id, derived)
        ledger = self.files[path]
        reader = csv.reader(io.StringIO(text, newline=""))
        try:
            header = next(reader)
        except StopIteration:
            raise MissingInput(path, purpose, "is empty") from None
        first_line = reader.line_num + 1
        for record in reader:
            span = reader.line_num - first_line + 1
            line, first_line = reader.line_num, reader.line_num + 1
            ledger.rows_read += span
            if line in ledger.undecodable:
                self.skip(path, line, ledger.undecodable[line])
            elif len(record) != len(header):
                self._skip_span(path, line, span, f"{len(record)} fields, expected {len(header)}")
            else:
                ledger.rows_read -= span - 1  # a quoted field over several lines: one row
                yield line, dict(zip(header, record, strict=True))
        self._close(path)

    def _skip_span(self, path: str, last: int, span: int, reason: str) -> None:
        if span == 1:
            self.skip(path, last, reason)
            return
        first = last - span + 1
        for line in range(first, last + 1):
            self.skip(path, line, f"{reason}: a quote opened at line {first} runs to line {last}")

    def json(self, path: str, purpose: str, source_id: str, *, derived: bool = False) -> Any:
        """A whole JSON document."""
        text = self._text(path, purpose, source_id, derived)
        self.files[path].rows_read = 1
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise MissingInput(path, purpose, "is not valid JSON") from None

    def text(self, path: str, purpose: str, source_id: str, *, derived: bool = False) -> str:
        """A whole text file (an OpenITI text, a README); its rows are its lines."""
        text = self._text(path, purpose, source_id, derived)
        self.files[path].rows_read = len(text.splitlines())
        return text

    def bad_rows(self) -> list[str]:
        return [example for ledger in self.files.values() for example in ledger.bad]
