"""The audit's grade tables, measured on the imported subset: every grade counted once in each table, and
the wordings that stay unclassified listed as the sources word them."""

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from ingest.audit import grades
from ingest.audit.section import Rows
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA
from tests.graphql_client import nfc, rows

BY_CLASS, BY_GRADER, UNCLASSIFIED = grades.SECTIONS


@pytest.fixture
async def conn(imported: ImportReport, database_url: str) -> AsyncIterator[asyncpg.Connection]:
    connection = await asyncpg.connect(database_url)
    await connection.execute(f"SET search_path TO {LIVE_SCHEMA}, public")
    yield connection
    await connection.close()


def _total(measured: Rows, column: str) -> Any:
    return sum(int(str(row[column])) for row in measured)


async def test_each_grade_is_counted_once_by_class_and_by_grader(conn: asyncpg.Connection, database_url: str) -> None:
    (imported,) = await rows(database_url, "SELECT count(*) FROM hadith_grade")
    by_grader = await BY_GRADER.measure(conn)

    assert _total(await BY_CLASS.measure(conn), "grades") == _total(by_grader, "grades") == imported["count"]
    columns = ("classified", "in_sahihayn", "no_grade", "unclassified")
    assert all(row["grades"] == sum(int(str(row[c])) for c in columns) for row in by_grader)


async def test_zubair_ali_zai_refers_47_hadith_of_the_subset_to_the_two_sahihs(conn: asyncpg.Connection) -> None:
    zubair = next(row for row in await BY_GRADER.measure(conn) if row["grader"] == "Zubair Ali Zai")

    assert zubair == {
        "grader": "Zubair Ali Zai",
        "source_id": "hadith-api",
        "grades": 200,
        "wordings": 36,
        "classified": 151,
        "in_sahihayn": 47,
        "no_grade": 0,
        "unclassified": 2,
        "unclassified_wordings": 2,
    }


async def test_the_unclassified_wordings_of_the_subset_are_listed_verbatim(conn: asyncpg.Connection) -> None:
    lk, zubair = "LK corpus annotation", "Zubair Ali Zai"

    assert nfc(list(await UNCLASSIFIED.measure(conn))) == nfc(
        [
            {
                "grade": "(حديث أبي مسعود) حسن، (حديث جابر) صحيح، "
                "(حديث أبي هريرة) حسن، (حديث عبد الله بن عمرو بن العاص) حسن",
                "graders": lk,
                "grades": 1,
            },
            {"grade": "Isnaad Sahih Bukhari And Muslim", "graders": zubair, "grades": 1},
            {"grade": "Isnaad Sahih Sahih Muslim", "graders": zubair, "grades": 1},
            {"grade": "شاذ بزيادة وأبيه", "graders": lk, "grades": 1},
            {"grade": "صحيح ثم", "graders": lk, "grades": 1},
        ]
    )
