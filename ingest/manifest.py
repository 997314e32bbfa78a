"""The sources manifest: every file of the data folder, with its upstream repository, pinned commit and path, how
the staged copy was made, its sha256, size and row count (records as the importer counts them), its licence as
stated and what the importer uses it for.

The committed manifest (`ingest/sources_manifest.json`) describes the full data folder. A folder cut from it (the
tests' subset) carries a manifest of its own, `data-manifest.json`: the same entries with their own sha256, size
and rows, and `derived_from` naming the committed manifest's sha256 and how the folder was cut. A folder's own
manifest is used only when it derives from the committed one and describes the same files from the same
upstreams; otherwise it is refused, never ignored.
"""

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from ingest.context import ImportContext
from ingest.errors import ImportFailed

COMMITTED = Path(__file__).with_name("sources_manifest.json")
FOLDER_MANIFEST = "data-manifest.json"
FORMAT = 1
CHUNK = 1 << 20
COUNTING = "counting its rows"  # the purpose an error names when a file is read only to count its rows
MEASURED = ("sha256", "size", "rows")  # what a derived folder's manifest may change in an entry


class ManifestRefused(ImportFailed):
    """A data folder's own manifest that cannot stand in for the committed one."""

    def __init__(self, folder: Path, reason: str) -> None:
        super().__init__(f"{folder / FOLDER_MANIFEST}: {reason}; remove it to check the folder against {COMMITTED}")


@dataclass(frozen=True)
class FileEntry:
    path: str
    purpose: str
    read_by_importer: bool
    derived: bool
    source_id: str | None
    repository: str | None
    commit: str | None
    upstream_path: str | None
    made: str
    licence: str
    sha256: str
    size: int
    rows: int
    unit: str  # what a row is: "csv records", "jsonl lines", "json document", "text lines"


@dataclass(frozen=True)
class Manifest:
    sha256: str  # of the manifest file's bytes: the data version the API reports
    location: str  # where it was read
    description: str
    derived_from: dict[str, str] | None  # {"manifest_sha256", "how"} for a folder cut from the full data
    files: dict[str, FileEntry]


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def manifest_json(description: str, derived_from: dict[str, str] | None, files: list[FileEntry]) -> str:
    """The manifest as written: one canonical text, so that its sha256 names its content."""
    body: dict[str, Any] = {
        "format": FORMAT,
        "description": description,
        "derived_from": derived_from,
        "files": [asdict(entry) for entry in sorted(files, key=lambda e: e.path)],
    }
    return json.dumps(body, ensure_ascii=False, indent=1) + "\n"


def parse_manifest(text: str, location: str) -> Manifest:
    body = json.loads(text)
    if body.get("format") != FORMAT:
        raise ImportFailed(f"{location}: manifest format {body.get('format')!r}, expected {FORMAT}")
    files = {entry["path"]: FileEntry(**entry) for entry in body["files"]}
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Manifest(sha, location, body["description"], body["derived_from"], files)


def committed_manifest() -> Manifest:
    return parse_manifest(COMMITTED.read_text(encoding="utf-8"), str(COMMITTED))


def _provenance(entry: FileEntry) -> dict[str, Any]:
    return {k: v for k, v in asdict(entry).items() if k not in MEASURED}


def check_derived(candidate: Manifest, committed: Manifest, folder: Path) -> Manifest:
    """`candidate` if it derives from `committed` and describes the same files from the same upstreams."""
    derived_from = candidate.derived_from or {}
    if derived_from.get("manifest_sha256") != committed.sha256:
        raise ManifestRefused(folder, f"it does not derive from the committed manifest ({committed.sha256[:12]})")
    if candidate.files.keys() != committed.files.keys():
        raise ManifestRefused(folder, "it does not list the same files as the committed manifest")
    for path, entry in candidate.files.items():
        if _provenance(entry) != _provenance(committed.files[path]):
            raise ManifestRefused(folder, f"its entry for {path} differs from the committed one beyond its checksum")
    return candidate


def manifest_for(folder: Path) -> Manifest:
    """The manifest a data folder is checked against: its own when it has a valid one, else the committed one."""
    committed = committed_manifest()
    own = folder / FOLDER_MANIFEST
    if not own.is_file():
        return committed
    try:
        candidate = parse_manifest(own.read_text(encoding="utf-8"), str(own))
    except (ValueError, KeyError, TypeError) as exc:
        raise ManifestRefused(folder, f"it cannot be read as a manifest ({exc})") from None
    return check_derived(candidate, committed, folder)


UNITS = {".csv.gz": "csv records", ".jsonl.gz": "jsonl lines", ".json.gz": "json document", ".json": "json document"}


def unit_of(path: str) -> str:
    return next((unit for suffix, unit in UNITS.items() if path.endswith(suffix)), "text lines")


def count_rows(folder: Path, path: str) -> int:
    """Rows as the importer counts them: a CSV's records (a quoted field over several lines is one), a JSONL
    file's non-blank lines, a JSON file as one document, a text file's lines. Raises ImportFailed when the file
    cannot be read as its kind."""
    ctx = ImportContext(folder)
    readers: dict[str, Callable[[str, str, str], object]] = {
        "csv records": ctx.csv,
        "jsonl lines": ctx.jsonl,
        "json document": ctx.json,
        "text lines": ctx.text,
    }
    read = readers[unit_of(path)](path, COUNTING, "manifest")
    if isinstance(read, Iterator):
        for _ in read:
            pass
    return ctx.files[path].rows_read


def measured(entry: FileEntry, folder: Path) -> FileEntry:
    """`entry` with the sha256, size and rows of its file in `folder`."""
    full = folder / entry.path
    return replace(entry, sha256=file_sha256(full), size=full.stat().st_size, rows=count_rows(folder, entry.path))


def write_derived_manifest(folder: Path, how: str) -> None:
    """Write `folder`'s own manifest: the committed entries, measured again for each file that is not a link to
    the full data's copy (the files cut from it)."""
    committed = committed_manifest()
    files = [
        entry if (folder / entry.path).is_symlink() else measured(entry, folder) for entry in committed.files.values()
    ]
    derived_from = {"manifest_sha256": committed.sha256, "how": how}
    text = manifest_json(f"A folder cut from the full data: {how}", derived_from, files)
    (folder / FOLDER_MANIFEST).write_text(text, encoding="utf-8")
