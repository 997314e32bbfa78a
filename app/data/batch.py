"""The shapes every batched lookup shares: keys from an array parameter, results in key order, bounded lists,
children as JSON.

Lookup statements are built once, at import, with named parameters: `:keys` (an array of keys),
`:most` (rows kept per key); they run through `RequestDatabase.fetch(Bound(statement, params))`.
"""

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    FromClause,
    Integer,
    Label,
    Select,
    Subquery,
    bindparam,
    func,
    literal_column,
    select,
)
from sqlalchemy.dialects.postgresql import ARRAY, aggregate_order_by
from sqlalchemy.sql.elements import KeyedColumnElement
from sqlalchemy.types import TypeEngine

from app.data.records import Page
from app.database import Bound, RequestDatabase, Row

RANK = "rank_in_key"
KEYS = "keys"
MOST = "most"
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def any_key(column: ColumnElement[Any], name: str = KEYS) -> ColumnElement[bool]:
    """`column` among the keys of the array parameter `:name`: one statement whatever the number of keys.

    Written `IN (SELECT unnest(:name) LIMIT cardinality(:name))`: the LIMIT keeps every key, and lets
    PostgreSQL's generic plan expect one key rather than its default ten, so that a prepared statement
    keeps that plan instead of planning again at each execution (which cost more than running it)."""
    keys = array_param(name, column.type)
    return column.in_(select(func.unnest(keys)).limit(func.cardinality(keys)).scalar_subquery())


def array_param(name: str, item: TypeEngine[Any]) -> BindParameter[Any]:
    """`:name`, an array of `item` values."""
    return bindparam(name, type_=ARRAY(item))


def json_rows(
    source: FromClause,
    columns: Sequence[str],
    *,
    order: Sequence[ColumnElement[Any]],
    label: str,
    where: ColumnElement[bool] | None = None,
) -> Label[Any]:
    """A correlated subquery: the rows of `source` (that match `where`) as one JSON array of `[column, ...]`
    arrays in `order` (`[]` when none), so that a parent row brings its children in the same statement."""
    row = func.json_build_array(*(source.c[name] for name in columns))
    rows = func.coalesce(func.json_agg(aggregate_order_by(row, *order)), literal_column("'[]'::json"))
    found = select(rows).select_from(source)
    return (found if where is None else found.where(where)).scalar_subquery().label(label)


def ranked_rows(statement: Select[Any], order: Sequence[ColumnElement[Any]]) -> Subquery:
    """A correlated `statement`, each row with its rank in `order`."""
    return statement.add_columns(func.row_number().over(order_by=order).label(RANK)).subquery()


def json_first(
    statement: Select[Any], columns: Sequence[str], *, order: Sequence[ColumnElement[Any]], label: str, most: str = MOST
) -> Label[Any]:
    """The first `:most` rows of a correlated `statement` in `order`, as `json_rows`."""
    rows = ranked_rows(statement, order)
    kept = rows.c[RANK] <= bindparam(most, type_=Integer)
    return json_rows(rows, columns, order=[rows.c[RANK]], where=kept, label=label)


def ranked(
    statement: Select[Any], partition: Sequence[ColumnElement[Any]], order: Sequence[ColumnElement[Any]]
) -> Select[Any]:
    """Keep at most `:most` rows per `partition` value, in `order`, with their rank."""
    rank = func.row_number().over(partition_by=partition, order_by=order).label(RANK)
    inner = statement.add_columns(rank).subquery()
    return select(inner).where(inner.c[RANK] <= bindparam(MOST, type_=Integer)).order_by(inner.c[RANK])


def most_of(limits: Iterable[int]) -> int:
    """`:most` for pages of these limits: one row more than the largest, to tell a truncated page."""
    return max(limits) + 1


def deduplicated(values: Iterable[K]) -> list[K]:
    return list(dict.fromkeys(values))


def in_key_order(keys: Sequence[K], found: dict[K, V]) -> list[V | None]:
    return [found.get(key) for key in keys]


def grouped(values: Iterable[V], key: Callable[[V], K]) -> dict[K, list[V]]:
    groups: dict[K, list[V]] = defaultdict(list)
    for value in values:
        groups[key(value)].append(value)
    return groups


def page_of(values: Sequence[V], limit: int) -> Page[V]:
    """The first `limit` values; truncated when the query found one more."""
    return Page(tuple(values[:limit]), len(values) > limit)


@dataclass(frozen=True)
class PageQuery(Generic[V]):
    """For each (key, limit): the first `limit` rows of a statement whose key matches, in an order."""

    statement: Select[Any]
    key: str
    to_record: Callable[[Row], V]

    @classmethod
    def of(
        cls,
        statement: Select[Any],
        *,
        key: KeyedColumnElement[Any],
        order: Sequence[ColumnElement[Any]],
        to_record: Callable[[Row], V],
    ) -> "PageQuery[V]":
        """`statement` where `key = any(:keys)`, ranked by `order` within each key."""
        return cls(ranked(statement.where(any_key(key)), [key], order), key.key, to_record)

    async def fetch(self, db: RequestDatabase, keys: Sequence[tuple[Any, int]]) -> list[Page[V]]:
        params = {KEYS: deduplicated(k for k, _ in keys), MOST: most_of(limit for _, limit in keys)}
        rows = await db.fetch(Bound(self.statement, params))
        groups = grouped(rows, lambda row: row[self.key])
        return [page_of([self.to_record(row) for row in groups.get(k, [])], limit) for k, limit in keys]
