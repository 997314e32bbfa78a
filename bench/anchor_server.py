"""The search anchor served as bench/load.py serves the floor: Starlette + uvicorn + orjson, one process, the
searches answered by tantivy (bench/search_anchor.py) from indexes already built.

    python -m bench.anchor_server --index FOLDER --documents '{"<sha256 id>": "search_hadith", ...}' [--port 8091]

POST /graphql takes the API's own bodies, `{"documentId": "sha256:<id>", "variables": {"query": ...}}`, so
that wrk sends the anchor exactly what it sends the API; the document's id says which search, the
variables' `query` what to search (the default limit, 5). It answers `{"data": {"<tool>": {"results":
[{"id", "reference", "tier", "score"}, ...]}}}`. Each search runs in Starlette's thread pool: tantivy
releases the interpreter's lock while it searches, so 32 connections keep up to 32 searches in flight on
the machine's CPUs, as the API keeps 32 statements in flight in PostgreSQL's backends.
"""

import argparse
import os
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bench.search_anchor import Anchor, Hit

SETTINGS_VARIABLE = "ISNAD_ANCHOR"  # what main() gives the worker's app_from_environment(), as JSON
PREFIX = "sha256:"


def create_app(folder: Path, documents: dict[str, str]) -> Starlette:
    anchor = Anchor(folder)
    searches = {"search_hadith": anchor.search_hadith, "search_narrator": anchor.search_narrator}

    async def search(request: Request) -> Response:
        try:
            body = orjson.loads(await request.body())
            tool = documents[body["documentId"].removeprefix(PREFIX)]
            query = str(body["variables"]["query"])
        except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
            return Response(b"send a search's documentId and its query", status_code=400, media_type="text/plain")
        hits: list[Hit] = await run_in_threadpool(searches[tool], query)
        answer = {"data": {tool: {"results": [asdict(hit) for hit in hits]}}}
        return Response(orjson.dumps(answer), media_type="application/json")

    async def healthz(request: Request) -> Response:
        return Response(b'{"status":"alive"}', media_type="application/json")

    return Starlette(routes=[Route("/graphql", search, methods=["POST"]), Route("/healthz", healthz)])


def app_from_environment() -> Starlette:
    """The factory uvicorn calls: the settings main() put in the environment."""
    folder, documents = orjson.loads(os.environ[SETTINGS_VARIABLE])
    return create_app(Path(folder), documents)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True, help="the folder bench.search_anchor.build wrote")
    parser.add_argument("--documents", required=True, help="JSON: each persisted document's id -> its search")
    parser.add_argument("--port", type=int, default=8091)
    args = parser.parse_args(argv)
    os.environ[SETTINGS_VARIABLE] = orjson.dumps([str(args.index), orjson.loads(args.documents)]).decode()
    # the floor's uvicorn settings (bench/floor.py): default loop and HTTP, one process
    uvicorn.run(
        "bench.anchor_server:app_from_environment", factory=True, host="127.0.0.1", port=args.port, log_level="warning"
    )


if __name__ == "__main__":
    main()
