"""The importer's reading of damaged copies of real files (the damage made here): a clean refusal that names
the file, or the rows read with exactly the damaged ones skipped and reported; never a traceback."""

import csv
import gzip
import io
from pathlib import Path

import pytest

from ingest.context import ImportContext
from ingest.errors import MissingInput, TooManyBadRows
from tests.conftest import shared_data_dir

CSV_FILE = "narrators/ar_sanad_lite/narrators_lite.csv.gz"
JSONL_FILE = "rijal/kashif_entries.jsonl.gz"
PURPOSE = "a test of damage"
REAL_CSV_FILES = sorted(path.relative_to(shared_data_dir()).as_posix() for path in shared_data_dir().rglob("*.csv.gz"))


def _original(path: str) -> bytes:
    return gzip.decompress((shared_data_dir() / path).read_bytes())


def _context_with(tmp_path: Path, path: str, raw: bytes) -> ImportContext:
    target = tmp_path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(raw)
    return ImportContext(tmp_path)


def _csv_rows(ctx: ImportContext, path: str) -> list[tuple[int, dict[str, str]]]:
    return list(ctx.csv(path, PURPOSE, "test"))


def test_a_byte_order_mark_on_a_csv_keeps_its_header_and_every_row(tmp_path: Path) -> None:
    original = _original(CSV_FILE)
    plain = _csv_rows(_context_with(tmp_path / "plain", CSV_FILE, gzip.compress(original)), CSV_FILE)

    marked = _csv_rows(_context_with(tmp_path / "bom", CSV_FILE, gzip.compress(b"\xef\xbb\xbf" + original)), CSV_FILE)

    assert marked == plain
    assert "name" in marked[0][1]


def test_a_byte_order_mark_on_a_jsonl_file_keeps_its_first_row(tmp_path: Path) -> None:
    original = _original(JSONL_FILE)
    ctx = _context_with(tmp_path, JSONL_FILE, gzip.compress(b"\xef\xbb\xbf" + original))

    rows = list(ctx.jsonl(JSONL_FILE, PURPOSE, "test"))

    assert rows[0][0] == 1
    assert len(rows) == len(original.splitlines())
    assert ctx.bad_rows() == []


def test_a_damaged_deflate_block_is_refused_naming_the_file(tmp_path: Path) -> None:
    compressed = bytearray(gzip.compress(_original(CSV_FILE)))
    compressed[1000:1064] = bytes(64)  # zeros in a deflate block: zlib's "invalid ...", not a CRC error
    ctx = _context_with(tmp_path, CSV_FILE, bytes(compressed))

    with pytest.raises(MissingInput, match=f"^{CSV_FILE}: is not a readable gzip file"):
        _csv_rows(ctx, CSV_FILE)


def test_an_empty_gzipped_file_is_refused_not_read_as_no_rows(tmp_path: Path) -> None:
    ctx = _context_with(tmp_path, JSONL_FILE, gzip.compress(b""))

    with pytest.raises(MissingInput, match=f"^{JSONL_FILE}: is empty"):
        list(ctx.jsonl(JSONL_FILE, PURPOSE, "test"))


def test_bytes_that_are_not_utf8_cost_their_row_only_reported_with_line_and_offset(tmp_path: Path) -> None:
    lines = _original(JSONL_FILE).splitlines(keepends=True)
    damaged = [*lines[:9], lines[9][:20] + b"\xff" + lines[9][20:], *lines[10:]]
    ctx = _context_with(tmp_path, JSONL_FILE, gzip.compress(b"".join(damaged)))

    rows = list(ctx.jsonl(JSONL_FILE, PURPOSE, "test"))

    assert [line for line, _ in rows][8:10] == [9, 11]
    assert len(rows) == len(lines) - 1
    assert ctx.bad_rows() == [f"{JSONL_FILE}:10: bytes that are not UTF-8 at offset 20 of the line"]


def test_a_stray_quote_costs_every_line_it_swallowed_each_reported_with_the_span(tmp_path: Path) -> None:
    """A «"» opening the fourth field of line 11 runs on to line 60: 50 lines read as one record of 13 fields.
    Each line it took is a malformed row (50 of 24,326: under 1 %, so the import goes on and says so)."""
    path = "narrators/kaggle_muslimscholars/narrators_reconstructed.csv.gz"
    lines = _original(path).split(b"\n")
    fields = lines[10].split(b",")
    fields[3] = b'"' + fields[3]
    lines[10] = b",".join(fields)
    ctx = _context_with(tmp_path, path, gzip.compress(b"\n".join(lines)))

    rows = _csv_rows(ctx, path)

    bad = ctx.bad_rows()
    assert len(bad) == 50
    assert bad[0] == f"{path}:11: 13 fields, expected 11: a quote opened at line 11 runs to line 60"
    assert bad[-1].startswith(f"{path}:60: ")
    assert len(rows) + len(bad) == len(_original(path).splitlines()) - 1


def _with_stray_quote(line: bytes, field: int) -> bytes:
    """`line` with a «"» opening its `field`th field (the fields before it hold no comma or quote)."""
    fields = line.split(b",")
    fields[field] = b'"' + fields[field]
    return b",".join(fields)


def _damaged(tmp_path: Path, path: str, line: int, field: int) -> tuple[ImportContext, list[bytes]]:
    """A context over a copy of `path` whose `line` has a stray quote at `field`, and the copy's lines."""
    lines = _original(path).split(b"\n")
    lines[line - 1] = _with_stray_quote(lines[line - 1], field)
    return _context_with(tmp_path, path, gzip.compress(b"\n".join(lines))), lines


def _csv_record_at(lines: list[bytes], line: int) -> tuple[int, int]:
    """What plain csv makes of the record that starts at `line`: its field count and its last line."""
    reader = csv.reader(io.StringIO(b"\n".join(lines[line - 1 :]).decode(), newline="\n"))
    return len(next(reader)), line - 1 + reader.line_num


def test_a_stray_quote_that_keeps_the_field_count_costs_every_line_it_swallowed(tmp_path: Path) -> None:
    """The «"» opening row_index on line 1001 closes at the next «"», on line 1004, in the same column: csv reads
    four lines as one record of the right 11 fields, a narrator with three others inside a field."""
    path = "narrators/kaggle_muslimscholars/narrators_reconstructed.csv.gz"
    ctx, lines = _damaged(tmp_path, path, line=1001, field=1)
    closing = next(number for number in range(1002, len(lines)) if b'"' in lines[number - 1])
    assert _csv_record_at(lines, 1001) == (11, closing)

    rows = _csv_rows(ctx, path)

    spans = f"row_index holds the lines of other records: a quote opened at line 1001 runs to line {closing}"
    assert ctx.bad_rows() == [f"{path}:{line}: {spans}" for line in range(1001, closing + 1)]
    assert len(rows) == len(lines) - 2 - (closing - 1000)  # the header and the trailing newline are no rows
    assert ctx.files[path].rows_read == len(lines) - 2


def test_in_a_column_that_spans_lines_a_swallowed_record_is_found_by_its_first_field(tmp_path: Path) -> None:
    """The LK corpus holds real line breaks in its English_Hadith; a «"» opening it on line 31 closes at line 32's
    English_Hadith, with the right 17 fields: the line inside it that starts with «Tirmizi/Chapter1.csv,» is
    the record of line 32."""
    path = "hadith/lk_hadith_corpus/Tirmizi.csv.gz"
    ctx, lines = _damaged(tmp_path, path, line=31, field=8)
    assert _csv_record_at(lines, 31) == (17, 32)

    rows = _csv_rows(ctx, path)

    reason = "English_Hadith holds the lines of other records: a quote opened at line 31 runs to line 32"
    assert ctx.bad_rows() == [f"{path}:31: {reason}", f"{path}:32: {reason}"]
    assert [line for line, _ in rows][28:30] == [30, 33]


def test_a_quote_never_closed_is_a_file_refused_not_a_traceback(tmp_path: Path) -> None:
    """The crosswalk holds no «"»: one opened on line 10 runs on until csv's field size limit stops it, thousands
    of lines later; each of them is a malformed row, and the file is refused."""
    path = "hadith/crosswalks/hadith_json_to_fawaz_numbers.csv.gz"
    ctx, _ = _damaged(tmp_path, path, line=10, field=1)

    with pytest.raises(TooManyBadRows, match=f"^{path}: \\d+ of \\d+ rows are malformed") as refused:
        _csv_rows(ctx, path)

    assert "not readable as CSV (field larger than field limit (131072)): a quote opened at line 10" in str(
        refused.value
    )


@pytest.mark.parametrize("path", REAL_CSV_FILES)
def test_every_real_csv_file_reads_whole_numbered_by_physical_line(path: str) -> None:
    """The columns that may span lines (`MULTILINE_COLUMNS`) fit the real files: no row of them is skipped; and
    a row's line is the one an editor shows, though the LK corpus holds bare «\\r» inside its fields."""
    ctx = ImportContext(shared_data_dir())
    lines = _original(path).split(b"\n")

    rows = list(ctx.csv(path, PURPOSE, "test"))

    assert ctx.bad_rows() == []
    assert len(rows) == ctx.files[path].rows_read > 0
    for line, row in rows:
        assert next(csv.reader([lines[line - 1].decode()]))[0] == next(iter(row.values()))
