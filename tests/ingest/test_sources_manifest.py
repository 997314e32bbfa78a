"""The sources manifest: it describes the full data folder as it is, every file the importer reads is in it as the
importer reads it, and `verify-data` names each missing or altered file with its purpose."""

import gzip
import json
import re
import shutil
from pathlib import Path

import pytest

import cli
from ingest.manifest import FOLDER_MANIFEST, ManifestRefused, committed_manifest, manifest_for
from ingest.run import ImportReport
from ingest.verification import verify_folder
from tests.conftest import LIVE_SCHEMA, shared_data_dir
from tests.dbquery import fetch

COMMIT = re.compile(r"^[0-9a-f]{40}$")
MISSING = "narrators/ar_sanad_lite/narrators_lite.csv.gz"
ALTERED = "rijal/kashif_entries.jsonl.gz"
UNREAD = "narrators/kaggle_muslimscholars/kaggle_chains_aligned.csv.gz"  # the staged alignment, now an oracle
READ = "SELECT path, source_id, purpose, derived, sha256, rows_read FROM dataset_file"
RUN = "SELECT manifest_sha256, manifest_derived_from, altered_files FROM import_run"


def test_the_committed_manifest_describes_the_full_data_folder_file_by_file() -> None:
    verification = verify_folder(shared_data_dir())

    assert verification.manifest.derived_from is None
    assert verification.problems() == []
    assert verification.unexpected == []


def test_every_upstream_file_names_its_repository_commit_and_path_every_derived_one_how_it_was_made() -> None:
    for entry in committed_manifest().files.values():
        assert entry.purpose and entry.licence and entry.made, entry.path
        if entry.derived:
            assert entry.made.startswith("derived by the data scout"), entry.path
            assert entry.repository is None, entry.path
        elif entry.path != "README.md":
            assert entry.repository and entry.upstream_path, entry.path
            assert COMMIT.match(entry.commit or ""), entry.path


def test_every_file_the_importer_read_is_in_the_manifest_as_it_read_it(
    imported: ImportReport, database_url: str, subset_dir: Path
) -> None:
    manifest = manifest_for(subset_dir)
    read = fetch(
        database_url, LIVE_SCHEMA, "SELECT path, source_id, purpose, derived, sha256, rows_read FROM dataset_file"
    )

    assert {row["path"] for row in read} == {path for path, e in manifest.files.items() if e.read_by_importer}
    for row in read:
        entry = manifest.files[row["path"]]
        assert (entry.source_id, entry.purpose, entry.derived) == (row["source_id"], row["purpose"], row["derived"])
        assert (entry.sha256, entry.rows) == (row["sha256"], row["rows_read"]), row["path"]
    run = fetch(
        database_url, LIVE_SCHEMA, "SELECT manifest_sha256, manifest_derived_from, altered_files FROM import_run"
    )
    assert tuple(run[0]) == (manifest.sha256, committed_manifest().sha256, [])


def _copy(subset_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(subset_dir, copy, symlinks=True)
    return copy


def _replace(path: Path, raw: bytes) -> None:
    path.unlink()
    path.write_bytes(raw)


def test_verify_data_passes_the_subset(subset_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify-data", str(subset_dir)]) == 0
    files = len(committed_manifest().files)
    assert f"{files} of {files} files match" in capsys.readouterr().out


def test_verify_data_names_each_missing_and_altered_file_with_its_purpose(
    subset_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _copy(subset_dir, tmp_path)
    (data / MISSING).unlink()
    lines = gzip.decompress((subset_dir / ALTERED).read_bytes()).splitlines(keepends=True)
    _replace(data / ALTERED, gzip.compress(b"".join(lines[:-10])))  # cut short, still a good gzip
    (data / "notes.txt").write_text("a file of my own")

    assert cli.main(["verify-data", str(data)]) == 1

    out = capsys.readouterr().out
    manifest = manifest_for(data)
    assert f"{MISSING}: file not found (needed for {manifest.files[MISSING].purpose})" in out
    kashif = manifest.files[ALTERED]
    expected = f"rows {kashif.rows - 10:,}, expected {kashif.rows:,} (needed for {kashif.purpose})"
    assert re.search(
        rf"{re.escape(ALTERED)}: altered: sha256 \w+, expected {kashif.sha256[:12]}; .*{re.escape(expected)}", out
    )
    assert "notes.txt: not in the manifest (never read)" in out
    assert f"{len(manifest.files) - 2} of {len(manifest.files)} files match" in out


def test_verify_data_passes_a_folder_without_a_file_the_importer_does_not_read(
    subset_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _copy(subset_dir, tmp_path)
    (data / UNREAD).unlink()

    assert cli.main(["verify-data", str(data)]) == 0

    out = capsys.readouterr().out
    entry = manifest_for(data).files[UNREAD]
    assert not entry.read_by_importer
    assert f"{UNREAD}: file not found (not read by the importer: {entry.purpose})" in out
    files = len(committed_manifest().files)
    assert f"{files - 1} of {files} files match" in out


def test_an_unreadable_altered_file_says_why_its_rows_cannot_be_counted(subset_dir: Path, tmp_path: Path) -> None:
    data = _copy(subset_dir, tmp_path)
    _replace(data / ALTERED, (subset_dir / ALTERED).read_bytes()[:5000])

    (altered,) = verify_folder(data).altered

    assert altered.rows == "unreadable (is not a readable gzip file (truncated or damaged))"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda m: m.update(derived_from={"manifest_sha256": "0" * 64, "how": "?"}), "does not derive from"),
        (lambda m: m["files"][0].update(purpose="something else"), "differs from the committed one"),
        (lambda m: m["files"].pop(), "does not list the same files"),
    ],
)
def test_a_folder_manifest_that_does_not_follow_the_committed_one_is_refused(
    subset_dir: Path, tmp_path: Path, change: object, reason: str
) -> None:
    data = _copy(subset_dir, tmp_path)
    own = json.loads((data / FOLDER_MANIFEST).read_text(encoding="utf-8"))
    change(own)  # type: ignore[operator]
    (data / FOLDER_MANIFEST).write_text(json.dumps(own), encoding="utf-8")

    with pytest.raises(ManifestRefused, match=reason):
        verify_folder(data)


def test_ingest_without_a_data_folder_says_how_to_get_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    absent = tmp_path / "nowhere"

    assert cli.main(["ingest", "--data-dir", str(absent)]) == 1

    said = capsys.readouterr().err
    assert f"No data folder at {absent}." in said
    assert f"isnad-graphql fetch-data --from URL_OR_FOLDER --dest {absent}" in said
