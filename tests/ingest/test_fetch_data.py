"""`fetch-data` from a local HTTP mirror (a `http.server` in a thread over a copy of the subset, answering Range
requests): a whole copy verified and imported to the same contents, a corrupted file, a missing file (and one the
importer does not read, which a mirror may lack), and a copy cut off mid-file and resumed where it stopped."""

import shutil
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import cli
from ingest.fetch import Fetched, fetch_data
from ingest.manifest import FOLDER_MANIFEST, file_sha256, manifest_for
from ingest.run import ImportReport, run_import
from ingest.verification import verify_folder
from tests.conftest import quiet_console

FILE = "narrators/ar_sanad_lite/narrators_lite.csv.gz"  # read by the importer
UNREAD = "narrators/kaggle_muslimscholars/narrators_reconstructed.csv.gz"  # the staged narrator table, an oracle
CUT_AT = 100_000


@dataclass
class MirrorLog:
    requests: list[tuple[str, str | None]] = field(default_factory=list)  # (path, Range header)
    cut: dict[str, int] = field(default_factory=dict)  # path -> bytes sent before the connection drops, once


def _handler(root: Path, log: MirrorLog) -> type[SimpleHTTPRequestHandler]:
    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urllib.parse.unquote(self.path.lstrip("/"))
            asked = self.headers.get("Range")
            log.requests.append((path, asked))
            if not (root / path).is_file():
                self.send_error(404)
                return
            data = (root / path).read_bytes()
            start = int(asked.removeprefix("bytes=").rstrip("-")) if asked else 0
            self.send_response(206 if asked else 200)
            if asked:
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            self.send_header("Content-Length", str(len(data) - start))
            self.end_headers()
            cut = log.cut.pop(path, None)
            self.wfile.write(data[start:cut])
            self.close_connection = cut is not None

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@dataclass
class Mirror:
    root: Path
    url: str
    log: MirrorLog


@pytest.fixture
def mirror(subset_dir: Path, tmp_path: Path) -> Iterator[Mirror]:
    root = tmp_path / "mirror"
    shutil.copytree(subset_dir, root, symlinks=True)
    log = MirrorLog()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(root, log))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Mirror(root, f"http://127.0.0.1:{server.server_address[1]}", log)
    finally:
        server.shutdown()
        server.server_close()


def _prefilled(subset_dir: Path, tmp_path: Path, *absent: str) -> Path:
    """A destination holding the subset (links to it) less `absent`: only those are fetched."""
    dest = tmp_path / "dest"
    shutil.copytree(subset_dir, dest, symlinks=True)
    for path in absent:
        (dest / path).unlink()
    return dest


def _outcomes(results: list[Fetched]) -> dict[str, str]:
    return {r.path: r.outcome for r in results if r.outcome != "already in place"}


def test_fetch_data_copies_the_mirror_verifies_it_and_imports_to_the_same_contents(
    mirror: Mirror, tmp_path: Path, imported: ImportReport, database_url: str
) -> None:
    dest = tmp_path / "fetched"

    assert cli.main(["fetch-data", "--from", mirror.url + "/", "--dest", str(dest)]) == 0

    assert verify_folder(dest).ok
    assert (dest / FOLDER_MANIFEST).read_bytes() == (mirror.root / FOLDER_MANIFEST).read_bytes()
    assert not list(dest.rglob("*.part"))
    again = fetch_data(mirror.url, dest, quiet_console())
    assert all(r.outcome == "already in place" for r in again)
    report = run_import(dest, database_url, "isnad_fetched", quiet_console())
    assert report.content_checksum == imported.content_checksum


def test_a_corrupted_file_on_the_mirror_never_replaces_the_copy_in_place(
    mirror: Mirror, subset_dir: Path, tmp_path: Path
) -> None:
    dest = _prefilled(subset_dir, tmp_path, FILE)
    (dest / FILE).write_bytes(b"an older copy")
    served = (mirror.root / FILE).read_bytes()
    (mirror.root / FILE).unlink()
    (mirror.root / FILE).write_bytes(served[:-100] + bytes(100))

    results = fetch_data(mirror.url, dest, quiet_console())

    assert _outcomes(results) == {FILE: "checksum differs"}
    assert (dest / FILE).read_bytes() == b"an older copy"
    assert (dest / (FILE + ".bad")).read_bytes() == served[:-100] + bytes(100)
    assert not verify_folder(dest).ok


def test_a_file_missing_on_the_mirror_is_named(mirror: Mirror, subset_dir: Path, tmp_path: Path) -> None:
    dest = _prefilled(subset_dir, tmp_path, FILE)
    (mirror.root / FILE).unlink()

    results = fetch_data(mirror.url, dest, quiet_console())

    assert _outcomes(results) == {FILE: "not on the mirror"}
    assert [entry.path for entry in verify_folder(dest).missing] == [FILE]


def test_a_mirror_may_lack_a_file_the_importer_does_not_read(
    mirror: Mirror, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (mirror.root / UNREAD).unlink()
    dest = tmp_path / "data"

    assert cli.main(["fetch-data", "--from", mirror.url, "--dest", str(dest)]) == 0

    said = " ".join(capsys.readouterr().out.split())  # as the console wrapped it
    assert f"{UNREAD}: not on the mirror (not read by the importer)" in said
    verification = verify_folder(dest)
    assert verification.ok
    assert [entry.path for entry in verification.absent_unread] == [UNREAD]


def test_an_interrupted_copy_resumes_where_it_stopped(mirror: Mirror, subset_dir: Path, tmp_path: Path) -> None:
    dest = _prefilled(subset_dir, tmp_path, FILE)
    mirror.log.cut[FILE] = CUT_AT

    first = fetch_data(mirror.url, dest, quiet_console())

    assert _outcomes(first) == {FILE: "interrupted"}
    assert (dest / (FILE + ".part")).stat().st_size == CUT_AT
    assert not (dest / FILE).exists()

    second = fetch_data(mirror.url, dest, quiet_console())

    assert _outcomes(second) == {FILE: "fetched"}
    assert [r for r in mirror.log.requests if r[0] == FILE] == [(FILE, None), (FILE, f"bytes={CUT_AT}-")]
    assert file_sha256(dest / FILE) == manifest_for(dest).files[FILE].sha256
    assert verify_folder(dest).ok
