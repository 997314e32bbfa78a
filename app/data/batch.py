"""The shapes every batched lookup shares: `key = any(:keys)`, results in key order, bounded lists."""

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, RowMapping, Select, any_, bindparam, func, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.sql.elements import KeyedColumnElement

from app.data.records import Page
from app.database import RequestDatabase

RANK = "rank_in_key"
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def any_of(column: ColumnElement[Any], keys: Iterable[Any]) -> ColumnElement[bool]:
    """`column = any(:keys)`: one statement shape whatever the number of keys."""
    return column == any_(bindparam(None, list(keys), type_=ARRAY(column.type)))


def ranked(
    statement: Select[Any], partition: Sequence[ColumnElement[Any]], order: Sequence[ColumnElement[Any]], most: int
) -> Select[Any]:
    """Keep at most `most` rows per `partition` value, in `order`, with their rank."""
    rank = func.row_number().over(partition_by=partition, order_by=order).label(RANK)
    inner = statement.add_columns(rank).subquery()
    return select(inner).where(inner.c[RANK] <= most).order_by(inner.c[RANK])


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


async def fetch_pages(
    db: RequestDatabase,
    statement: Select[Any],
    *,
    key: KeyedColumnElement[Any],
    order: Sequence[ColumnElement[Any]],
    keys: Sequence[tuple[Any, int]],
    to_record: Callable[[RowMapping], V],
) -> list[Page[V]]:
    """For each (key, limit): the first `limit` rows of `statement` whose `key` matches, in `order`."""
    most = max(limit for _, limit in keys) + 1
    rows = await db.fetch(ranked(statement.where(any_of(key, {k for k, _ in keys})), [key], order, most))
    groups = grouped(rows, lambda row: row[key.key])
    return [page_of([to_record(row) for row in groups.get(k, [])], limit) for k, limit in keys]
