"""The version of the data the API serves, as the importer's run recorded it: the sha256 of the manifest the data
folder was checked against, the content checksum of the tables, when it was imported. `serve` says it at start-up;
`/readyz` reads it again at each probe and reports it, and every GraphQL answer carries the last one read in
`extensions.data_version`.

The API serves only an import of its own schema version and normalizer version: another schema may lack a table it
reads, and keys normalized by other rules would no longer meet its queries' (a search would find nothing, silently).
While the last version read is another, or the last check found no import at all, `/readyz` answers 503 and every
operation UPSTREAM_UNAVAILABLE before any statement, until an import of this version is swapped in."""

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg
from sqlalchemy import select

from app.data import tables as t
from app.data.database import Bound, RequestDatabase, create_engine, select_one
from app.errors import UpstreamUnavailable
from app.schema_version import SCHEMA_VERSION
from app.settings import Settings
from app.text.arabic import NORMALIZER_VERSION

LAST_RUN = (
    select(
        t.import_run.c.schema_version,
        t.import_run.c.normalizer_version,
        t.import_run.c.finished_at,
        t.import_run.c.manifest_sha256,
        t.import_run.c.content_checksum,
    )
    .order_by(t.import_run.c.finished_at.desc())
    .limit(1)
)


LAST_RUN_SQL = str(LAST_RUN.compile(compile_kwargs={"literal_binds": True}))  # plain SQL: no parameter
READ = {"schema_version": SCHEMA_VERSION, "normalizer_version": NORMALIZER_VERSION}  # the import this code reads
NO_IMPORT = "The database holds no import that this server can read: the data must be imported first."


@dataclass(frozen=True)
class DataVersion:
    schema_version: int
    normalizer_version: int
    finished_at: datetime  # when the import finished
    manifest_sha256: str
    content_checksum: str

    @property
    def unreadable(self) -> str | None:
        """Why this server cannot serve the import: another schema, or keys normalized by other rules; None when
        it can."""
        if (self.schema_version, self.normalizer_version) == (SCHEMA_VERSION, NORMALIZER_VERSION):
            return None
        return (
            f"The database holds an import of schema version {self.schema_version} and normalizer version "
            f"{self.normalizer_version}; this server reads schema version {SCHEMA_VERSION} and normalizer version "
            f"{NORMALIZER_VERSION}. The data must be imported again with this version."
        )

    @property
    def imported(self) -> str:
        return self.finished_at.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")

    def __str__(self) -> str:
        return (
            f"schema version {self.schema_version}, normalizer version {self.normalizer_version}, "
            f"imported {self.imported}, manifest {self.manifest_sha256[:12]}, content {self.content_checksum[:12]}"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "manifest_sha256": self.manifest_sha256,
            "content_checksum": self.content_checksum,
            "imported_at": self.imported,
            "schema_version": self.schema_version,
            "normalizer_version": self.normalizer_version,
        }


async def read_data_version(settings: Settings, url: str) -> DataVersion | None:
    """The last import's version, read on a connection of its own; None when the database does not
    answer, does not exist yet, or holds no import: the start-up line says so, and `serve` goes on (its
    /readyz says whether the database answers)."""
    engine = create_engine(settings, url)
    db = RequestDatabase(engine)
    try:
        rows = await db.fetch(Bound(LAST_RUN, {}))
    except (UpstreamUnavailable, asyncpg.UndefinedTableError, engine.dialect.loaded_dbapi.Error):
        return None
    finally:
        await db.close()
        await engine.dispose()
    if not rows:
        return None
    return DataVersion(**dict(rows[0]))


class ServedVersion:
    """The data version last read: at start-up, and by each /readyz probe on the readiness check's own
    connection (an import swaps its schema in while the API serves). A read that fails or takes longer than
    `timeout_s` keeps the last one; a check that finds no import says so (`none_imported`)."""

    def __init__(self, settings: Settings, url: str, timeout_s: float) -> None:
        self._settings, self._url, self._timeout_s = settings, url, timeout_s
        self.current: DataVersion | None = None
        self.none_imported = False  # the last check found no import this server can read: no import_run, or no row

    async def refresh(self) -> DataVersion | None:
        try:
            async with asyncio.timeout(self._timeout_s):
                self.current = await read_data_version(self._settings, self._url) or self.current
        except TimeoutError:
            pass
        return self.current

    async def read_on(self, connection: asyncpg.Connection) -> None:
        """The readiness probe: the database answers (or this raises), then the last import's version is read."""
        await select_one(connection)
        try:
            row = await connection.fetchrow(LAST_RUN_SQL)
        except asyncpg.UndefinedTableError:  # no schema on the search_path holds an import run this role may read
            row = None
        self.none_imported = row is None
        self.current = DataVersion(**dict(row)) if row is not None else None

    @property
    def refusal(self) -> str | None:
        """Why no operation may run: the database holds no import this server can read, or one of other versions;
        None when they may (and while nothing is known yet: the statements then say whether the database answers)."""
        if self.none_imported:
            return NO_IMPORT
        return self.current.unreadable if self.current else None

    def require_readable(self) -> None:
        """Raises UPSTREAM_UNAVAILABLE while a `refusal` holds."""
        why = self.refusal
        if why:
            raise UpstreamUnavailable(why)

    def as_extension(self) -> dict[str, Any] | None:
        return self.current.as_json() if self.current else None
