"""/readyz answered from the background check: while the app's lifespan runs, a probe answers the last check
with its age and opens no connection of its own; without it, or when the last check is too old, a probe
checks itself. The check is counted by wrapping the readiness connection's `ready`, never timed; the
background checks keep their connection from one to the next."""

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest

from app.http.probes import Check, Probes
from ingest.run import ImportReport
from tests.conftest import Served, api_settings, serving
from tests.http.conftest import eventually

INTERVAL_MS = 600_000  # the background checks once while a test runs


class Counted:
    """The readiness check of `probes`, counted, answering `ready` (or the database's answer when None)."""

    def __init__(self, probes: Probes, ready: bool | None = None) -> None:
        self.check = probes.readiness.ready
        self.ready = ready
        self.calls = 0

    async def __call__(self, keep: bool = False) -> bool:
        self.calls += 1
        answer = await self.check(keep)
        return answer if self.ready is None else self.ready


@asynccontextmanager
async def probed(
    database_url: str, monkeypatch: pytest.MonkeyPatch, ready: bool | None = None, watched: bool = False
) -> AsyncIterator[tuple[Served, Probes, Counted]]:
    """An app whose readiness checks are counted; `watched`: with the background checks running, after the first."""
    settings = api_settings(database_url, ready_interval_ms=INTERVAL_MS)
    async with serving(settings, database_url) as served:
        probes: Probes = served.app.state.probes
        counted = Counted(probes, ready)
        monkeypatch.setattr(probes.readiness, "ready", counted)
        if not watched:
            yield served, probes, counted
            return
        async with probes.watching():
            await eventually(lambda: probes.last is not None)
            yield served, probes, counted


async def test_while_the_background_check_runs_a_probe_answers_it_without_a_check_of_its_own(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with probed(database_url, monkeypatch, watched=True) as (served, _, counted):
        checks = counted.calls
        answers = [await served.client.get("/readyz") for _ in range(5)]
        assert counted.calls == checks
    assert {answer.status_code for answer in answers} == {200}
    bodies = [answer.json() for answer in answers]
    assert {body["status"] for body in bodies} == {"ready"}
    assert all(isinstance(body["checked_ms_ago"], int) and body["checked_ms_ago"] >= 0 for body in bodies)
    assert bodies[0]["data_version"]["content_checksum"] == imported.content_checksum


async def test_a_failed_background_check_is_answered_503(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with probed(database_url, monkeypatch, ready=False, watched=True) as (served, _, counted):
        answer = await served.client.get("/readyz")
        assert counted.calls == 1
    assert answer.status_code == 503
    assert answer.json()["status"] == "database unavailable"


async def test_without_the_background_check_each_probe_checks(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with probed(database_url, monkeypatch) as (served, _, counted):
        answers = [await served.client.get("/readyz") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200] * 3
    assert counted.calls == 3
    assert {answer.json()["checked_ms_ago"] for answer in answers} == {0}


async def test_a_probe_that_finds_the_last_check_too_old_checks_itself(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with probed(database_url, monkeypatch, watched=True) as (served, probes, counted):
        checks = counted.calls
        probes.last = Check(True, time.monotonic() - probes.max_age_s - 1)  # as if the checks stopped
        answer = await served.client.get("/readyz")
        assert counted.calls == checks + 1
    assert answer.status_code == 200
    assert answer.json()["checked_ms_ago"] == 0


async def test_the_background_checks_keep_their_connection_and_a_probe_of_its_own_closes_it(
    imported: ImportReport, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[asyncpg.Connection] = []
    connect = asyncpg.connect

    async def counted(*args: Any, **kwargs: Any) -> asyncpg.Connection:
        opened.append(await connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(asyncpg, "connect", counted)
    async with serving(api_settings(database_url, ready_interval_ms=INTERVAL_MS), database_url) as served:
        probes: Probes = served.app.state.probes
        kept = [(await probes.check(keep=True)).ready for _ in range(3)]
        assert len(opened) == 1 and not opened[0].is_closed()
        assert (await probes.check()).ready
        assert len(opened) == 1 and opened[0].is_closed()
        assert (await probes.check()).ready
        assert len(opened) == 2 and opened[1].is_closed()
    assert kept == [True] * 3
