"""The API's engine and its per-request connection: READ ONLY transactions with a statement timeout.

A request runs its statements on one pooled connection, taken on its first statement and given
back when the request ends. Failures of the database itself (down, timeout, pool exhausted)
become UPSTREAM_UNAVAILABLE; the pool drops broken connections, so the API recovers by itself
when the database is back.
"""

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy.exc
from sqlalchemy import ClauseElement, Dialect, Executable, RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.sql.compiler import SQLCompiler

from app.errors import UpstreamUnavailable
from app.settings import Settings

FUZZY_NAME_THRESHOLD = 0.45  # pg_trgm similarity of a query and a narrator's name form
NAME_WORD_SIMILARITY = 0.6  # pg_trgm word_similarity of a query within a name form (the `<%` pre-filter)
# SQLSTATE classes that mean "the database cannot answer now", not "the query is wrong":
# 08 connection exception, 53 insufficient resources, 57 operator intervention (57014 = timeout).
UPSTREAM_SQLSTATE_CLASSES = ("08", "53", "57")
CONNECT_TIMEOUT_S = 3.0
POOL_TIMEOUT_S = 2.0


def sqlalchemy_url(url: str) -> str:
    """postgresql://... (libpq form, as ISNAD_DATABASE_URL takes it) -> the asyncpg dialect's URL."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in {"postgres", "postgresql", "postgresql+asyncpg"}:
        raise SystemExit("ISNAD_DATABASE_URL must be a postgresql:// URL")
    return f"postgresql+asyncpg://{rest}"


def create_engine(settings: Settings, url: str) -> AsyncEngine:
    server_settings = {
        "default_transaction_read_only": "on",
        "statement_timeout": str(settings.statement_timeout_ms),
        "search_path": f"{settings.db_schema}, public",
        "application_name": "isnad-graphql",
        # The `<%` pre-filter of the narrator fuzzy tier uses this threshold, so the trigram index returns
        # the candidates that can be kept, not thousands more.
        "pg_trgm.word_similarity_threshold": str(NAME_WORD_SIMILARITY),
    }
    return create_async_engine(
        sqlalchemy_url(url),
        pool_size=settings.pool_size,
        max_overflow=0,
        pool_timeout=POOL_TIMEOUT_S,
        connect_args={"server_settings": server_settings, "timeout": CONNECT_TIMEOUT_S},
    )


def _is_upstream(error: BaseException) -> bool:
    if isinstance(error, sqlalchemy.exc.DBAPIError):
        sqlstate = getattr(error.orig, "sqlstate", None) or ""
        return error.connection_invalidated or sqlstate[:2] in UPSTREAM_SQLSTATE_CLASSES or not sqlstate
    return isinstance(error, OSError | TimeoutError | sqlalchemy.exc.TimeoutError | sqlalchemy.exc.InterfaceError)


@dataclass(frozen=True)
class _Compiled:
    """A module-level statement compiled once for the dialect: its SQL ($1, $2 ...), the names of its
    parameters in that order, the values bound in the statement itself, and each parameter's conversion."""

    statement: Executable  # held, so that its id() is never reused while it is in the cache
    sql: str
    names: tuple[str, ...]
    defaults: Mapping[str, Any]
    converters: tuple[Callable[[Any], Any] | None, ...]

    @classmethod
    def of(cls, statement: Executable, dialect: Dialect) -> "_Compiled":
        compiled = statement.compile(dialect=dialect) if isinstance(statement, ClauseElement) else None
        if not isinstance(compiled, SQLCompiler):
            raise TypeError("a Bound statement is a SQL expression")
        if compiled.post_compile_params or compiled.literal_execute_params:
            raise ValueError("a Bound statement takes arrays (= ANY(:keys)), never expanding IN lists")
        names = tuple(compiled.positiontup or ())
        binds = [compiled.binds[name] for name in names]
        return cls(
            statement,
            compiled.string,
            names,
            {name: bind.effective_value for name, bind in zip(names, binds, strict=True) if not bind.required},
            tuple(bind.type.dialect_impl(dialect).bind_processor(dialect) for bind in binds),
        )

    def arguments(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """The positional arguments of one execution: `params` by name, else the statement's own values."""
        values = (params[name] if name in params else self.defaults[name] for name in self.names)
        return tuple(v if convert is None else convert(v) for v, convert in zip(values, self.converters, strict=True))


_compiled: dict[int, _Compiled] = {}  # by id() of the module-level statement (the API has one dialect: asyncpg)


def _compiled_once(statement: Executable, dialect: Dialect) -> _Compiled:
    found = _compiled.get(id(statement))
    if found is None:
        found = _compiled[id(statement)] = _Compiled.of(statement, dialect)
    return found


@dataclass(frozen=True)
class Bound:
    """A statement built once, at module level, with named `bindparam`s, and their values for one execution.

    Compiled on its first execution; then it runs as its SQL string with these values as positional
    arguments: no statement building, cache key or compilation per call."""

    statement: Executable
    params: Mapping[str, Any]


class RequestDatabase:
    """One request's access to the database: its statements run one at a time on one connection.

    `fetch(statement)` compiles a statement built per request through SQLAlchemy (and its cache);
    `fetch(Bound(statement, params))` runs a module-level statement compiled once.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._connection: AsyncConnection | None = None
        self._lock = asyncio.Lock()

    async def fetch(self, statement: Executable | Bound) -> Sequence[RowMapping]:
        async with self._lock:
            try:
                return await self._execute(statement)
            except Exception as error:
                if _is_upstream(error):
                    raise UpstreamUnavailable() from error
                raise

    async def _execute(self, statement: Executable | Bound) -> Sequence[RowMapping]:
        """Run on the request's connection. A pooled connection that the server dropped while it sat idle
        (a restart) fails at its first statement: that one is retried once on a fresh connection, which is
        safe, as nothing has run in the request's read-only transaction yet."""
        first = self._connection is None
        if self._connection is None:
            self._connection = await self._engine.connect()
        try:
            return await _run(self._connection, statement)
        except sqlalchemy.exc.DBAPIError as error:
            if not (first and error.connection_invalidated):
                raise
        await self.close()
        self._connection = await self._engine.connect()
        return await _run(self._connection, statement)

    async def close(self) -> None:
        """Give the connection back (its read-only transaction is rolled back)."""
        if self._connection is not None:
            connection, self._connection = self._connection, None
            try:
                await connection.close()
            except Exception as error:
                if not _is_upstream(error):
                    raise


async def _run(connection: AsyncConnection, statement: Executable | Bound) -> Sequence[RowMapping]:
    if isinstance(statement, Bound):
        plan = _compiled_once(statement.statement, connection.dialect)
        result = await connection.exec_driver_sql(plan.sql, plan.arguments(statement.params))
    else:
        result = await connection.execute(statement)
    return result.mappings().all()


async def ping(engine: AsyncEngine) -> bool:
    """True when the database answers a trivial statement."""
    database = RequestDatabase(engine)
    try:
        await database.fetch(sqlalchemy.text("SELECT 1"))
    except UpstreamUnavailable:
        return False
    finally:
        await database.close()
    return True
