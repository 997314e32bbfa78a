"""Settings, read once from the environment. No secret is ever printed (see `Settings.__repr__`)."""

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATA_DIR = Path("../shared/data")
DEFAULT_HOME = Path(".isnad")


@dataclass(frozen=True)
class Settings:
    database_url: str | None = field(repr=False)  # None: the embedded PostgreSQL
    data_dir: Path
    home: Path  # where the embedded PostgreSQL keeps its data folder
    db_schema: str
    statement_timeout_ms: int
    pool_size: int
    reader_role: str | None  # a SELECT-only role the importer grants each new schema to

    @property
    def embedded_pgdata(self) -> Path:
        return self.home / "pgdata"


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be an integer") from None


def load_settings() -> Settings:
    """Read ISNAD_* variables; unset ones take their defaults."""
    return Settings(
        database_url=os.environ.get("ISNAD_DATABASE_URL") or None,
        data_dir=Path(os.environ.get("ISNAD_DATA_DIR") or DEFAULT_DATA_DIR),
        home=Path(os.environ.get("ISNAD_HOME") or DEFAULT_HOME),
        db_schema=os.environ.get("ISNAD_DB_SCHEMA") or "isnad",
        statement_timeout_ms=_int("ISNAD_STATEMENT_TIMEOUT_MS", 5000),
        pool_size=_int("ISNAD_POOL_SIZE", 8),
        reader_role=os.environ.get("ISNAD_READER_ROLE") or None,
    )
