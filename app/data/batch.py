"""The shapes every batched lookup shares: keys from an array parameter, results in key order, bounded lists,
children as JSON.

Lookup statements are built once, at import, with named parameters: `:keys` (an array of keys),
`:most` (rows kept per key); they run through `RequestDatabase.fetch(Bound(statement, params))`.
"""

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    FromClause,
    Integer,
    Label,
    Select,
    Subquery,
    bindparam,
    column,
    func,
    literal_column,
    select,
)
from sqlalchemy.dialects.postgresql import ARRAY, aggregate_order_by
from sqlalchemy.types import TypeEngine

from app.data.records import Page

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


def asked_keys(**columns: TypeEngine[Any]) -> Subquery:
    """The keys asked, one row each: `unnest` of one array parameter per column, named as the column.

    Its LIMIT, the number of keys, keeps every row and lets the generic plan expect one key (as in
    `any_key`). The per-key subqueries see their key as a parameter in either plan, so the generic
    plan is as good."""
    arrays = [array_param(name, item) for name, item in columns.items()]
    keys = func.unnest(*arrays).table_valued(*(column(name, item) for name, item in columns.items()))
    return select(keys.render_derived()).limit(func.cardinality(arrays[0])).subquery()


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
