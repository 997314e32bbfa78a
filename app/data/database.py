"""The API's engine and its per-request connection: READ ONLY transactions with a statement timeout.

A request runs its statements on one pooled connection, taken on its first statement and given
back when the request ends; each statement is its own READ ONLY transaction (the session's default).
Failures of the database itself (down, timeout, pool exhausted) become UPSTREAM_UNAVAILABLE; the pool
drops broken connections, so the API recovers by itself when the database is back.

Nothing waits on the database without a bound: connecting (CONNECT_TIMEOUT_S), a free connection
(POOL_TIMEOUT_S), each statement (the server's statement timeout, and on the client that timeout plus
COMMAND_MARGIN_S, for a link that stalls and answers nothing), TCP keepalive on both ends. A statement
interrupted on the client (a timeout, the request's deadline, a client that left) is cancelled on the
server by the driver; its connection goes back to the pool only once the server has acknowledged the
cancellation within SETTLE_TIMEOUT_S, and is dropped otherwise. `/readyz` asks on a connection of its
own (`Readiness`), never the request pool.
"""

import asyncio
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import asyncpg
import orjson
import sqlalchemy.exc
from sqlalchemy import ClauseElement, Dialect, Executable, event
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_dbapi
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import PoolProxiedConnection
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.types import ARRAY, TypeEngine

from app.data.sessions import connect_arguments, search_path, session_settings
from app.errors import UpstreamUnavailable
from app.metrics import POOL_IN_USE, POOL_WAITING
from app.settings import Settings

FUZZY_NAME_THRESHOLD = 0.45  # pg_trgm similarity of a query and a narrator's name form
# SQLSTATE classes that mean "the database cannot answer now", not "the query is wrong":
# 08 connection exception, 53 insufficient resources, 57 operator intervention (57014 = timeout).
UPSTREAM_SQLSTATE_CLASSES = ("08", "53", "57")
CONNECT_TIMEOUT_S = 3.0
POOL_TIMEOUT_S = 2.0
COMMAND_MARGIN_S = 1.0  # a statement unanswered this long past the server's own timeout: the link is stalled
SETTLE_TIMEOUT_S = 1.0  # how long an interrupted statement's cancellation may take before its connection is dropped
# TCP keepalive, set on the server (its sessions) and on the client (its sockets): a peer silent for
# IDLE seconds is probed every INTERVAL seconds, and after COUNT probes unanswered its connection is over.
KEEPALIVE_IDLE_S = 10
KEEPALIVE_INTERVAL_S = 5
KEEPALIVE_COUNT = 3
# The server ends the session of a client whose link is dead (over TCP; a unix socket ignores these).
# Behind PgBouncer, the server's client is PgBouncer, whose own `tcp_keepalive` settings apply.
SERVER_KEEPALIVE = {
    "tcp_keepalives_idle": str(KEEPALIVE_IDLE_S),
    "tcp_keepalives_interval": str(KEEPALIVE_INTERVAL_S),
    "tcp_keepalives_count": str(KEEPALIVE_COUNT),
}
# Each statement, prepared once per connection (asyncpg's statement cache), is planned once there without its
# parameters' values (the generic plan). Left to choose, PostgreSQL planned the narrator search anew on every
# execution (its estimates favour a plan for the values): 0.7-1.6 ms of planning for 2.4 ms of execution. The
# statements are written so that one plan serves every value (a range of an index, not `LIKE :prefix`; keys
# unnested with `LIMIT cardinality`), and tests read those plans. Behind a transaction pooler statements are
# unnamed and planned at each execution anyway: the generic plan would save nothing there and lose the values, so
# it is left to PostgreSQL (docs/production.md).
ONE_PLAN_PER_STATEMENT = {"plan_cache_mode": "force_generic_plan"}
AsyncpgDBAPIError = AsyncAdapt_asyncpg_dbapi.Error  # what SQLAlchemy makes of asyncpg's errors as a connection opens
SQL_LOG = logging.getLogger("isnad_graphql.sql")  # every statement at DEBUG, its record's `arguments` too


def sqlalchemy_url(url: str) -> str:
    """postgresql://... (libpq form, as ISNAD_DATABASE_URL takes it) -> the asyncpg dialect's URL."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in {"postgres", "postgresql", "postgresql+asyncpg"}:
        raise SystemExit("ISNAD_DATABASE_URL must be a postgresql:// URL")
    return f"postgresql+asyncpg://{rest}"


def create_engine(settings: Settings, url: str) -> AsyncEngine:
    wanted = {**session_settings(settings), **SERVER_KEEPALIVE, **ONE_PLAN_PER_STATEMENT}
    engine = create_async_engine(
        sqlalchemy_url(url),
        isolation_level="AUTOCOMMIT",  # each statement its own READ ONLY transaction: no BEGIN, no ROLLBACK
        pool_reset_on_return=None,  # so nothing is ever left open to reset
        json_deserializer=orjson.loads,
        pool_size=settings.pool_size,
        max_overflow=0,
        pool_timeout=POOL_TIMEOUT_S,
        connect_args={
            **connect_arguments("isnad-graphql", wanted, settings.pooled),
            "timeout": CONNECT_TIMEOUT_S,
            "command_timeout": settings.statement_timeout_ms / 1000 + COMMAND_MARGIN_S,
            "connection_class": KeepaliveConnection,
        },
    )
    event.listen(engine.sync_engine, "checkout", lambda *_: POOL_IN_USE.inc())
    event.listen(engine.sync_engine, "checkin", lambda *_: POOL_IN_USE.dec())
    return engine


if TYPE_CHECKING:
    _Connection = asyncpg.Connection[asyncpg.Record]
else:
    _Connection = asyncpg.Connection  # not subscriptable at run time


class KeepaliveConnection(_Connection):
    """asyncpg's connection with TCP keepalive on its socket (a unix socket needs none)."""

    def __init__(self, protocol: Any, transport: asyncio.Transport, *rest: Any) -> None:
        super().__init__(protocol, transport, *rest)
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family != socket.AF_UNIX:
            keep_alive(sock)


def keep_alive(sock: socket.socket) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (
        ("TCP_KEEPIDLE", KEEPALIVE_IDLE_S),
        ("TCP_KEEPINTVL", KEEPALIVE_INTERVAL_S),
        ("TCP_KEEPCNT", KEEPALIVE_COUNT),
    ):
        if hasattr(socket, name):  # Linux names; other systems keep their defaults
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)


def _is_upstream(error: BaseException) -> bool:
    if isinstance(error, sqlalchemy.exc.DBAPIError):
        sqlstate = getattr(error.orig, "sqlstate", None) or ""
        return error.connection_invalidated or sqlstate[:2] in UPSTREAM_SQLSTATE_CLASSES or not sqlstate
    if isinstance(error, asyncpg.PostgresError | AsyncpgDBAPIError):  # the second: refused as it connects
        sqlstate = error.sqlstate or ""
        return sqlstate[:2] in UPSTREAM_SQLSTATE_CLASSES
    return isinstance(
        error,
        OSError | TimeoutError | asyncpg.InterfaceError | sqlalchemy.exc.TimeoutError | sqlalchemy.exc.InterfaceError,
    )


def _is_disconnect(error: BaseException) -> bool:
    """The connection itself is gone (the server restarted or dropped it), whatever ran on it."""
    return isinstance(error, asyncpg.PostgresConnectionError | asyncpg.InterfaceError | ConnectionError)


@dataclass(frozen=True)
class _Compiled:
    """A statement compiled for the dialect: its SQL ($1, $2 ...), the names of its parameters in that
    order, the values bound in the statement itself, and each parameter's conversion."""

    statement: Executable  # held, so that its id() is never reused while it is in the cache
    sql: str
    names: tuple[str, ...]
    defaults: Mapping[str, Any]
    converters: tuple[Callable[[Any], Any] | None, ...]

    @classmethod
    def of(cls, statement: Executable, dialect: Dialect) -> "_Compiled":
        compiled = statement.compile(dialect=dialect) if isinstance(statement, ClauseElement) else None
        if not isinstance(compiled, SQLCompiler):
            raise TypeError("a statement of the API is a SQL expression")
        if compiled.post_compile_params or compiled.literal_execute_params:
            raise ValueError("a statement of the API takes arrays (= ANY(:keys)), never expanding IN lists")
        names = tuple(compiled.positiontup or ())
        binds = [compiled.binds[name] for name in names]
        return cls(
            statement,
            compiled.string,
            names,
            {name: bind.effective_value for name, bind in zip(names, binds, strict=True) if not bind.required},
            tuple(_converter(bind.type, dialect) for bind in binds),
        )

    def arguments(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """The positional arguments of one execution: `params` by name, else the statement's own values."""
        values = (params[name] if name in params else self.defaults[name] for name in self.names)
        return tuple(v if convert is None else convert(v) for v, convert in zip(values, self.converters, strict=True))


def _converter(bound: TypeEngine[Any], dialect: Dialect) -> Callable[[Any], Any] | None:
    """What SQLAlchemy would do to a value of this type before the driver takes it; nothing for an array
    of values that need no conversion (asyncpg takes the list as it is)."""
    impl = bound.dialect_impl(dialect)
    if isinstance(impl, ARRAY) and impl.item_type.dialect_impl(dialect).bind_processor(dialect) is None:
        return None
    return impl.bind_processor(dialect)


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
    arguments: no statement building or compilation per call."""

    statement: Executable
    params: Mapping[str, Any]


class Row(Protocol):
    """A result row read by column name (asyncpg's Record)."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...

    def values(self) -> Iterable[Any]: ...


Reroute = Callable[[AsyncEngine], AsyncEngine | None]  # the pool to read from instead of one unreachable


class RequestDatabase:
    """One request's access to the database: its statements run one at a time on one pooled connection.

    SQLAlchemy builds and compiles the statements and keeps the pool; they run on the driver's connection
    itself. `fetch(Bound(statement, params))` runs a module-level statement compiled once; `fetch(statement)`
    compiles a statement built for this request. Each statement is its own implicit transaction, READ ONLY
    by the session's default, with the session's statement timeout: no BEGIN and ROLLBACK round trips.
    """

    def __init__(self, engine: AsyncEngine, reroute: Reroute | None = None) -> None:
        self._engine = engine
        self._reroute = reroute  # where to read instead when `engine` cannot be reached (app/data/replicas.py)
        self._connection: PoolProxiedConnection | None = None
        self._lock = asyncio.Lock()
        self._running: asyncio.Task[Any] | None = None  # the task whose statement is in flight
        self._unsettled = False  # a statement was interrupted: the server may still be cancelling it
        self._closed = False
        self.statements = 0  # how many the request ran
        self.seconds = 0.0  # how long they took, as the API saw it

    async def fetch(self, statement: Executable | Bound) -> Sequence[Row]:
        async with self._lock:
            if self._closed:  # a statement the request left behind (a loader's batch) once it was over
                raise UpstreamUnavailable()
            self._running, started = asyncio.current_task(), time.perf_counter()
            try:
                return await self._execute(_compiled_for(statement, self._engine.dialect), _params(statement))
            except BaseException as error:
                # A server error leaves the connection ready; anything else (a timeout, a cancellation, a
                # broken link) may leave a statement running, that the driver is cancelling.
                self._unsettled = self._unsettled or not isinstance(error, asyncpg.PostgresError)
                if isinstance(error, Exception) and _is_upstream(error):
                    raise UpstreamUnavailable() from error
                raise
            finally:
                self._running = None
                self.statements += 1
                self.seconds += time.perf_counter() - started

    async def _execute(self, plan: _Compiled, params: Mapping[str, Any]) -> Sequence[Row]:
        """Run on the request's connection. A pooled connection that the server dropped while it sat idle
        (a restart) fails at its first statement: that one is retried once on a fresh connection, which is
        safe, as the request has read nothing yet."""
        first = self._connection is None
        connection = self._connection or await self._first_connection()
        try:
            return await _run(connection, plan, params)
        except Exception as error:
            if not (first and _is_disconnect(error)):
                raise
            self._connection = None
            connection.invalidate(error)
            await self._engine.dispose()  # the pool's other idle connections died with this one
        return await _run(await self._first_connection(), plan, params)

    async def _first_connection(self) -> PoolProxiedConnection:
        """The request's connection; when its server cannot be reached (a replica that went down since its last
        check), one from where `reroute` says instead, once: the request has read nothing yet."""
        try:
            return await self._connect()
        except Exception as error:
            instead = self._reroute(self._engine) if self._reroute is not None and _is_upstream(error) else None
            if instead is None:
                raise
        self._engine = instead
        return await self._connect()

    async def _connect(self) -> PoolProxiedConnection:
        with POOL_WAITING.track_inprogress():
            self._connection = await self._engine.raw_connection()
        return self._connection

    async def close(self) -> None:
        """Give the connection back to the pool, settled (nothing to roll back: no transaction is left open).

        A statement still in flight (a loader's batch that the request's deadline or its client's leaving
        did not reach) is interrupted first. After an interrupted statement, the connection goes back only
        once the server has acknowledged its cancellation and answers again, within SETTLE_TIMEOUT_S;
        otherwise it is dropped, and the pool opens another."""
        self._closed = True
        if self._running is not None:
            self._running.cancel()
        async with self._lock:
            connection, self._connection = self._connection, None
            if connection is None:
                return
            settled = False
            try:
                settled = not self._unsettled or await _answers(connection)
            finally:
                if settled:
                    connection.close()
                else:
                    connection.invalidate()


def _compiled_for(statement: Executable | Bound, dialect: Dialect) -> _Compiled:
    if isinstance(statement, Bound):
        return _compiled_once(statement.statement, dialect)
    return _Compiled.of(statement, dialect)


def _params(statement: Executable | Bound) -> Mapping[str, Any]:
    return statement.params if isinstance(statement, Bound) else {}


async def _run(connection: PoolProxiedConnection, plan: _Compiled, params: Mapping[str, Any]) -> Sequence[Row]:
    arguments = plan.arguments(params)
    if SQL_LOG.isEnabledFor(logging.DEBUG):
        SQL_LOG.debug("%s", plan.sql, extra={"arguments": arguments})
    driver = cast(asyncpg.Connection, connection.driver_connection)
    return cast(Sequence[Row], await driver.fetch(plan.sql, *arguments))


async def _answers(connection: PoolProxiedConnection) -> bool:
    """Whether the connection answers a trivial statement within SETTLE_TIMEOUT_S; the driver first waits
    for the cancellation it sent to be acknowledged (and closes the connection when it is not)."""
    driver = cast(asyncpg.Connection, connection.driver_connection)
    try:
        await driver.fetchval("SELECT 1", timeout=SETTLE_TIMEOUT_S)
    except Exception:  # whatever it is, the connection is not reused
        return False
    return True


Probe = Callable[[asyncpg.Connection], Awaitable[None]]


async def select_one(connection: asyncpg.Connection) -> None:
    await connection.fetchval("SELECT 1")


class Readiness:
    """Whether the database answers, asked on a connection of its own, bounded by ISNAD_READY_TIMEOUT_MS in all: never
    the request pool, which may be busy. Checks asked while one runs share it, so that probes cannot open more than
    one connection at a time. A check may keep its connection for the next (`keep`, the background checks of
    `/readyz`: one round trip a check instead of a connection's several); any other closes it, and a failed check
    drops it."""

    def __init__(self, settings: Settings, url: str, probe: Probe = select_one, schema: bool = False) -> None:
        self._url = f"postgresql://{sqlalchemy_url(url).partition('://')[2]}"  # as asyncpg takes it
        self._timeout_s = settings.ready_timeout_ms / 1000
        self._probe = probe  # what a check asks of the connection: it raises when the database is not ready
        wanted = {"search_path": search_path(settings)} if schema else {}
        self._arguments = connect_arguments("isnad-graphql readyz", wanted, settings.pooled)
        self._check: asyncio.Task[bool] | None = None
        self._kept: asyncpg.Connection | None = None

    async def ready(self, keep: bool = False) -> bool:
        if self._check is None or self._check.done():
            self._check = asyncio.create_task(self._ask(keep))
        return await asyncio.shield(self._check)

    def release(self) -> None:
        """Close the connection a check kept, if any."""
        if self._kept is not None:
            self._kept.terminate()
            self._kept = None

    async def _ask(self, keep: bool) -> bool:
        connection, self._kept = self._kept, None
        try:
            async with asyncio.timeout(self._timeout_s):
                if connection is None or connection.is_closed():
                    connection = await asyncpg.connect(self._url, timeout=self._timeout_s, **self._arguments)
                await self._probe(connection)
        except Exception:  # whatever it is, the database is not ready
            keep = False
            return False
        finally:
            if connection is not None and not keep:
                connection.terminate()  # at once: a polite close would wait on a stalled link
            self._kept = connection if keep else None
        return True
