"""Reads spread over PostgreSQL streaming replicas, by their health.

The API only reads, and a streaming replica replays the importer's schema swap as the one transaction it
is, so any replica serves the same answers as the primary, old or new data but never a mix. With
`ISNAD_DATABASE_REPLICA_URLS`, each request takes its connection from the pool of the next replica that
answered its last health check, in turn; when none did, from the primary's (`ISNAD_DATABASE_URL`). Each
replica is checked every `ISNAD_REPLICA_CHECK_MS` on a connection of its own, bounded as `/readyz` is
(`app/database.py`'s `Readiness`), by a task started with the first request; a replica that stops
answering is left out from its next check, or at once when a request finds it unreachable (its pooled
connection dropped, or no connection to be had), and taken back once a check finds it answering again (after
a restart). The request that finds it so reads once more, from the next healthy replica or the primary: it
has read nothing yet, and reads change nothing.
A replica is used only while it serves the import the primary serves: each health check reads the replica's
last import run (as `/readyz` reads the primary's), and a replica whose last check found another one (its replay
paused or behind a re-import, or ahead of the primary's last check) waits till it has caught up. The answers
then carry in `extensions.data_version` the version of the data they were read from, up to a check's interval
after an import lands; a replica's lag never serves the previous import for longer.
"""

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from app.data.data_version import DataVersion, ServedVersion
from app.data.database import Readiness, create_engine
from app.settings import Settings


@dataclass
class Replica:
    engine: AsyncEngine
    served: ServedVersion  # the import it served at its last check
    readiness: Readiness  # reads the import run into `served`
    healthy: bool = False  # unknown until its first check: the primary serves meanwhile

    def __post_init__(self) -> None:
        # A connection the replica dropped (it stopped, or restarted) takes it out at once, till a check passes
        event.listen(self.engine.sync_engine, "invalidate", self._down)

    def _down(self, *_: object) -> None:
        self.healthy = False

    async def check(self) -> None:
        self.healthy = await self.readiness.ready()

    def serves(self, version: DataVersion | None) -> bool:
        """It answered its last check, on the import `version` (any, while the primary's is not known)."""
        return self.healthy and (version is None or self.served.current == version)


class ReadRouting:
    """Which pool a request reads from: the healthy replicas that serve the primary's import, in turn, else the
    primary."""

    def __init__(
        self, primary: AsyncEngine, served: ServedVersion, replicas: Sequence[Replica], check_every_s: float
    ) -> None:
        self.primary = primary
        self.served = served  # the primary's import, as `/readyz` last read it
        self.replicas = list(replicas)
        self.check_every_s = check_every_s
        self._turn = 0
        self._watch: asyncio.Task[None] | None = None

    def pick(self) -> AsyncEngine:
        if self.replicas and self._watch is None:
            self._watch = asyncio.create_task(self._checking())
        healthy = [replica.engine for replica in self.replicas if replica.serves(self.served.current)]
        if not healthy:
            return self.primary
        self._turn = (self._turn + 1) % len(healthy)
        return healthy[self._turn]

    def instead_of(self, engine: AsyncEngine) -> AsyncEngine | None:
        """Where a request reads when `engine`'s replica could not be reached: the next healthy replica, else the
        primary; that replica is left out till a check finds it answering. None for the primary's own pool."""
        down = next((replica for replica in self.replicas if replica.engine is engine), None)
        if down is None:
            return None
        down.healthy = False
        return self.pick()

    async def _checking(self) -> None:
        while True:
            await asyncio.gather(*(replica.check() for replica in self.replicas))
            await asyncio.sleep(self.check_every_s)

    async def dispose(self) -> None:
        """Stop the checks and close the replicas' pools (the primary's is its owner's)."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        for replica in self.replicas:
            await replica.engine.dispose()


def read_routing(settings: Settings, primary: AsyncEngine, served: ServedVersion) -> ReadRouting:
    """The routing of `settings.replica_urls` (none: every read on the primary)."""
    return ReadRouting(
        primary, served, [_replica(settings, url) for url in settings.replica_urls], settings.replica_check_ms / 1000
    )


def _replica(settings: Settings, url: str) -> Replica:
    served = ServedVersion(settings, url, settings.ready_timeout_ms / 1000)
    return Replica(create_engine(settings, url), served, Readiness(settings, url, served.read_on, schema=True))
