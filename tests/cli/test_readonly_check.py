"""`isnad-graphql check-readonly`: the static check can fail, the live checks pass, a SELECT-only role serves."""

import asyncio
import shutil
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from sqlalchemy.engine import make_url

from ingest.run import ImportReport, run_import
from migrations_readonly_check import static
from migrations_readonly_check.report import code_checks, database_checks
from tests.conftest import REPO, api_settings, quiet_console, serving
from tests.dbquery import fetch
from tests.graphql_client import call_tool

READER = "isnad_reader"
READER_SCHEMA = "isnad_for_reader"


def test_every_code_check_passes_on_this_repository() -> None:
    failed = [check for check in code_checks(REPO) if not check.passed]
    assert failed == []


@pytest.mark.parametrize(
    "planted",
    [
        'STATEMENT = "INSERT INTO hadith (hadith_id) VALUES (1)"\n',
        'STATEMENT = "update narrator set name_ar = null"\n',
        "from sqlalchemy import delete\n\nSTATEMENT = delete(None)\n",
        "async def f(conn):\n    await conn.copy_records_to_table('hadith', records=[])\n",
        "STATEMENT = \"SELECT nextval('s')\"\n",
        "from ingest.writer import swap_in\n",
    ],
)
def test_the_static_check_finds_a_write_planted_in_a_copy_of_the_code(tmp_path: Path, planted: str) -> None:
    for package in static.API_PACKAGES:
        shutil.copytree(REPO / package, tmp_path / package)
    assert static.scan(tmp_path) == []
    (tmp_path / "resolvers" / "planted.py").write_text(planted, encoding="utf-8")
    findings = static.scan(tmp_path)
    assert [f.path for f in findings] == ["resolvers/planted.py"]


async def test_the_live_checks_pass_through_the_api_engine(imported: ImportReport, database_url: str) -> None:
    checks = await database_checks(api_settings(database_url), database_url)
    assert [(c.name, c.passed) for c in checks if not c.passed] == []
    assert {c.detail for c in checks} == {"transaction_read_only = on", "SQLSTATE 25006"}


def _as_role(url: str, role: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{role}@{host}"))


def _import_for_reader(database_url: str, subset_dir: Path) -> None:
    """As the README says: a login role with no privilege, then an import that grants it SELECT."""
    fetch(
        database_url,
        "public",
        f"DO $$ BEGIN CREATE ROLE {READER} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$",
    )
    fetch(database_url, "public", f"GRANT CONNECT ON DATABASE {make_url(database_url).database} TO {READER}")
    run_import(subset_dir, database_url, READER_SCHEMA, quiet_console(), reader_role=READER)


async def test_the_api_serves_under_a_select_only_role(
    imported: ImportReport, database_url: str, subset_dir: Path
) -> None:
    await asyncio.to_thread(_import_for_reader, database_url, subset_dir)
    reader_url = _as_role(database_url, READER)
    settings = api_settings(reader_url, db_schema=READER_SCHEMA)
    async with serving(settings, reader_url) as served:
        body = await call_tool(served.client, "get_hadith", hadith_id=100001)
    assert body["data"]["get_hadith"]["canonical_reference"] == "bukhari:1"
    assert all(check.passed for check in await database_checks(settings, reader_url))
    privileges = await asyncio.to_thread(
        fetch,
        database_url,
        "public",
        "SELECT DISTINCT privilege_type FROM information_schema.role_table_grants"
        " WHERE grantee = $1 AND table_schema = $2",
        READER,
        READER_SCHEMA,
    )
    assert {row["privilege_type"] for row in privileges} == {"SELECT"}
