"""The answers of `/healthz` (the worker is alive) and `/readyz` (its database answers, with data of the version it
reads), which the front door (`app/http/front_door.py`) gives before any middleware, so that they stay fast while
the worker sheds load.

`/readyz` reads the database on the readiness connection (`app.data.database.Readiness`: its own, never the
request pool, within ISNAD_READY_TIMEOUT_MS), which also reads the data version. While the app's lifespan
runs (`serve`), each worker checks in the background every ISNAD_READY_INTERVAL_MS, on a connection it keeps
from one check to the next (one round trip a check, while the loop may be slow to turn), and a probe answers
the last check at once with its age, `checked_ms_ago`: a probe costs no round trip to the database, however
busy the worker. A probe that finds no background check, or a last one older than twice the interval plus
the timeout (the checks are not keeping up), checks itself; concurrent probes share one check.

`serve`'s protocol (`app/http/shedding_protocol.py`) answers a probe at the connection, in the loop turn that
reads it, whenever no check is needed (`at_once`); the front door answers the others.
"""

import asyncio
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

import orjson

from app.data.data_version import READ, ServedVersion
from app.data.database import Readiness
from app.http.browser_policy import NOSNIFF
from app.http.request_log import RequestIdentity

ALIVE = orjson.dumps({"status": "alive"})
PROBE_PATHS = ("/healthz", "/readyz")
PROBE_METHODS = ("GET", "HEAD")
PROBES_KEY = "isnad.probes"  # the lifespan state's key that hands `Probes` to the protocol
JSON_TYPE = (b"content-type", b"application/json")


@dataclass(frozen=True, slots=True)
class Check:
    ready: bool
    at: float  # time.monotonic() when it finished


class Probes:
    def __init__(self, readiness: Readiness, data_version: ServedVersion, interval_ms: int, timeout_ms: int) -> None:
        self.readiness = readiness
        self.data_version = data_version
        self.interval_s = interval_ms / 1000
        self.max_age_s = 2 * self.interval_s + timeout_ms / 1000
        self.watched = False  # a background check runs
        self.last: Check | None = None

    def at_once(self, path: str) -> tuple[int, bytes] | None:
        """The status and body of a probe of `path` (one of PROBE_PATHS) when no check is needed to give them:
        `/healthz` always, `/readyz` while the last background check is recent; None otherwise."""
        if path == "/healthz":
            return 200, ALIVE
        now, last = time.monotonic(), self.last
        if not self.watched or last is None or now - last.at > self.max_age_s:
            return None
        return self._readiness(last, now)

    async def answer(self, path: str) -> tuple[int, bytes]:
        """The probe's status and body: at once where it can be, else after a check of the database now."""
        found = self.at_once(path)
        if found is not None:
            return found
        last = await self.check()
        return self._readiness(last, last.at)

    def _readiness(self, last: Check, now: float) -> tuple[int, bytes]:
        age = {"checked_ms_ago": round((now - last.at) * 1000)}
        if not last.ready:
            return 503, orjson.dumps({"status": "database unavailable", **age})
        if self.data_version.none_imported:
            return 503, orjson.dumps({"status": "no import", "reads": READ, **age})
        version = self.data_version.current  # read by the readiness check itself
        if version is not None and version.unreadable:
            return 503, orjson.dumps(
                {"status": "unreadable data", "data_version": version.as_json(), "reads": READ, **age}
            )
        return 200, orjson.dumps({"status": "ready", "data_version": version.as_json() if version else None, **age})

    async def check(self, keep: bool = False) -> Check:
        self.last = Check(await self.readiness.ready(keep), time.monotonic())
        return self.last

    @asynccontextmanager
    async def watching(self) -> AsyncIterator[None]:
        """Check in the background, every interval, while the block runs (the app's lifespan)."""
        task = asyncio.create_task(self._watch())
        self.watched = True
        try:
            yield
        finally:
            self.watched = False
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
            self.readiness.release()

    async def _watch(self) -> None:
        while True:
            await self.check(keep=True)
            await asyncio.sleep(self.interval_s)


def probe_headers(body: bytes, request_headers: Mapping[bytes, bytes]) -> list[tuple[bytes, bytes]]:
    """A probe answer's headers: JSON, its length, and the request's identity (`X-Request-Id`, `traceresponse`)."""
    identity = RequestIdentity.of_headers(request_headers)
    return [JSON_TYPE, (b"content-length", str(len(body)).encode()), *identity.headers(), NOSNIFF]
