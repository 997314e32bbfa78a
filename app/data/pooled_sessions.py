"""Behind a transaction pooler, the API's sessions carry the settings it needs only if the role it connects
as has them (app/data/sessions.py). `check_pooled_sessions` reads them once, before the API serves, and
refuses to start when one differs, or when it cannot read them: a session that is not READ ONLY, or that has
no statement timeout, is never served through.

PostgreSQL shows a setting in its own form ('5s' for a statement_timeout of 5000), so each needed value is
shown by the server too: `set_config(..., true)` in a statement of its own, whose effect ends with it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import ARRAY, Text, bindparam, func, select, true

from app.data.database import Bound, RequestDatabase, Row, create_engine
from app.data.sessions import session_settings
from app.errors import UpstreamUnavailable
from app.settings import Settings

_NAMES = func.unnest(bindparam("names", type_=ARRAY(Text))).table_valued("name").render_derived()
SHOWN = select(
    func.current_user().label("role"),
    func.current_database().label("database"),
    _NAMES.c.name,
    func.current_setting(_NAMES.c.name, true()).label("shown"),
)
_WANTED = (
    func.unnest(bindparam("names", type_=ARRAY(Text)), bindparam("values", type_=ARRAY(Text)))
    .table_valued("name", "value")
    .render_derived()
)
AS_SHOWN = select(_WANTED.c.name, func.set_config(_WANTED.c.name, _WANTED.c.value, true()).label("shown"))


class PooledSessionsError(SystemExit):
    """The pooled sessions lack settings the API needs: it does not start."""


@dataclass(frozen=True)
class Lacking:
    """A setting the pooled sessions show otherwise than the API needs."""

    name: str
    shown: str | None  # None: not set at all (a custom setting such as pg_trgm's)
    needed: str  # as the server shows it
    value: str  # as the API would set it

    def line(self) -> str:
        return f"  {self.name} is {self.shown or 'unset'}, needs {self.needed}"


async def check_pooled_sessions(settings: Settings, url: str) -> None:
    """Nothing to check when the API reaches PostgreSQL itself; else raises `PooledSessionsError`, whose
    message names each setting that differs and how to set it on the role."""
    if not settings.pooled:
        return
    wanted = session_settings(settings)
    shown, needed = await _read(settings, url, wanted)
    lacking = [
        Lacking(row["name"], row["shown"], needed[row["name"]], wanted[row["name"]])
        for row in shown
        if row["shown"] != needed[row["name"]]
    ]
    if lacking:
        raise PooledSessionsError(_lacking(shown[0]["role"], shown[0]["database"], lacking))


async def _read(settings: Settings, url: str, wanted: Mapping[str, str]) -> tuple[Sequence[Row], dict[str, str]]:
    """The settings as a pooled session shows them (with its role and database), and as it shows `wanted`."""
    engine = create_engine(settings, url)
    db = RequestDatabase(engine)
    try:
        shown = await db.fetch(Bound(SHOWN, {"names": list(wanted)}))
        as_shown = await db.fetch(Bound(AS_SHOWN, {"names": list(wanted), "values": list(wanted.values())}))
    except UpstreamUnavailable:
        raise PooledSessionsError(_refusal("the database did not answer: the sessions' settings are unknown")) from None
    finally:
        await db.close()
        await engine.dispose()
    return shown, {row["name"]: row["shown"] for row in as_shown}


def _refusal(reason: str) -> str:
    return f"ISNAD_DATABASE_POOLER=transaction: {reason}; the API does not start."


def _lacking(role: str, database: str, lacking: list[Lacking]) -> str:
    return "\n".join(
        [
            _refusal(f'the sessions of role "{role}" in database "{database}" lack settings the API needs'),
            *(setting.line() for setting in lacking),
            "Set each on the role in that database (docs/production.md, PgBouncer in transaction mode), then start"
            " again:",
            *(f"  {assignment}" for assignment in assignments({s.name: s.value for s in lacking})),
        ]
    )


def assignments(wanted: Mapping[str, str]) -> list[str]:
    """The settings as the SET clause of a role's settings in a database takes them: `name = value`."""
    return [f"{name} = {_value(name, value)}" for name, value in wanted.items()]


def _value(name: str, value: str) -> str:
    """A value as SQL: a list of schemas as it is (quoted, it would be one schema's name), anything else quoted."""
    if name == "search_path":
        return value
    return "'" + value.replace("'", "''") + "'"
