"""Does the same request get the same answer? Every tool, on the full database, under concurrent load.

    python -m bench.repeatability [--rounds 3] [--concurrency 24] [--tool-args 200]

Uses ISNAD_DATABASE_URL, else the embedded PostgreSQL. Sends each tool's argument sets of bench/load.py
(bench/api_args.py, the same seed) as persisted documents to the app in process, `rounds` times, each
round in another order with `concurrency` requests in flight, and prints, per tool, how many argument
sets were answered with different bytes in different rounds (the cost extension left aside). Exits 1
when any was: an answer that depends on what else the database is doing is a defect, not noise.
"""

import argparse
import asyncio
import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import asyncpg
import httpx
import orjson
from rich.console import Console
from rich.table import Table

from app.asgi import create_app
from app.data.embedded import database_url
from app.settings import Settings, load_settings
from bench.api_args import Variables, pick_arguments
from bench.load import SEED, persisted_ids


async def draw(url: str, settings: Settings, count: int) -> dict[str, list[Variables]]:
    connection = await asyncpg.connect(url, server_settings={"search_path": f"{settings.db_schema}, public"})
    try:
        return await pick_arguments(connection, SEED, count)
    finally:
        await connection.close()


class Caller:
    """Persisted documents sent to the app in process, `concurrency` at a time."""

    def __init__(self, client: httpx.AsyncClient, concurrency: int) -> None:
        self.client = client
        self.ids = persisted_ids()
        self.slots = asyncio.Semaphore(concurrency)

    async def answer(self, tool: str, variables: Variables) -> bytes:
        payload = {"documentId": f"sha256:{self.ids[tool]}", "variables": variables}
        async with self.slots:
            body = (await self.client.post("/graphql", json=payload)).json()
        body.pop("extensions", None)
        return orjson.dumps(body)

    async def round(self, tool: str, sets: Sequence[Variables], order: Sequence[int]) -> dict[int, bytes]:
        answers = await asyncio.gather(*(self.answer(tool, sets[i]) for i in order))
        return dict(zip(order, answers, strict=True))


async def differing(caller: Caller, tool: str, sets: Sequence[Variables], rounds: int) -> list[Variables]:
    """The argument sets answered differently in different rounds."""
    seen: list[set[bytes]] = [set() for _ in sets]
    for number in range(rounds):
        order = list(range(len(sets)))
        random.Random(SEED + number).shuffle(order)  # noqa: S311 (a reproducible order, not cryptography)
        for i, answer in (await caller.round(tool, sets, order)).items():
            seen[i].add(answer)
    return [sets[i] for i, answers in enumerate(seen) if len(answers) > 1]


async def run(options: argparse.Namespace) -> dict[str, tuple[int, list[Variables]]]:
    settings = load_settings()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        arguments = await draw(url, settings, options.tool_args)
        app = create_app(settings, url)
        try:
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://repeatability", timeout=60
            ) as client:
                caller = Caller(client, options.concurrency)
                return {
                    tool: (len(sets), await differing(caller, tool, sets, options.rounds))
                    for tool, sets in arguments.items()
                }
        finally:
            await app.state.engine.dispose()


def table(found: Mapping[str, tuple[int, Iterable[Any]]], rounds: int) -> Table:
    out = Table(title=f"the same request, {rounds} rounds under concurrent load")
    for column in ("tool", "argument sets", "answered differently", "first of them"):
        out.add_column(column, justify="right" if column in ("argument sets", "answered differently") else "left")
    for tool, (count, different) in found.items():
        listed = list(different)
        out.add_row(tool, str(count), str(len(listed)), orjson.dumps(listed[0]).decode() if listed else "")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per tool (default 3)")
    parser.add_argument("--concurrency", type=int, default=24, help="requests in flight (default 24)")
    parser.add_argument("--tool-args", type=int, default=200, help="argument sets per tool (default 200)")
    options = parser.parse_args(argv)
    found = asyncio.run(run(options))
    Console(width=None if sys.stdout.isatty() else 200).print(table(found, options.rounds))
    if any(different for _, different in found.values()):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
