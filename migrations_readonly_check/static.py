"""The static check: no module of the API (app/, schema/, resolvers/) contains or builds a write.

It reads each module's syntax tree and flags:
- SQL text that writes: INSERT, UPDATE, DELETE, MERGE, TRUNCATE, COPY ... FROM, CREATE, ALTER, DROP,
  GRANT, REVOKE, nextval(, setval(, pg_advisory_lock, lo_ / pg_file functions, SELECT ... INTO;
- SQLAlchemy write constructs: insert(), update(), delete(), DDL objects, metadata.create_all(), and
  the asyncpg writers copy_to_table() / copy_records_to_table() / executemany().
Only `ingest/` may write; it is not scanned.
"""

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

API_PACKAGES = ("app", "schema", "resolvers")

WRITE_SQL = re.compile(
    r"\b(INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|MERGE\s+INTO|\bTRUNCATE\s+(?:TABLE\s+)?\w+|COPY\s+\w+.*\bFROM\b"
    r"|CREATE\s+(?:OR\s+REPLACE\s+)?(?:TABLE|INDEX|VIEW|SCHEMA|FUNCTION|EXTENSION|DATABASE|ROLE|SEQUENCE|TRIGGER)"
    r"|ALTER\s+(?:TABLE|SCHEMA|DATABASE|ROLE|SEQUENCE|VIEW|INDEX)|DROP\s+(?:TABLE|SCHEMA|INDEX|VIEW|DATABASE|ROLE)"
    r"|GRANT\s|REVOKE\s|SELECT\b.*\bINTO\s+\w+|NEXTVAL\s*\(|SETVAL\s*\(|PG_ADVISORY_LOCK|LO_\w+\s*\(|PG_FILE_\w+)",
    re.IGNORECASE | re.DOTALL,
)
WRITE_CALLS = frozenset(
    {
        "insert",
        "update",
        "delete",
        "create_all",
        "drop_all",
        "CreateTable",
        "DropTable",
        "CreateIndex",
        "DropIndex",
        "CreateSchema",
        "DropSchema",
        "DDL",
        "copy_to_table",
        "copy_records_to_table",
        "executemany",
    }
)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _called_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _findings_in(path: Path, root: Path) -> Iterator[Finding]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = path.relative_to(root).as_posix()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = WRITE_SQL.search(node.value)
            if match:
                yield Finding(name, node.lineno, f"SQL that writes: {match.group(0)[:40]!r}")
        elif isinstance(node, ast.Call) and _called_name(node) in WRITE_CALLS:
            yield Finding(name, node.lineno, f"a write construct: {_called_name(node)}()")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ingest"):
            yield Finding(name, node.lineno, "imports the importer, the only writer")


def scan(root: Path, packages: tuple[str, ...] = API_PACKAGES) -> list[Finding]:
    """Every write found in the API's packages under `root`."""
    return [
        finding
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
        for finding in _findings_in(path, root)
    ]
