"""Lookups of takhrij: a hadith's parallels (the hadith whose matn is the same report), with their matns, and for
the isnad tree the chains of the hadith and of those parallels, one statement per batch of hadith."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Integer, Label, Select, any_, bindparam, cast, func, or_, select
from sqlalchemy.dialects.postgresql import ARRAY

from app.data import tables as t
from app.data.batch import KEYS, MOST, any_key, deduplicated, json_rows, most_of, page_of
from app.data.database import Bound, RequestDatabase, Row
from app.data.hadith import CHAIN_COLUMNS, BoundedKey, chain_of, checks_of_chain, nodes_of_chain
from app.data.records import MatnRecord, ParallelRecord, TakhrijRecord

PARALLEL_COLUMNS = ["parallel_rank", "parallel_hadith_id", "canonical_reference", "similarity"]
MATN_COLUMNS = ["matn_ar_normalized", "source_id", "source_key"]


def _matn_columns() -> list[Any]:
    return [t.hadith_matn.c[name] for name in MATN_COLUMNS]


def _listed() -> Any:
    """The hadith's parallels within the first `:most`."""
    p = t.hadith_parallel
    return (p.c.hadith_id == t.hadith.c.hadith_id) & (p.c.parallel_rank <= bindparam(MOST, type_=Integer))


def _parallels_of_hadith() -> Label[Any]:
    p, m, other = t.hadith_parallel, t.hadith_matn, t.hadith.alias("parallel")
    listed = (
        select(p.c.parallel_rank, p.c.parallel_hadith_id, other.c.canonical_reference, p.c.similarity, *_matn_columns())
        .select_from(
            p.join(other, other.c.hadith_id == p.c.parallel_hadith_id).outerjoin(
                m, m.c.hadith_id == p.c.parallel_hadith_id
            )
        )
        .where(_listed())
        .correlate(t.hadith)
        .subquery()
    )
    return json_rows(listed, PARALLEL_COLUMNS + MATN_COLUMNS, order=[listed.c.parallel_rank], label="parallels")


def _chains_of_tree() -> Label[Any]:
    """The chains of the hadith and of its listed parallels, each with its nodes and failed checks. The parallels
    are compared as an array (`= ANY`), which the index on chain (hadith_id, chain_number) serves: an `IN`
    subquery here is read as a filter over every chain."""
    c, p = t.chain, t.hadith_parallel
    members = select(func.array_agg(p.c.parallel_hadith_id)).where(_listed()).correlate(t.hadith).scalar_subquery()
    chains = (
        select(c, nodes_of_chain(), checks_of_chain())
        .where(or_(c.c.hadith_id == t.hadith.c.hadith_id, c.c.hadith_id == any_(cast(members, ARRAY(Integer)))))
        .correlate(t.hadith)
        .subquery()
    )
    return json_rows(chains, CHAIN_COLUMNS, order=[chains.c.hadith_id, chains.c.chain_number], label="chains")


def _takhrij(with_chains: bool) -> Select[Any]:
    h, m = t.hadith, t.hadith_matn
    columns = [h.c.hadith_id, h.c.canonical_reference, *_matn_columns(), _parallels_of_hadith()]
    statement = select(*columns, *([_chains_of_tree()] if with_chains else []))
    return statement.select_from(h.outerjoin(m, m.c.hadith_id == h.c.hadith_id)).where(any_key(h.c.hadith_id))


PARALLELS_BY_HADITH_ID = _takhrij(with_chains=False)
ISNAD_TREE_BY_HADITH_ID = _takhrij(with_chains=True)


def _matn(text: str | None, source_id: str | None, source_key: str | None) -> MatnRecord | None:
    return None if text is None or source_id is None or source_key is None else MatnRecord(text, source_id, source_key)


def _parallel(entry: list[Any]) -> ParallelRecord:
    rank, hadith_id, reference, similarity, *matn = entry
    return ParallelRecord(rank, hadith_id, reference, similarity, _matn(*matn))


def _record(row: Row, limit: int, with_chains: bool) -> TakhrijRecord:
    parallels = page_of([_parallel(entry) for entry in row["parallels"]], limit)
    kept = {row["hadith_id"], *(parallel.hadith_id for parallel in parallels.items)}
    listed = row["chains"] if with_chains else []
    chains = tuple(chain for chain in map(chain_of, listed) if chain.hadith_id in kept)
    matn = _matn(row["matn_ar_normalized"], row["source_id"], row["source_key"])
    return TakhrijRecord(row["hadith_id"], row["canonical_reference"], matn, parallels, chains)


async def _lookup(db: RequestDatabase, keys: Sequence[BoundedKey], *, with_chains: bool) -> list[TakhrijRecord | None]:
    statement = ISNAD_TREE_BY_HADITH_ID if with_chains else PARALLELS_BY_HADITH_ID
    params = {KEYS: deduplicated(h for h, _ in keys), MOST: most_of(limit for _, limit in keys)}
    rows = {row["hadith_id"]: row for row in await db.fetch(Bound(statement, params))}
    return [None if (row := rows.get(h)) is None else _record(row, limit, with_chains) for h, limit in keys]


async def parallels_by_hadith_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[TakhrijRecord | None]:
    """For each (hadith, limit): its matn and first `limit` parallels; None: no such hadith."""
    return await _lookup(db, keys, with_chains=False)


async def isnad_tree_by_hadith_id(db: RequestDatabase, keys: Sequence[BoundedKey]) -> list[TakhrijRecord | None]:
    """For each (hadith, limit): as parallels_by_hadith_id, with the chains of the hadith and of those parallels."""
    return await _lookup(db, keys, with_chains=True)
