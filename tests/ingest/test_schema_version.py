"""The schema version names the statements of ingest/schema.sql: a change of them, without a new version, would let
an API serve a database whose tables it does not know, or refuse one it does (app/data/data_version.py)."""

import hashlib
import re

from app.schema_version import SCHEMA_VERSION
from ingest.writer import ddl

# The fingerprint of the statements each version names; a new version adds its own.
STATEMENTS_OF = {
    2: "cf932bf518ca23bb0cd81c2627ba3602d56333a616e6f0274f27c78babfaee04",
    3: "6db43366af15da0c1be767b4a7b538e3f2a560ee072d6cb6449d0ebcd25d3850",
}


def _fingerprint(sql: str) -> str:
    """The sha256 of the statements alone: comments dropped, every run of white space one space."""
    statements = " ".join(re.sub(r"--[^\n]*", "", sql).split())
    return hashlib.sha256(statements.encode()).hexdigest()


def test_the_schema_version_names_the_statements_of_the_schema() -> None:
    assert STATEMENTS_OF.get(SCHEMA_VERSION) == _fingerprint(ddl()), (
        "ingest/schema.sql changed: bump SCHEMA_VERSION in app/schema_version.py and record the new fingerprint here"
    )


def test_a_comment_or_a_line_break_is_no_change_of_the_statements() -> None:
    sql = ddl()
    annotated = sql.replace("CREATE TABLE", "-- a note\nCREATE\n    TABLE", 1)

    assert annotated != sql
    assert _fingerprint(annotated) == _fingerprint(sql)
