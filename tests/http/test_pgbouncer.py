"""The API served through PgBouncer in transaction mode (tests/pgbouncer.py: two server sessions for all of a
role's clients), with `ISNAD_DATABASE_POOLER=transaction` and the session settings set on the role: the eight
tools answer as they do on a direct connection while many requests share those two sessions; a statement past
the request's deadline is cancelled through PgBouncer; without the setting every tool answers
UPSTREAM_UNAVAILABLE (PgBouncer refuses the startup parameters), and `serve` refuses to start when the role
lacks the settings."""

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import httpx
import pytest

from app.data.pooled_sessions import check_pooled_sessions
from app.data.sessions import session_settings
from app.settings import Settings
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, api_settings, serving
from tests.graphql_client import SAMPLE_CALLS, call_tool, execute
from tests.locked_tables import BOUND_S, slow_tables, until_waiting, waiting
from tests.pgbouncer import database_name, login_role, pgbouncer, role_url
from tests.tcp_proxy import free_port

UPSTREAM = {"code": "UPSTREAM_UNAVAILABLE", "alias": "upstream_unavailable"}
POOL_SIZE = 8  # the API's connections to PgBouncer, for PgBouncer's two server sessions
CONCURRENT = 2  # each tool's call sent this many times at once: 16 requests in flight, twice the pool
SEARCHES = """{
  a: search_narrator(query: "Abu Hurairah") { results { narrator_id } }
  b: search_narrator(query: "Malik") { results { narrator_id } }
}"""
SERVE = str(Path(sys.executable).parent / "isnad-graphql")
SESSIONS = "SELECT count(*) FROM pg_stat_activity WHERE usename = $1"


@dataclass(frozen=True)
class Bouncer:
    port: int
    configured: str  # a role with the session settings the API needs
    bare: str  # a role without them

    def url(self, database_url: str, role: str) -> str:
        return role_url(database_url, role, self.port)


@pytest.fixture(scope="module")
async def bouncer(imported: ImportReport, database_url: str) -> AsyncIterator[Bouncer]:
    wanted = session_settings(api_settings(database_url))
    async with login_role(database_url, wanted) as configured, login_role(database_url, {}) as bare:
        with pgbouncer(database_url, [configured, bare]) as port:
            yield Bouncer(port, configured, bare)


def pooled(database_url: str, **overrides: object) -> Settings:
    return api_settings(database_url, pooler="transaction", **overrides)


async def test_the_eight_tools_answer_through_pgbouncer_as_they_do_directly(
    bouncer: Bouncer, client: httpx.AsyncClient, database_url: str
) -> None:
    url = bouncer.url(database_url, bouncer.configured)
    settings = pooled(database_url, pool_size=POOL_SIZE)
    await check_pooled_sessions(settings, url)  # what `serve` checks before it starts: it passes
    direct = {tool: await call_tool(client, tool, **arguments) for tool, arguments in SAMPLE_CALLS.items()}
    calls = [tool for tool in SAMPLE_CALLS for _ in range(CONCURRENT)]
    async with serving(settings, url) as served:
        answers = await asyncio.gather(*(call_tool(served.client, tool, **SAMPLE_CALLS[tool]) for tool in calls))
        opened = served.app.state.engine.pool.checkedin()
    for tool, answer in zip(calls, answers, strict=True):
        assert "errors" not in answer, (tool, answer["errors"])
        assert answer["data"] == direct[tool]["data"], tool  # (extensions.data_version: what each app has read)
    assert opened == POOL_SIZE  # the API's connections, every one used at once...
    assert await _server_sessions(database_url, bouncer.configured) == 2  # ...on PgBouncer's two sessions


async def _server_sessions(database_url: str, role: str) -> int:
    admin = await asyncpg.connect(database_url)
    try:
        count: int = await admin.fetchval(SESSIONS, role)
    finally:
        await admin.close()
    return count


async def test_a_statement_past_its_deadline_is_cancelled_through_pgbouncer(
    bouncer: Bouncer, database_url: str
) -> None:
    settings = pooled(database_url, pool_size=1, request_timeout_ms=1_000)
    async with serving(settings, bouncer.url(database_url, bouncer.configured)) as served:
        async with slow_tables(database_url) as locker:
            request = asyncio.create_task(execute(served.client, SEARCHES))
            await until_waiting(locker)
            async with asyncio.timeout(BOUND_S):
                body = await request
            (error,) = body["errors"]
            assert error["extensions"] == UPSTREAM
            assert "deadline" in error["message"]
            assert await waiting(locker) == 0  # cancelled on the server, while the lock is still held
        assert served.app.state.engine.pool.checkedin() == 1  # settled, not dropped
        answer = await call_tool(served.client, "get_hadith", **SAMPLE_CALLS["get_hadith"])
        assert "errors" not in answer, answer["errors"]


async def test_without_the_setting_every_tool_answers_upstream_unavailable(bouncer: Bouncer, database_url: str) -> None:
    """The API asks for its session settings as startup parameters, which PgBouncer refuses: a clean
    UPSTREAM_UNAVAILABLE, never a traceback; /readyz says 503."""
    async with serving(api_settings(database_url), bouncer.url(database_url, bouncer.configured)) as served:
        for tool, arguments in SAMPLE_CALLS.items():
            body = await call_tool(served.client, tool, **arguments)
            assert body["data"] is None
            assert [error["extensions"] for error in body["errors"]] == [UPSTREAM], tool
            assert "Traceback" not in str(body)
        assert (await served.client.get("/readyz")).status_code == 503


def test_serve_refuses_to_start_when_the_role_lacks_the_settings(bouncer: Bouncer, database_url: str) -> None:
    environment = {
        "ISNAD_DATABASE_URL": bouncer.url(database_url, bouncer.bare),
        "ISNAD_DB_SCHEMA": LIVE_SCHEMA,
        "ISNAD_DATABASE_POOLER": "transaction",
        "ISNAD_STATEMENT_TIMEOUT_MS": "5000",
    }
    done = subprocess.run(  # noqa: S603 (our own command)
        [SERVE, "serve", "--host", "127.0.0.1", "--port", str(free_port())],
        env={**os.environ, **environment},
        capture_output=True,
        timeout=60,
        check=False,
    )
    role, database = f'"{bouncer.bare}"', f'"{database_name(database_url)}"'
    assert done.returncode == 1
    assert done.stderr.decode() == "\n".join(
        [
            f"ISNAD_DATABASE_POOLER=transaction: the sessions of role {role} in database {database} lack settings"
            " the API needs; the API does not start.",
            "  default_transaction_read_only is off, needs on",
            "  statement_timeout is 0, needs 5s",
            '  search_path is "$user", public, needs isnad, public',
            "  pg_trgm.word_similarity_threshold is unset, needs 0.75",
            "  synchronize_seqscans is on, needs off",
            "  max_parallel_workers_per_gather is 2, needs 0",
            "Set each on the role in that database (docs/production.md, PgBouncer in transaction mode), then start"
            " again:",
            "  default_transaction_read_only = 'on'",
            "  statement_timeout = '5000'",
            "  search_path = isnad, public",
            "  pg_trgm.word_similarity_threshold = '0.75'",
            "  synchronize_seqscans = 'off'",
            "  max_parallel_workers_per_gather = '0'",
            "",
        ]
    )
