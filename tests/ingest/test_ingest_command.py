"""`isnad-graphql ingest` on damaged copies of subset files (the damage made here), run as a command: its exit
status, what it prints, and the database it leaves: the previous one unchanged, or the new one complete with
exactly the damaged rows skipped and reported; never a traceback."""

import csv
import gzip
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, REPO
from tests.dbquery import scalar, snapshot

NARRATORS = "narrators/all_rawis_reduced/all_rawis_reduced.csv.gz"  # the narrators' rows, read by position
STUDENT_LISTS = "narrators/kaggle_muslimscholars/all_rawis_students_edges.csv.gz"
NOTICES = "rijal/openiti/0748Dhahabi.Kashif.Shamela0002171-ara1.txt.gz"
NOTICE_LINE = 6832  # the second line of al-Kashif's first notice
NARRATOR_NAMES = "narrators/ar_sanad_lite/narrators_lite.csv.gz"
HADITH = "hadith/sunnah_hadith_json/bukhari.jsonl.gz"
DAMAGED_SCHEMA = "isnad_damaged"
MARKUP = "[/b] line 100 :100:"  # rich read it as a closing tag (MarkupError, after the swap) and an emoji
TIMEOUT_SECONDS = 600


def _ingest(data: Path, url: str, schema: str) -> tuple[int, str]:
    """The command on damaged files, let past the manifest check (which would refuse them as altered) to the
    reading's own checks."""
    command = [sys.executable, "-m", "cli", "ingest", "--data-dir", str(data), "--database-url", url, "--allow-altered"]
    done = subprocess.run(  # noqa: S603 - our own command line
        command,
        cwd=REPO,
        env={**os.environ, "ISNAD_DB_SCHEMA": schema},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


def _lines(data: Path, path: str) -> list[bytes]:
    return gzip.decompress((data / path).read_bytes()).split(b"\n")


def _replace(data: Path, path: str, raw: bytes) -> None:
    """Put `raw` where the copy had `path` (a link to the real file, or a filtered copy)."""
    (data / path).unlink()
    (data / path).write_bytes(raw)


def _write_lines(data: Path, path: str, lines: list[bytes]) -> None:
    _replace(data, path, gzip.compress(b"\n".join(lines)))


def _damaged_deflate(data: Path, path: str) -> None:
    compressed = bytearray((data / path).read_bytes())
    compressed[1000:1064] = bytes(64)
    _replace(data, path, bytes(compressed))


def _column_renamed(data: Path) -> None:
    lines = _lines(data, NARRATOR_NAMES)
    _write_lines(data, NARRATOR_NAMES, [lines[0].replace(b",id,", b",ident,"), *lines[1:]])


REFUSALS: dict[str, tuple[str, Callable[[Path], None], str]] = {
    "an empty gzipped notices file": (NOTICES, lambda data: _replace(data, NOTICES, gzip.compress(b"")), "is empty"),
    "a 0-byte hadith file": (HADITH, lambda data: _replace(data, HADITH, b""), "is empty"),
    "a damaged deflate block": (
        NARRATORS,
        lambda data: _damaged_deflate(data, NARRATORS),
        "is not a readable gzip file (truncated or damaged)",
    ),
    "a column renamed in a header": (NARRATOR_NAMES, _column_renamed, "has no column 'id' in its header"),
}


@pytest.mark.parametrize("case", REFUSALS, ids=list(REFUSALS))
def test_a_damaged_file_is_refused_naming_it_and_the_database_is_unchanged(
    case: str, imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    path, damage, reason = REFUSALS[case]
    data = Path(shutil.copytree(subset_dir, tmp_path / "data", symlinks=True))
    damage(data)
    before = snapshot(database_url, LIVE_SCHEMA)

    status, output = _ingest(data, database_url, LIVE_SCHEMA)

    assert status == 1, output
    assert f"import failed, the database is unchanged: {path}: {reason} (needed for " in output
    assert "Traceback" not in output
    assert snapshot(database_url, LIVE_SCHEMA) == before


def _with_narrators_damaged(data: Path) -> int:
    """A teacher id that reads as markup on line 5001 of the student lists; a stray quote on line 10001 of the
    narrators' rows (opening the class label: the name before it may hold commas), which swallows the lines up
    to the next quote: the narrator lines the import must skip."""
    lists = _lines(data, STUDENT_LISTS)
    lists[5000] = b",".join([MARKUP.encode(), lists[5000].split(b",", 1)[1]])
    _write_lines(data, STUDENT_LISTS, lists)
    lines = _lines(data, NARRATORS)
    fields = lines[10000].rsplit(b",", 4)
    lines[10000] = b",".join([fields[0], b'"' + fields[1], *fields[2:]])
    _write_lines(data, NARRATORS, lines)
    reader = csv.reader(io.StringIO(b"\n".join(lines[10000:]).decode(), newline="\n"))
    next(reader)
    return reader.line_num  # the lines the record opened on line 10001 holds


def _with_byte_order_mark(lines: list[bytes]) -> list[bytes]:
    return [b"\xef\xbb\xbf" + lines[0], *lines[1:]]


def _with_notices_damaged(data: Path) -> None:
    """A byte-order mark, and a byte that is not UTF-8 in a line of a notice."""
    lines = _lines(data, NOTICES)
    damaged = lines[NOTICE_LINE - 1]
    lines[NOTICE_LINE - 1] = damaged[:10] + b"\xff" + damaged[10:]  # after its first word
    _write_lines(data, NOTICES, _with_byte_order_mark(lines))


def test_a_few_damaged_rows_are_skipped_reported_per_file_as_written_and_the_import_completes(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = Path(shutil.copytree(subset_dir, tmp_path / "data", symlinks=True))
    skipped = _with_narrators_damaged(data)
    _with_notices_damaged(data)
    _write_lines(data, NARRATOR_NAMES, _with_byte_order_mark(_lines(data, NARRATOR_NAMES)))

    status, output = _ingest(data, database_url, DAMAGED_SCHEMA)

    assert status == 0, output
    assert "Traceback" not in output
    printed = output.splitlines()
    report = printed[next(i for i, line in enumerate(printed) if "malformed rows skipped" in line) :]
    headers = [line for line in report if "malformed rows skipped" in line]
    assert headers == [
        f"{skipped} malformed rows skipped in {NARRATORS}; first:",
        f"1 malformed rows skipped in {STUDENT_LISTS}; first:",
        f"1 malformed rows skipped in {NOTICES}; first:",
    ]
    swallowed = f"7 fields, expected 5: a quote opened at line 10001 runs to line {10000 + skipped}"
    assert report[1] == f"  {NARRATORS}:10001: {swallowed}"
    assert f"  {STUDENT_LISTS}:5001: teacher id {MARKUP!r} is not a number" in report
    assert report[-2] == f"  {NOTICES}:{NOTICE_LINE}: bytes that are not UTF-8 at offset 10 of the line"
    assert report[-1].startswith("imported in ")
    count = "SELECT count(*) FROM {}"
    assert scalar(database_url, DAMAGED_SCHEMA, count.format("narrator")) == 24_326 - skipped
    for table in ("hadith", "rijal_notice"):
        expected = scalar(database_url, LIVE_SCHEMA, count.format(table)) - (table == "rijal_notice")
        assert scalar(database_url, DAMAGED_SCHEMA, count.format(table)) == expected, table
