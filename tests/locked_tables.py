"""Statements made slow for real: a session of the test holds every table of the live schema locked, so the
API's statements wait on the lock until they are cancelled (or the lock goes with the session)."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from tests.conftest import LIVE_SCHEMA

BOUND_S = 10  # far over what a cancelled request takes, far under its statements' timeouts added up
WAITING = (
    "SELECT count(*) FROM pg_stat_activity"
    " WHERE application_name = 'isnad-graphql' AND state = 'active' AND wait_event_type = 'Lock'"
)
TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = $1"


@asynccontextmanager
async def slow_tables(database_url: str) -> AsyncIterator[asyncpg.Connection]:
    """Every table of the live schema locked by a session of the test, until the block ends (the lock is
    released with the session, and with it any statement of the API still waiting)."""
    locker = await asyncpg.connect(database_url)
    try:
        tables = [row["tablename"] for row in await locker.fetch(TABLES, LIVE_SCHEMA)]
        await locker.execute("BEGIN")
        await locker.execute(f"LOCK TABLE {', '.join(f'{LIVE_SCHEMA}.{t}' for t in tables)} IN ACCESS EXCLUSIVE MODE")
        yield locker
    finally:
        await locker.close()


async def waiting(locker: asyncpg.Connection) -> int:
    """How many statements of the API wait on the lock now (the locker's transaction would otherwise see
    the server's activity as it was at its first look)."""
    await locker.execute("SELECT pg_stat_clear_snapshot()")
    count: int = await locker.fetchval(WAITING)
    return count


async def until_waiting(locker: asyncpg.Connection) -> None:
    async with asyncio.timeout(BOUND_S):
        while not await waiting(locker):
            await asyncio.sleep(0.05)
