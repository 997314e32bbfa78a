"""graphql-http's conformance audit (`auditServer`, the npm package graphql-http) against `isnad-graphql serve`
of the app on a free loopback port: every audit passes, none fails, warns or leaves a notice.

`.ci/run` installs the pinned package into tests/js/audit/node_modules (`npm ci`); without it the test
skips, but fails under CI (`CI=true`), where a green run must mean the audit ran.
"""

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bench.servers import running_api
from ingest.run import ImportReport

AUDIT = Path(__file__).resolve().parent.parent / "js" / "audit"


def _node() -> str:
    node = shutil.which("node")
    if node is None or not (AUDIT / "node_modules" / "graphql-http").is_dir():
        why = "node and graphql-http are needed (npm ci --prefix tests/js/audit, as .ci/run does)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    return node


@contextmanager
def served(database_url: str) -> Iterator[str]:
    """The URL of /graphql on `isnad-graphql serve`, on a free loopback port, until the block ends."""
    with running_api(database_url) as api:
        yield f"http://127.0.0.1:{api.port}/graphql"
    api.process.wait(timeout=15)  # reaped: stop() may return once its group is gone, before the leader is


def _audit(node: str, url: str) -> list[dict[str, Any]]:
    finished = subprocess.run(  # noqa: S603 - a fixed script of the repository
        [node, str(AUDIT / "audit.mjs"), url], capture_output=True, text=True, timeout=120, check=False
    )
    assert finished.returncode == 0, finished.stderr
    return [json.loads(line) for line in finished.stdout.splitlines()]


def test_graphql_http_audits_the_server_without_a_failure_a_warning_or_a_notice(
    imported: ImportReport, database_url: str
) -> None:
    node = _node()
    with served(database_url) as url:
        results = _audit(node, url)
    assert len(results) >= 61  # graphql-http 1.23.1 runs 61
    assert [f"{r['id']} {r['status']}: {r['name']}: {r['reason']}" for r in results if r["status"] != "ok"] == []
