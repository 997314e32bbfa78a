"""The importer's reading of damaged copies of real files (the damage made here): a clean refusal that names
the file, or the rows read with exactly the damaged ones skipped and reported; never a traceback."""

import gzip
from pathlib import Path

import pytest

from ingest.context import ImportContext
from ingest.errors import MissingInput
from tests.conftest import shared_data_dir

CSV_FILE = "narrators/ar_sanad_lite/narrators_lite.csv.gz"
JSONL_FILE = "rijal/kashif_entries.jsonl.gz"
PURPOSE = "a test of damage"


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
