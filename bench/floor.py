"""The floor of bench/load.py: bare Starlette + asyncpg + orjson, no GraphQL, for the anchor request.

    python -m bench.floor --database-url URL [--port 8090] [--schema isnad] [--pool 32] [--workers 1]

POST /graphql with `{"id": <hadith_id>}` answers exactly what the API answers to the web document

    { get_hadith(hadith_id: $id) { hadith_id canonical_reference collection { code name }
        chains(limit: 20) { chains { chain_number nodes { position narrator_id narrator { canonical_display } } } } } }

that is `{"data": {"get_hadith": {...}}}` (null for an unknown id), from ONE statement: the minimal
equivalent of the API's SQL (a flat join of the hadith, its collection, its first 20 chains by
chain_number, their nodes by position and each node's narrator), assembled in Python. One pooled
connection per request, no transaction (one statement), no reset query on release. With `--workers N`,
N processes, each with a pool of `--pool` connections.
"""

import argparse
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

CHAIN_LIMIT = 20  # the web document's chains(limit: 20)
SETTINGS_VARIABLE = "ISNAD_FLOOR"  # what main() gives each worker's app_from_environment(), as JSON

SQL = """
SELECT h.hadith_id, h.canonical_reference, co.code, co.name_en,
       c.chain_number, n.position, n.narrator_id, r.canonical_display
  FROM hadith h
  JOIN collection co ON co.collection_id = h.collection_id
  LEFT JOIN LATERAL (
        SELECT chain_id, chain_number FROM chain
         WHERE chain.hadith_id = h.hadith_id ORDER BY chain_number LIMIT $2
       ) c ON true
  LEFT JOIN chain_node n ON n.chain_id = c.chain_id
  LEFT JOIN narrator r ON r.narrator_id = n.narrator_id
 WHERE h.hadith_id = $1
 ORDER BY c.chain_number, n.position
"""


def tree(rows: Sequence[asyncpg.Record]) -> dict[str, Any] | None:
    """The web document's `get_hadith` object from the flat rows (one per node), or None: no hadith."""
    if not rows:
        return None
    first = rows[0]
    chains: list[dict[str, Any]] = []
    nodes: list[dict[str, Any]] = []
    for row in rows:
        number = row["chain_number"]
        if number is None:  # a hadith without chains: one row, no chain
            break
        if not chains or chains[-1]["chain_number"] != number:
            nodes = []
            chains.append({"chain_number": number, "nodes": nodes})
        if row["position"] is not None:  # a chain without nodes: one row, no node
            narrator_id = row["narrator_id"]
            narrator = None if narrator_id is None else {"canonical_display": row["canonical_display"]}
            nodes.append({"position": row["position"], "narrator_id": narrator_id, "narrator": narrator})
    return {
        "hadith_id": first["hadith_id"],
        "canonical_reference": first["canonical_reference"],
        "collection": {"code": first["code"], "name": first["name_en"]},
        "chains": {"chains": chains},
    }


async def _no_reset(connection: object) -> None:
    """No reset query when a connection goes back to the pool: one statement, no transaction, no state."""


def create_app(url: str, schema: str, pool_size: int) -> Starlette:
    pool: list[asyncpg.Pool] = []

    async def hadith(request: Request) -> Response:
        try:
            hadith_id = int(orjson.loads(await request.body())["id"])
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            return Response(b'send {"id": <hadith_id>}', status_code=400, media_type="text/plain")
        async with pool[0].acquire() as connection:
            rows = await connection.fetch(SQL, hadith_id, CHAIN_LIMIT)
        return Response(orjson.dumps({"data": {"get_hadith": tree(rows)}}), media_type="application/json")

    async def healthz(request: Request) -> Response:
        return Response(b'{"status":"alive"}', media_type="application/json")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        settings = {"search_path": f"{schema}, public", "default_transaction_read_only": "on"}
        pool.append(
            await asyncpg.create_pool(
                url, min_size=pool_size, max_size=pool_size, server_settings=settings, reset=_no_reset
            )
        )
        try:
            yield
        finally:
            await pool[0].close()

    return Starlette(
        routes=[Route("/graphql", hadith, methods=["POST"]), Route("/healthz", healthz)], lifespan=lifespan
    )


def app_from_environment() -> Starlette:
    """The factory uvicorn's workers call: the settings main() put in the environment."""
    url, schema, pool_size = orjson.loads(os.environ[SETTINGS_VARIABLE])
    return create_app(url, schema, pool_size)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--schema", default="isnad")
    parser.add_argument("--pool", type=int, default=32, help="asyncpg pool size per process (default 32, as the API's)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    os.environ[SETTINGS_VARIABLE] = orjson.dumps([args.database_url, args.schema, args.pool]).decode()
    # uvicorn's defaults (uvloop, httptools); `isnad-graphql serve` runs uvloop too, with a listener of its own
    # (app/http/accepting_loop.py). The floor served as much on asyncio's loop (docs/performance.md, "The lookups
    # since issue 6, measured against its commit")
    uvicorn.run(
        "bench.floor:app_from_environment",
        factory=True,
        host="127.0.0.1",
        port=args.port,
        workers=args.workers,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
