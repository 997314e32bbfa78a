"""The catalog of sources (a few dozen rows that change only with a re-import), read once per process."""

import asyncio
from collections.abc import Mapping

from sqlalchemy import select

from app.data import tables as t
from app.data.database import Bound, RequestDatabase
from app.data.records import SourceRecord

SOURCES = select(t.source)


class SourceCatalog:
    """Every source by id. Read on first use; a later import that changes sources needs a restart."""

    def __init__(self) -> None:
        self._sources: Mapping[str, SourceRecord] | None = None
        self._lock = asyncio.Lock()

    async def load(self, db: RequestDatabase) -> Mapping[str, SourceRecord]:
        if self._sources is None:
            async with self._lock:
                if self._sources is None:
                    rows = await db.fetch(Bound(SOURCES, {}))
                    self._sources = {row["source_id"]: SourceRecord(**row) for row in rows}
        return self._sources
