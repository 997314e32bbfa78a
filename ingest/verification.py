"""A data folder checked against its manifest: each file missing or altered (sha256 or size), named with what the
importer uses it for; an altered file's rows are counted as the importer counts them, beside the manifest's.
`isnad-graphql verify-data` prints it; the importer runs it before it reads anything.

A file the importer does not read (a staged derived join, now the oracle of the derivation that replaced it; an
upstream file no step uses) may be absent: the folder of the upstream copies alone imports. It is named as absent,
with what it is for, and stops nothing. Altered, it is refused as any other: the copy is not the one published."""

from dataclasses import dataclass, field
from pathlib import Path

from ingest.errors import ImportFailed
from ingest.manifest import COUNTING, FOLDER_MANIFEST, FileEntry, Manifest, count_rows, file_sha256, manifest_for

PARTIAL_SUFFIXES = (".part", ".bad")  # what an interrupted or refused fetch leaves beside a file


@dataclass(frozen=True)
class Altered:
    entry: FileEntry
    sha256: str
    size: int
    rows: str  # counted as the importer counts them, or why they could not be

    def __str__(self) -> str:
        return (
            f"{self.entry.path}: altered: sha256 {self.sha256[:12]}, expected {self.entry.sha256[:12]}; "
            f"{self.size:,} bytes, expected {self.entry.size:,}; rows {self.rows}, expected {self.entry.rows:,} "
            f"(needed for {self.entry.purpose})"
        )


@dataclass
class Verification:
    folder: Path
    manifest: Manifest
    missing: list[FileEntry] = field(default_factory=list)
    absent_unread: list[FileEntry] = field(default_factory=list)  # not found, and not read by the importer
    altered: list[Altered] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)  # files the manifest does not list: never read

    @property
    def ok(self) -> bool:
        return not self.missing and not self.altered

    def problems(self) -> list[str]:
        missing = [f"{entry.path}: file not found (needed for {entry.purpose})" for entry in self.missing]
        return missing + [str(altered) for altered in self.altered]

    def absences(self) -> list[str]:
        return [
            f"{entry.path}: file not found (not read by the importer: {entry.purpose})" for entry in self.absent_unread
        ]

    def describe(self) -> str:
        """Which manifest the folder was checked against."""
        derived = self.manifest.derived_from
        kind = f"a folder cut from the full data ({derived['how']})" if derived else "the full data"
        return f"{self.manifest.location} (sha256 {self.manifest.sha256[:12]}, {kind})"


class DataNotVerified(ImportFailed):
    """The data folder does not match its manifest."""

    def __init__(self, verification: Verification) -> None:
        problems = "; ".join(verification.problems())
        super().__init__(
            f"{verification.folder} does not match {verification.describe()}: {problems}. "
            "Get a good copy with `isnad-graphql fetch-data --from URL|DIR`"
            + ("; or import the altered files anyway with --allow-altered" if not verification.missing else "")
        )


def _rows(folder: Path, path: str) -> str:
    try:
        return f"{count_rows(folder, path):,}"
    except ImportFailed as exc:
        return f"unreadable ({str(exc).removeprefix(path + ': ').removesuffix(f' (needed for {COUNTING})')})"


def _check(folder: Path, entry: FileEntry, verification: Verification) -> None:
    full = folder / entry.path
    if not full.is_file():
        (verification.missing if entry.read_by_importer else verification.absent_unread).append(entry)
        return
    sha256 = file_sha256(full)
    if sha256 != entry.sha256:
        size = full.stat().st_size
        verification.altered.append(Altered(entry, sha256, size, _rows(folder, entry.path)))


def _unexpected(folder: Path, manifest: Manifest) -> list[str]:
    found = (p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() or p.is_symlink())
    return sorted(
        p for p in found if p not in manifest.files and p != FOLDER_MANIFEST and not p.endswith(PARTIAL_SUFFIXES)
    )


def verify_folder(folder: Path) -> Verification:
    manifest = manifest_for(folder)
    verification = Verification(folder, manifest)
    for entry in manifest.files.values():
        _check(folder, entry, verification)
    verification.unexpected = _unexpected(folder, manifest)
    return verification


def verified(folder: Path, allow_altered: bool) -> Verification:
    """The folder's verification; raises DataNotVerified when a file is missing, or altered and not allowed."""
    verification = verify_folder(folder)
    if verification.missing or (verification.altered and not allow_altered):
        raise DataNotVerified(verification)
    return verification
