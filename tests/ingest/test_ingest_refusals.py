"""The importer under bad input and failures, run for real on copies of the subset: a missing, altered or
malformed file, a step that fails or meets a record of another shape, an output that goes away. Each stops
the import naming its cause, or skips what it reports, and leaves the previous database untouched."""

import gzip
import io
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from ingest import steps
from ingest.context import ImportContext
from ingest.errors import BuildRefused, TooManyBadRows, UnreadableRecord
from ingest.run import ImportReport, run_import
from ingest.verification import DataNotVerified
from tests.conftest import LIVE_SCHEMA, quiet_console
from tests.dbquery import scalar, schema_exists, snapshot
from tests.subset import gzip_lines


def _copy_data(subset_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(subset_dir, copy, symlinks=True)
    return copy


def _corrupt(path: Path, every: int) -> None:
    """Replace one data line in `every` by a line that parses neither as JSON nor as a CSV record."""
    header, *rows = gzip_lines(path)
    broken = [header] + [row if i % every else "broken line\n" for i, row in enumerate(rows, start=1)]
    path.unlink()
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.writelines(broken)


BIG_FILE = "narrators/all_rawis_reduced/all_rawis_reduced.csv.gz"  # the narrators' rows


def _with_corrupted_narrators(subset_dir: Path, tmp_path: Path, every: int) -> Path:
    """A copy of the subset whose narrators file has one line in `every` broken."""
    data = _copy_data(subset_dir, tmp_path)
    target = data / BIG_FILE
    target.unlink()
    shutil.copy(subset_dir / BIG_FILE, target)
    _corrupt(target, every=every)
    return data


def test_a_missing_file_is_named_with_its_purpose(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = _copy_data(subset_dir, tmp_path)
    (data / BIG_FILE).unlink()
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(DataNotVerified, match=r"all_rawis_reduced\.csv\.gz: file not found \(needed for .+\)"):
        run_import(data, database_url, LIVE_SCHEMA, quiet_console())
    assert snapshot(database_url, LIVE_SCHEMA) == before


def test_over_one_percent_of_bad_rows_stops_the_import_and_changes_nothing(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = _with_corrupted_narrators(subset_dir, tmp_path, every=50)
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(TooManyBadRows, match=r"all_rawis_reduced\.csv\.gz: \d+ of \d+ rows are malformed"):
        run_import(data, database_url, LIVE_SCHEMA, quiet_console(), allow_altered=True)
    assert snapshot(database_url, LIVE_SCHEMA) == before


def test_a_few_bad_rows_are_skipped_and_reported_by_line(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = _with_corrupted_narrators(subset_dir, tmp_path, every=1000)
    report = run_import(data, database_url, "isnad_bad_rows", quiet_console(), allow_altered=True)
    assert report.bad_rows
    assert all(line.startswith(f"{BIG_FILE}:") for line in report.bad_rows)
    assert report.bad_rows[0].startswith(f"{BIG_FILE}:1001:")
    assert report.counts["narrator"] == 24_326 - len(report.bad_rows)


def test_an_altered_file_is_refused_before_anything_is_read_unless_allowed(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = _with_corrupted_narrators(subset_dir, tmp_path, every=1000)
    before = snapshot(database_url, LIVE_SCHEMA)
    altered = (
        rf"{BIG_FILE}: altered: sha256 \w+, expected \w+; [\d,]+ bytes, expected [\d,]+; rows 24,326, expected 24,326"
    )
    with pytest.raises(DataNotVerified, match=altered + r" \(needed for narrators, names, dates\)"):
        run_import(data, database_url, LIVE_SCHEMA, quiet_console())
    assert snapshot(database_url, LIVE_SCHEMA) == before
    console = quiet_console()
    run_import(data, database_url, "isnad_altered", console, allow_altered=True)
    assert scalar(database_url, "isnad_altered", "SELECT altered_files FROM import_run") == [BIG_FILE]
    assert f"imported although altered: {BIG_FILE}: altered" in console.file.getvalue()  # type: ignore[attr-defined]


def test_a_failure_while_writing_leaves_the_previous_database_untouched(
    imported: ImportReport, database_url: str, subset_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def break_a_constraint(ctx: ImportContext) -> None:
        node = dict(ctx.tables["chain_node"][0], resolution_status="confirmed", narrator_id=None)
        ctx.tables["chain_node"].append(dict(node, node_id=999_999_999))

    failing: tuple[tuple[str, Callable[[ImportContext], None]], ...] = (
        *steps.STEPS,
        ("a step that builds an invalid row", break_a_constraint),
    )
    monkeypatch.setattr("ingest.run.STEPS", failing)
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(BuildRefused, match="chain_node"):
        run_import(subset_dir, database_url, LIVE_SCHEMA, quiet_console())
    assert snapshot(database_url, LIVE_SCHEMA) == before
    assert not schema_exists(database_url, "isnad_build")


def test_a_record_of_a_shape_no_step_expects_stops_the_import_naming_its_file(
    imported: ImportReport, database_url: str, subset_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = "hadith/sunnah_hadith_json/bukhari.jsonl.gz"

    def expect_a_field_no_record_has(ctx: ImportContext) -> None:
        for _line, record in ctx.jsonl(path, "a reading that expects another shape", "hadith-json"):
            record["no such field"]

    monkeypatch.setattr("ingest.run.STEPS", (("a step of another shape", expect_a_field_no_record_has),))
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(UnreadableRecord, match=rf"^{path}: a record of an unexpected shape \(KeyError: 'no such"):
        run_import(subset_dir, database_url, LIVE_SCHEMA, quiet_console())
    assert snapshot(database_url, LIVE_SCHEMA) == before


class _TerminalGone(io.StringIO):
    """An output that fails when the skipped rows are reported."""

    def write(self, text: str) -> int:
        if "malformed rows skipped" in text:
            raise OSError("the terminal went away")
        return super().write(text)


def test_the_skipped_rows_are_reported_before_the_swap(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    """Only the swap comes after the report: an output that fails while reporting leaves the database as it was."""
    data = _with_corrupted_narrators(subset_dir, tmp_path, every=1000)
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(OSError, match="the terminal went away"):
        run_import(data, database_url, LIVE_SCHEMA, Console(file=_TerminalGone(), width=160), allow_altered=True)
    assert snapshot(database_url, LIVE_SCHEMA) == before
    assert not schema_exists(database_url, "isnad_build")
