"""Settings, read once from the environment. No secret is ever printed (see `Settings.__repr__`).

`VARIABLES` is the one table of them: each variable with its default, how its text is read, and its help
(`isnad-graphql settings` prints it). Every mistake of the environment is reported at once, in one
message (`SettingsError`), before anything starts.
"""

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_DATA_DIR = Path("../shared/data")
DEFAULT_HOME = Path(".isnad")
SWITCH = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}
POSTGRES_SCHEMES = ("postgres", "postgresql", "postgresql+asyncpg")
CLIENT_MODES = ("free", "persisted")
POOLERS = ("none", "transaction")  # what stands between the API and PostgreSQL (app/data/sessions.py)


@dataclass(frozen=True)
class Settings:
    database_url: str | None = field(repr=False)  # None: the embedded PostgreSQL
    data_dir: Path
    home: Path  # where the embedded PostgreSQL keeps its data folder
    db_schema: str
    statement_timeout_ms: int
    pool_size: int
    reader_role: str | None  # a SELECT-only role the importer grants each new schema to
    api_keys: str = field(default="", repr=False)  # "profile:mode:key,..." (mode: persisted | free)
    default_client_mode: str = "free"  # the mode of requests that send no API key
    max_nodes: int = 2_000
    max_cost: int = 2_500
    max_depth: int = 12
    max_aliases: int = 30
    max_tokens: int = 2_000
    max_body_bytes: int = 65_536
    persisted_cache_seconds: int = 300
    cors_origins: tuple[str, ...] = ()  # origins browsers may call from; ("*",) for any, never with credentials
    compress_min_bytes: int = 500  # answers at least this long leave gzip-compressed to clients that accept it
    apq_cache_size: int = 1_024  # documents registered by automatic persisted queries, per process
    request_log: bool = False  # one JSON line per request on stderr (`serve`): off, it costs ~10 % of a lookup
    metrics_dir: Path | None = None  # where several workers keep their metrics (prometheus-client's variable)
    request_timeout_ms: int = 10_000  # a request's deadline for all of its statements together
    ready_timeout_ms: int = 1_000  # how long /readyz waits for the database on its own connection
    ready_interval_ms: int = 1_000  # how often each worker checks the database in the background for /readyz
    max_in_flight: int = 32  # guarded requests each worker serves at once (0: no bound); more wait in a queue
    max_queued: int = 32  # requests waiting for a place, per worker; more are answered 503 at once
    queue_wait_ms: int = 100  # how long a request waits for a place before it is answered 503
    rate_limits: str = ""  # "profile=requests_per_second/burst,..."; `default`: requests without a key, per address
    suggestions: bool = False  # "Did you mean ...?" in GraphQL errors: for development, it reveals the schema's names
    header_timeout_ms: int = 10_000  # a request's head must arrive within this (app/http/slow_clients.py)
    body_timeout_ms: int = 20_000  # and its body within this after its head
    max_header_bytes: int = 16_384  # a request's URL and headers together
    max_headers: int = 100
    replica_urls: tuple[str, ...] = field(default=(), repr=False)  # streaming replicas to read from
    replica_check_ms: int = 1_000  # how often each replica's health is checked
    pooler: str = "none"  # "transaction": PgBouncer in transaction mode between the API and PostgreSQL

    @property
    def embedded_pgdata(self) -> Path:
        return self.home / "pgdata"

    @property
    def pooled(self) -> bool:
        """Whether server sessions are shared between the API's connections (a transaction pooler)."""
        return self.pooler == "transaction"


class SettingsError(SystemExit):
    """Every mistake of the environment, one a line: the process stops before it starts anything."""


def _int(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ValueError("must be an integer") from None


def _switch(raw: str) -> bool:
    value = SWITCH.get(raw.strip().lower())
    if value is None:
        raise ValueError("must be on or off")
    return value


def _list(raw: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in raw.split(",") if item.strip())


def _postgres_url(raw: str) -> str:
    if raw.partition("://")[0] not in POSTGRES_SCHEMES or "://" not in raw:
        raise ValueError("must be a postgresql:// URL")
    return raw


def _postgres_urls(raw: str) -> tuple[str, ...]:
    return tuple(_postgres_url(url) for url in _list(raw))


def _one_of(*choices: str) -> Callable[[str], str]:
    def cast(raw: str) -> str:
        if raw not in choices:
            raise ValueError("must be " + " or ".join(f"'{choice}'" for choice in choices))
        return raw

    return cast


@dataclass(frozen=True)
class Variable:
    """One environment variable: the setting it fills, its default (unset or empty), how its text is read."""

    name: str
    setting: str
    default: Any
    cast: Callable[[str], Any]
    help: str

    def read(self, environ: Mapping[str, str]) -> Any:
        raw = environ.get(self.name)
        return self.default if raw is None or raw == "" else self.cast(raw)


VARIABLES = (
    Variable("ISNAD_DATABASE_URL", "database_url", None, _postgres_url, "the PostgreSQL; unset: the embedded one"),
    Variable("ISNAD_DATA_DIR", "data_dir", DEFAULT_DATA_DIR, Path, "the data folder the importer reads"),
    Variable("ISNAD_HOME", "home", DEFAULT_HOME, Path, "where the embedded PostgreSQL keeps its data folder"),
    Variable("ISNAD_DB_SCHEMA", "db_schema", "isnad", str, "the schema the importer swaps in and the API reads"),
    Variable(
        "ISNAD_STATEMENT_TIMEOUT_MS", "statement_timeout_ms", 5000, _int, "statement timeout of every API statement"
    ),
    Variable("ISNAD_POOL_SIZE", "pool_size", 32, _int, "connections per API worker"),
    Variable(
        "ISNAD_READER_ROLE", "reader_role", None, str, "a SELECT-only role the importer grants each new schema to"
    ),
    Variable("ISNAD_API_KEYS", "api_keys", "", str, "client profiles, name:persisted|free:key,..."),
    Variable(
        "ISNAD_DEFAULT_CLIENT_MODE",
        "default_client_mode",
        "free",
        _one_of(*CLIENT_MODES),
        "free or persisted, without a key",
    ),
    Variable("ISNAD_MAX_NODES", "max_nodes", 2_000, _int, "objects a document may ask for"),
    Variable("ISNAD_MAX_COST", "max_cost", 2_500, _int, "cost a document may reach"),
    Variable("ISNAD_MAX_DEPTH", "max_depth", 12, _int, "depth of a document's selections"),
    Variable("ISNAD_MAX_ALIASES", "max_aliases", 30, _int, "aliases in a document"),
    Variable("ISNAD_MAX_TOKENS", "max_tokens", 2_000, _int, "tokens in a document"),
    Variable("ISNAD_MAX_BODY_BYTES", "max_body_bytes", 65_536, _int, "bytes of a request body"),
    Variable(
        "ISNAD_PERSISTED_CACHE_SECONDS", "persisted_cache_seconds", 300, _int, "max-age of a persisted GET answer"
    ),
    Variable("ISNAD_CORS_ORIGINS", "cors_origins", (), _list, "origins browsers may call from, comma-separated, or *"),
    Variable("ISNAD_COMPRESS_MIN_BYTES", "compress_min_bytes", 500, _int, "answers at least this long are gzipped"),
    Variable(
        "ISNAD_APQ_CACHE_SIZE", "apq_cache_size", 1_024, _int, "documents registered by automatic persisted queries"
    ),
    Variable("ISNAD_REQUEST_LOG", "request_log", False, _switch, "on: one JSON line per request on stderr"),
    Variable("PROMETHEUS_MULTIPROC_DIR", "metrics_dir", None, Path, "where several workers keep their metrics"),
    Variable(
        "ISNAD_REQUEST_TIMEOUT_MS", "request_timeout_ms", 10_000, _int, "a request's deadline for all its statements"
    ),
    Variable("ISNAD_READY_TIMEOUT_MS", "ready_timeout_ms", 1_000, _int, "how long /readyz waits for the database"),
    Variable(
        "ISNAD_READY_INTERVAL_MS", "ready_interval_ms", 1_000, _int, "how often /readyz's check runs in the background"
    ),
    Variable("ISNAD_MAX_IN_FLIGHT", "max_in_flight", 32, _int, "requests each worker serves at once (0: no bound)"),
    Variable("ISNAD_MAX_QUEUED", "max_queued", 32, _int, "requests each worker lets wait for a place"),
    Variable("ISNAD_QUEUE_WAIT_MS", "queue_wait_ms", 100, _int, "how long a request waits for a place before a 503"),
    Variable(
        "ISNAD_RATE_LIMITS", "rate_limits", "", str, "requests a second and burst per profile, profile=rate/burst,..."
    ),
    Variable("ISNAD_SUGGESTIONS", "suggestions", False, _switch, "true: GraphQL errors suggest the schema's names"),
    Variable("ISNAD_HEADER_TIMEOUT_MS", "header_timeout_ms", 10_000, _int, "a request's head must arrive within this"),
    Variable("ISNAD_BODY_TIMEOUT_MS", "body_timeout_ms", 20_000, _int, "and its body within this after its head"),
    Variable("ISNAD_MAX_HEADER_BYTES", "max_header_bytes", 16_384, _int, "bytes of a request's URL and headers"),
    Variable("ISNAD_MAX_HEADERS", "max_headers", 100, _int, "headers a request may send"),
    Variable("ISNAD_DATABASE_REPLICA_URLS", "replica_urls", (), _postgres_urls, "streaming replicas to read from"),
    Variable("ISNAD_REPLICA_CHECK_MS", "replica_check_ms", 1_000, _int, "how often each replica's health is checked"),
    Variable(
        "ISNAD_DATABASE_POOLER",
        "pooler",
        "none",
        _one_of(*POOLERS),
        "none, or transaction: behind PgBouncer in transaction mode",
    ),
)


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Read the variables of `VARIABLES` (the process's environment by default); unset ones take their
    defaults. Raises `SettingsError` with every mistake at once."""
    source = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    mistakes = []
    for variable in VARIABLES:
        try:
            values[variable.setting] = variable.read(source)
        except ValueError as error:
            mistakes.append(f"{variable.name} {error}")
    if mistakes:
        raise SettingsError("\n".join(mistakes))
    return Settings(**values)


def describe() -> str:
    """The table, one variable a line: its name, its default, its help."""
    width = max(len(variable.name) for variable in VARIABLES)
    return "\n".join(f"{variable.name:<{width}}  {_shown(variable.default)}: {variable.help}" for variable in VARIABLES)


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return "on" if default else "off"
    return "unset" if default is None or default in ("", ()) else str(default)
