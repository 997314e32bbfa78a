"""What every step of an import shares: the data folder, the rows built so far, the bad-row ledger."""

import gzip
import hashlib
import json
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from ingest.csv_records import Record, read_records
from ingest.errors import MissingInput, TooManyBadRows

BAD_ROW_SHARE = 0.01
EXAMPLES_KEPT = 5

Row = dict[str, Any]
T = TypeVar("T")


def _undecodable_lines(raw: bytes) -> dict[int, str]:
    """Each line whose bytes are not UTF-8, with where in the line they start (lines end with «\\n» only)."""
    found = {}
    for line_no, line in enumerate(raw.split(b"\n"), start=1):
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


class CsvRow(dict[str, str]):
    """A CSV record by column; a column its header lacks is the file's fault, named (a damaged or changed
    header raised a bare KeyError)."""

    def __init__(self, ledger: FileLedger, header: list[str], fields: list[str]) -> None:
        super().__init__(zip(header, fields, strict=True))
        self.ledger = ledger

    def __missing__(self, column: str) -> str:
        raise MissingInput(self.ledger.path, self.ledger.purpose, f"has no column {column!r} in its header")


def _undecodable(ledger: FileLedger, record: Record) -> list[tuple[int, str]]:
    """The first line of `record` whose bytes are not UTF-8, with where: the record is one malformed row."""
    for line in range(record.first, record.last + 1):
        if line in ledger.undecodable:
            return [(line, ledger.undecodable[line])]
    return []


class ImportContext:
    """The data folder, the tables being built, and the record of every file read."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.tables: dict[str, list[Row]] = defaultdict(list)
        self.files: dict[str, FileLedger] = {}
        self._computed: dict[Callable[[ImportContext], Any], Any] = {}

    def add(self, table: str, row: Row) -> None:
        self.tables[table].append(row)

    def once(self, compute: Callable[["ImportContext"], T]) -> T:
        """What `compute` makes of this import's files, computed at its first call only: a derivation that several
        steps read (the chain alignment, the LK crosswalk) is computed once per import."""
        if compute not in self._computed:
            self._computed[compute] = compute(self)
        return cast(T, self._computed[compute])

    def skip(self, path: str, line: int, reason: str) -> None:
        """Record a malformed row; it is left out and reported as file:line."""
        self.files[path].bad.append(f"{path}:{line}: {reason}")

    def damaged(self, path: str, lines: range) -> bool:
        """Whether any of `lines` of a text read whole is not UTF-8: then what was read from them is left out,
        reported at the first such line."""
        undecodable = self.files[path].undecodable
        bad = next((line for line in lines if line in undecodable), None)
        if bad is not None:
            self.skip(path, bad, undecodable[bad])
        return bad is not None

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
        for line_no, line in enumerate(text.split("\n"), start=1):
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
        """(first line, row) for each CSV record; a damaged record is skipped (see `ingest.csv_records`), and
        one that swallowed lines costs each of them, reported with its span, so that the 1 % rule counts them
        all."""
        for first, row in self._csv_records(path, purpose, source_id, derived):
            if row is not None:
                yield first, row

    def csv_in_order(self, path: str, purpose: str, source_id: str) -> list[dict[str, str] | None]:
        """The rows of a CSV file of one line per record that another file names by position (the n-th row),
        in file order: None for each line of a damaged record, skipped and reported as `csv` does, so that the
        rows after it keep their positions."""
        return [row for _, row in self._csv_records(path, purpose, source_id)]

    def _csv_records(
        self, path: str, purpose: str, source_id: str, derived: bool = False
    ) -> Iterator[tuple[int, dict[str, str] | None]]:
        read = read_records(self._text(path, purpose, source_id, derived), path)
        if read is None:
            raise MissingInput(path, purpose, "is empty")
        header, records = read
        ledger = self.files[path]
        for record in records:
            faults = list(record.line_faults()) or _undecodable(ledger, record)
            ledger.rows_read += max(len(faults), 1)
            for line, reason in faults:
                self.skip(path, line, reason)
                yield line, None
            if not faults:
                yield record.first, CsvRow(ledger, header, record.fields)
        self._close(path)

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
