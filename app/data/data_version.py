"""The version of the data the API serves, as the importer's run recorded it: `serve` says it at start-up."""

from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg
from sqlalchemy import select

from app.data import tables as t
from app.data.database import Bound, RequestDatabase, create_engine
from app.errors import UpstreamUnavailable
from app.settings import Settings

LAST_RUN = (
    select(t.import_run.c.schema_version, t.import_run.c.normalizer_version, t.import_run.c.finished_at)
    .order_by(t.import_run.c.finished_at.desc())
    .limit(1)
)


@dataclass(frozen=True)
class DataVersion:
    schema_version: int
    normalizer_version: int
    finished_at: datetime  # when the import finished

    def __str__(self) -> str:
        imported = self.finished_at.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        return (
            f"schema version {self.schema_version}, normalizer version {self.normalizer_version}, imported {imported}"
        )


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
    return DataVersion(rows[0]["schema_version"], rows[0]["normalizer_version"], rows[0]["finished_at"])
