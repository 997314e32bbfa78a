"""Settings, read once from the environment. No secret is ever printed (see `Settings.__repr__`)."""

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATA_DIR = Path("../shared/data")
DEFAULT_HOME = Path(".isnad")
SWITCH = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}


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
    max_in_flight: int = 64  # guarded requests each worker serves at once (0: no bound); more wait in a queue
    max_queued: int = 128  # requests waiting for a place, per worker; more are answered 503 at once
    queue_wait_ms: int = 250  # how long a request waits for a place before it is answered 503
    rate_limits: str = ""  # "profile=requests_per_second/burst,..."; `default`: requests without a key, per address
    suggestions: bool = False  # "Did you mean ...?" in GraphQL errors: for development, it reveals the schema's names
    header_timeout_ms: int = 10_000  # a request's head must arrive within this (app/slow_clients.py)
    body_timeout_ms: int = 20_000  # and its body within this after its head
    max_header_bytes: int = 16_384  # a request's URL and headers together
    max_headers: int = 100
    replica_urls: tuple[str, ...] = field(default=(), repr=False)  # streaming replicas reads go to (app/replicas.py)
    replica_check_ms: int = 1_000  # how often each replica's health is checked

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


def _switch(name: str, default: bool) -> bool:
    raw = (os.environ.get(name) or "").strip().lower()
    if raw == "":
        return default
    if raw not in SWITCH:
        raise SystemExit(f"{name} must be on or off")
    return SWITCH[raw]


def _path(name: str) -> Path | None:
    raw = os.environ.get(name)
    return Path(raw) if raw else None


def _list(name: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in os.environ.get(name, "").split(",") if item.strip())


def load_settings() -> Settings:
    """Read ISNAD_* variables; unset ones take their defaults."""
    return Settings(
        database_url=os.environ.get("ISNAD_DATABASE_URL") or None,
        data_dir=Path(os.environ.get("ISNAD_DATA_DIR") or DEFAULT_DATA_DIR),
        home=Path(os.environ.get("ISNAD_HOME") or DEFAULT_HOME),
        db_schema=os.environ.get("ISNAD_DB_SCHEMA") or "isnad",
        statement_timeout_ms=_int("ISNAD_STATEMENT_TIMEOUT_MS", 5000),
        pool_size=_int("ISNAD_POOL_SIZE", 32),
        reader_role=os.environ.get("ISNAD_READER_ROLE") or None,
        api_keys=os.environ.get("ISNAD_API_KEYS", ""),
        default_client_mode=os.environ.get("ISNAD_DEFAULT_CLIENT_MODE") or "free",
        max_nodes=_int("ISNAD_MAX_NODES", 2_000),
        max_cost=_int("ISNAD_MAX_COST", 2_500),
        max_depth=_int("ISNAD_MAX_DEPTH", 12),
        max_aliases=_int("ISNAD_MAX_ALIASES", 30),
        max_tokens=_int("ISNAD_MAX_TOKENS", 2_000),
        max_body_bytes=_int("ISNAD_MAX_BODY_BYTES", 65_536),
        persisted_cache_seconds=_int("ISNAD_PERSISTED_CACHE_SECONDS", 300),
        cors_origins=_list("ISNAD_CORS_ORIGINS"),
        compress_min_bytes=_int("ISNAD_COMPRESS_MIN_BYTES", 500),
        apq_cache_size=_int("ISNAD_APQ_CACHE_SIZE", 1_024),
        request_log=_switch("ISNAD_REQUEST_LOG", False),
        metrics_dir=_path("PROMETHEUS_MULTIPROC_DIR"),
        request_timeout_ms=_int("ISNAD_REQUEST_TIMEOUT_MS", 10_000),
        ready_timeout_ms=_int("ISNAD_READY_TIMEOUT_MS", 1_000),
        max_in_flight=_int("ISNAD_MAX_IN_FLIGHT", 64),
        max_queued=_int("ISNAD_MAX_QUEUED", 128),
        queue_wait_ms=_int("ISNAD_QUEUE_WAIT_MS", 250),
        rate_limits=os.environ.get("ISNAD_RATE_LIMITS", ""),
        suggestions=_switch("ISNAD_SUGGESTIONS", False),
        header_timeout_ms=_int("ISNAD_HEADER_TIMEOUT_MS", 10_000),
        body_timeout_ms=_int("ISNAD_BODY_TIMEOUT_MS", 20_000),
        max_header_bytes=_int("ISNAD_MAX_HEADER_BYTES", 16_384),
        max_headers=_int("ISNAD_MAX_HEADERS", 100),
        replica_urls=_list("ISNAD_DATABASE_REPLICA_URLS"),
        replica_check_ms=_int("ISNAD_REPLICA_CHECK_MS", 1_000),
    )
