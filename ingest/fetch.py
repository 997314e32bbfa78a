"""`isnad-graphql fetch-data`: copy a data folder from a mirror (an HTTP server, or a folder, holding the manifest's
files at their paths), several files at a time with progress bars, verifying every file's sha256.

A file already in place with its manifest checksum is not fetched again. A file is written to `<path>.part` and
renamed over its place only once its checksum is right; a copy interrupted (by the network, or by the user) keeps
its `.part`, and the next run resumes it where it stopped (an HTTP Range request; a server that ignores it sends
the whole file again). Fetched bytes whose checksum differs never replace the copy in place: they are kept aside
as `<path>.bad`. The mirror's own manifest (`data-manifest.json`, for a folder cut from the full data) is used
when it derives from the committed one, and written beside the files.
"""

import http.client
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TaskID, TextColumn, TransferSpeedColumn

from ingest.manifest import (
    CHUNK,
    FOLDER_MANIFEST,
    FileEntry,
    Manifest,
    check_derived,
    committed_manifest,
    file_sha256,
    parse_manifest,
)

TIMEOUT_S = 30
JOBS = 4


class Mirror:
    """Where the files are fetched from: a base URL (http, https) or a folder."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.is_http = urllib.parse.urlsplit(source).scheme in {"http", "https"}

    def _url(self, path: str) -> str:
        return f"{self.source.rstrip('/')}/{urllib.parse.quote(path)}"

    def read_text(self, path: str) -> str | None:
        """A small file of the mirror, or None when it has none."""
        if not self.is_http:
            full = Path(self.source) / path
            return full.read_text(encoding="utf-8") if full.is_file() else None
        try:
            with urllib.request.urlopen(self._url(path), timeout=TIMEOUT_S) as response:  # noqa: S310 - http(s) only
                return bytes(response.read()).decode("utf-8")
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            raise

    def stream(self, path: str, offset: int) -> tuple[bool, Iterator[bytes]]:
        """(whether the bytes start at `offset`, else at 0; the bytes)."""
        if not self.is_http:
            return True, _chunks_of_file(Path(self.source) / path, offset)
        headers = {"Range": f"bytes={offset}-"} if offset else {}
        request = urllib.request.Request(self._url(path), headers=headers)  # noqa: S310 - http(s) only
        response = urllib.request.urlopen(request, timeout=TIMEOUT_S)  # noqa: S310 - http(s) only
        return response.status == 206, _chunks_of_response(response)


def _chunks_of_file(path: Path, offset: int) -> Iterator[bytes]:
    with path.open("rb") as f:
        f.seek(offset)
        while chunk := f.read(CHUNK):
            yield chunk


def _chunks_of_response(response: object) -> Iterator[bytes]:
    with response as r:  # type: ignore[attr-defined]
        while chunk := r.read(CHUNK):
            yield chunk


@dataclass(frozen=True)
class Fetched:
    path: str
    outcome: str  # "fetched", "already in place", "checksum differs", "not on the mirror", "interrupted"
    detail: str = ""
    needed: bool = True  # the importer reads it: a mirror of the upstream copies alone may lack the others

    @property
    def good(self) -> bool:
        return self.outcome in {"fetched", "already in place"} or (self.absent and not self.needed)

    @property
    def absent(self) -> bool:
        return self.outcome == "not on the mirror"


class Fetch:
    """One run: the mirror, the destination, the manifest and the progress display."""

    def __init__(self, mirror: Mirror, dest: Path, manifest: Manifest, progress: Progress) -> None:
        self.mirror, self.dest, self.manifest, self.progress = mirror, dest, manifest, progress
        self.total = progress.add_task("all files", total=sum(e.size for e in manifest.files.values()))

    def file(self, entry: FileEntry) -> Fetched:
        target = self.dest / entry.path
        if target.is_file() and file_sha256(target) == entry.sha256:
            self.progress.advance(self.total, entry.size)
            return Fetched(entry.path, "already in place")
        target.parent.mkdir(parents=True, exist_ok=True)
        part = target.with_name(target.name + ".part")
        task = self.progress.add_task(entry.path, total=entry.size)
        try:
            self._download(entry, part, task)
        except (FileNotFoundError, urllib.error.HTTPError) as exc:
            return Fetched(entry.path, "not on the mirror", str(exc), entry.read_by_importer)
        except (OSError, http.client.HTTPException) as exc:
            kept = part.stat().st_size if part.exists() else 0
            return Fetched(entry.path, "interrupted", f"{exc}; {kept:,} bytes kept: run again to resume")
        finally:
            self.progress.remove_task(task)
        return self._settle(entry, part, target)

    def _download(self, entry: FileEntry, part: Path, task: TaskID) -> None:
        offset = part.stat().st_size if part.is_file() else 0
        if offset >= entry.size:
            return  # complete already: its checksum decides
        resumed, chunks = self.mirror.stream(entry.path, offset)
        offset = offset if resumed else 0
        self.progress.update(task, completed=offset)
        self.progress.advance(self.total, offset)
        with part.open("ab" if resumed else "wb") as out:
            for chunk in chunks:
                out.write(chunk)
                self.progress.advance(task, len(chunk))
                self.progress.advance(self.total, len(chunk))
        received = part.stat().st_size
        if received < entry.size:  # a connection closed early ends the bytes without an error
            raise ConnectionError(f"the mirror stopped sending after {received:,} of {entry.size:,} bytes")

    @staticmethod
    def _settle(entry: FileEntry, part: Path, target: Path) -> Fetched:
        sha256 = file_sha256(part)
        if sha256 == entry.sha256:
            part.replace(target)
            return Fetched(entry.path, "fetched")
        bad = target.with_name(target.name + ".bad")
        part.replace(bad)
        kept = "the copy in place is kept" if target.exists() else "no copy in place"
        detail = f"sha256 {sha256[:12]}, expected {entry.sha256[:12]}: {kept}; the fetched bytes are in {bad.name}"
        return Fetched(entry.path, "checksum differs", detail)


def mirror_manifest(mirror: Mirror, dest: Path) -> tuple[Manifest, str | None]:
    """The mirror's own manifest and its text when it has one (checked against the committed one), else the
    committed one."""
    committed = committed_manifest()
    text = mirror.read_text(FOLDER_MANIFEST)
    if text is None:
        return committed, None
    return check_derived(parse_manifest(text, f"{mirror.source}/{FOLDER_MANIFEST}"), committed, dest), text


def _progress(console: Console) -> Progress:
    columns = (TextColumn("{task.description:<60}"), BarColumn(), DownloadColumn(), TransferSpeedColumn())
    return Progress(*columns, console=console)


def fetch_data(source: str, dest: Path, console: Console, jobs: int = JOBS) -> list[Fetched]:
    """Fetch every file of the manifest into `dest`; each file's outcome, in the manifest's order."""
    mirror = Mirror(source)
    dest.mkdir(parents=True, exist_ok=True)
    manifest, own_text = mirror_manifest(mirror, dest)
    with _progress(console) as progress, ThreadPoolExecutor(max_workers=jobs) as pool:
        fetch = Fetch(mirror, dest, manifest, progress)
        results = list(pool.map(fetch.file, manifest.files.values()))
    if own_text is not None:
        (dest / FOLDER_MANIFEST).write_text(own_text, encoding="utf-8")
    elif (dest / FOLDER_MANIFEST).exists():
        (dest / FOLDER_MANIFEST).replace(dest / (FOLDER_MANIFEST + ".bad"))  # the full data is checked without one
    return results
