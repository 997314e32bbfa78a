"""Does the same request get the same answer? Every tool, on the full database, under concurrent load, from
processes of their own.

    python -m bench.repeatability [--rounds 3] [--concurrency 24] [--tool-args 200]

Uses ISNAD_DATABASE_URL, else the embedded PostgreSQL. Sends each tool's argument sets of bench/load.py
(bench/api_args.py, the same seed) as persisted documents to the app in process, `rounds` times, each
round in a process of its own with its own string hashes (PYTHONHASHSEED: two workers, or a server restarted,
order a set's items otherwise), in another order with `concurrency` requests in flight, and prints, per tool, how
many argument sets were answered with different bytes in different rounds (the cost extension left aside). Exits 1
when any was: an answer that depends on what else the database is doing, or on which process answers, is a defect,
not noise.
"""

import argparse
import asyncio
import hashlib
import os
import random
import subprocess
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


async def one_round(options: argparse.Namespace, number: int) -> dict[str, list[tuple[Variables, str]]]:
    """Round `number`: each tool's argument sets, each with the digest of its answer, in the sets' order."""
    settings = load_settings()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        arguments = await draw(url, settings, options.tool_args)
        app = create_app(settings, url)
        try:
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://repeatability", timeout=60
            ) as client:
                caller = Caller(client, options.concurrency)
                answered = {}
                for tool, sets in arguments.items():
                    order = list(range(len(sets)))
                    random.Random(SEED + number).shuffle(order)  # noqa: S311 (a reproducible order, not cryptography)
                    answers = await caller.round(tool, sets, order)
                    answered[tool] = [(sets[i], hashlib.sha256(answers[i]).hexdigest()) for i in range(len(sets))]
                return answered
        finally:
            await app.state.engine.dispose()


def in_own_process(argv: Sequence[str], url: str, number: int) -> dict[str, list[tuple[Variables, str]]]:
    """`one_round(number)` in a new process on the database of `url`, its string hashes seeded with `number`."""
    command = [sys.executable, "-m", "bench.repeatability", *argv, "--round", str(number)]
    environment = {**os.environ, "ISNAD_DATABASE_URL": url, "PYTHONHASHSEED": str(number)}
    done = subprocess.run(  # noqa: S603 - our own interpreter and module
        command, env=environment, stdout=subprocess.PIPE, check=True
    )
    answered: dict[str, list[tuple[Variables, str]]] = orjson.loads(done.stdout)
    return answered


def differing(rounds: Sequence[Mapping[str, list[tuple[Variables, str]]]]) -> dict[str, tuple[int, list[Variables]]]:
    """Per tool: how many argument sets, and those answered differently in different rounds."""
    found = {}
    for tool, first in rounds[0].items():
        digests = [{answered[tool][i][1] for answered in rounds} for i in range(len(first))]
        found[tool] = (len(first), [first[i][0] for i, seen in enumerate(digests) if len(seen) > 1])
    return found


def table(found: Mapping[str, tuple[int, Iterable[Any]]], rounds: int) -> Table:
    out = Table(title=f"the same request, {rounds} rounds under concurrent load, each in a process of its own")
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
    parser.add_argument("--round", type=int, help=argparse.SUPPRESS)  # in a process of its own: one round
    options = parser.parse_args(argv)
    if options.round is not None:
        sys.stdout.buffer.write(orjson.dumps(asyncio.run(one_round(options, options.round))))
        return
    settings = load_settings()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:  # started once, for every round
        arguments = sys.argv[1:] if argv is None else argv
        found = differing([in_own_process(arguments, url, n) for n in range(1, options.rounds + 1)])
    Console(width=None if sys.stdout.isatty() else 200).print(table(found, options.rounds))
    if any(different for _, different in found.values()):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
