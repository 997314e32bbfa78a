"""Load test with wrk on the full database: the eight tools and the anchor request
(../shared/PERFORMANCE-ANCHORS.md) of the API, beside the floor and PostGraphile 4.

    python -m bench.load [--seconds 15] [--rounds 2] [--threads 2] [--connections 32] [--warmup 2]
                         [--ids 2000] [--check-ids 100] [--tool-args 200] [--pg4-dir /tmp/pg4]
                         [--workers 1] [--no-postgraphile] [--smoke] [--only WORD ...] [--search-anchor]

The anchor request: a hadith by id with its collection, its chains by chain_number, their nodes by
position and each node's narrator. One command:
1. starts (or joins) the embedded PostgreSQL, unless ISNAD_DATABASE_URL names a server;
2. draws its arguments with bench/api_args.py (seed 20261130): `--ids` random hadith that have chains,
   and `--tool-args` argument sets per tool (those of bench/api_bench.py for its default 200);
3. starts three servers, `--workers` processes each, each server with the API's pool size in all (split
   between its processes): the floor (bench/floor.py: Starlette + asyncpg pool + orjson, one SQL
   statement), PostGraphile 4 from `--pg4-dir` with the equivalent query (POSTGRAPHILE_QUERY;
   `--cluster-workers` for more than one), and the API (`isnad-graphql serve`), asked with the free web
   document WEB_DOCUMENT and with each of the eight persisted documents by `documentId`: `get_hadith`
   and `get_hadith_chains` (limit 20) on the hadith ids, the six others on their argument sets;
4. checks, for `--check-ids` of the hadith ids, that every configuration that has an equivalent of the
   anchor request returns the floor's data (each answer normalized to one structure, compared on the
   parts it carries), and that every body of the six other tools is answered 200 without `errors`;
5. runs wrk (`--threads`, `--connections`, `--seconds`) on each configuration in turn, `--rounds`
   times (A B C .. A B C ..), each run after an untimed `--warmup`; reads each server's RSS after each
   run; prints one table: medians of the rounds, the SQL statements per request that the API reports
   (`server-timing`), RSS, ratios to the floor and to PostGraphile of the same run.
`--search-anchor` adds the search anchor (bench/load_searches.py): every search row's bodies also sent to
tantivy over the same texts, indexes built once from the database in a temporary folder.
`--smoke` (for CI) makes it short: 3 s per run after 1 s of warm-up, 1 round, 200 ids, 20 checked,
50 argument sets per tool; without wrk it stops after the checks. A slow server never fails it: it
exits non-zero only when a server does not start or answers wrong data.
Every server is stopped at the end, whatever happens. wrk, the servers and PostgreSQL share the
machine's CPUs (2 on the machines of the anchors). A script that prints figures, never a test.
"""

import argparse
import asyncio
import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import orjson
from rich.console import Console

from app.data.embedded import database_url
from app.settings import Settings, load_settings
from bench.api_args import Variables, pick_arguments, pick_hadith_with_chains
from bench.cpu_shares import CpuClock
from bench.load_answers import (
    Configuration,
    Normalize,
    check_answers,
    check_same,
    get_hadith,
    get_hadith_chains,
    postgraphile,
    web,
)
from bench.load_report import machine, table
from bench.load_searches import anchor_twins, search_kinds
from bench.servers import (
    ROOT,
    Server,
    api_command,
    database_env,
    free_port,
    server,
    settle,
    stop,
    stop_servers_on_sigterm,
    wait_ready,
)
from bench.wrk import Load, installed, parse_wrk, run_wrk
from schema.contract import TOOLS

SEED = 20261130  # bench/api_bench.py's: its 200 get_hadith ids are the first 200 of ours
CHAIN_LIMIT = 20
TYPENAME = b'{"query":"{__typename}"}'
SMOKE = {"seconds": 3, "warmup": 1, "rounds": 1, "ids": 200, "check_ids": 20, "tool_args": 50}

WEB_DOCUMENT = (
    "query web($id: Int!) { get_hadith(hadith_id: $id) { hadith_id canonical_reference collection { code name } "
    "chains(limit: 20) { chains { chain_number nodes { position narrator_id narrator { canonical_display } } } } } }"
)
POSTGRAPHILE_QUERY = (
    "query web($id: Int!) { hadithByHadithId(hadithId: $id) { hadithId canonicalReference "
    "collectionByCollectionId { code nameEn } chainsByHadithId(orderBy: CHAIN_NUMBER_ASC, first: 20) { nodes { "
    "chainNumber chainNodesByChainId(orderBy: POSITION_ASC) { nodes { position narratorId "
    "narratorByNarratorId { canonicalDisplay } } } } } } }"
)

# -- configurations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    ids: list[int]  # hadith with chains
    arguments: dict[str, list[Variables]]  # per tool
    version: str  # PostgreSQL's


# the tools asked with the hadith ids, and what they carry of the anchor request
ON_HADITH_IDS: dict[str, tuple[Callable[[int], Variables], Normalize]] = {
    "get_hadith": (lambda h: {"hadith_id": h}, get_hadith),
    "get_hadith_chains": (lambda h: {"hadith_id": h, "limit": CHAIN_LIMIT}, get_hadith_chains),
}


def persisted_ids() -> dict[str, str]:
    """The persisted documents' ids by tool name (persisted/manifest.json)."""
    manifest = json.loads((ROOT / "persisted" / "manifest.json").read_text(encoding="utf-8"))
    return {operation["name"]: operation["id"] for operation in manifest["operations"]}


def tool_configuration(api: Server, tool: str, document_id: str, draw: Draw) -> Configuration:
    """The tool's persisted document by `documentId`, on the hadith ids or on the tool's argument sets."""
    if tool in ON_HADITH_IDS:
        variables_of, normalize = ON_HADITH_IDS[tool]
        argument_sets, compared = [variables_of(h) for h in draw.ids], normalize
    else:
        argument_sets, compared = draw.arguments[tool], None
    sent = {"documentId": f"sha256:{document_id}"}
    bodies = [orjson.dumps({**sent, "variables": variables}) for variables in argument_sets]
    return Configuration(f"API {tool} (persisted, documentId)", "API", api, bodies, compared)


def chosen(configs: Sequence[Configuration], only: Sequence[str]) -> list[Configuration]:
    """The floor and the configurations whose name holds one of the words of `only` (all of them without)."""
    return [c for c in configs if c.role == "floor" or not only or any(word in c.name for word in only)]


def configurations(floor: Server, api: Server, peer: Server | None, draw: Draw) -> list[Configuration]:
    """The floor first (the reference of the checks), PostGraphile, the web document, the eight tools."""
    found = [
        Configuration(
            "floor: Starlette + asyncpg + orjson, 1 statement",
            "floor",
            floor,
            [orjson.dumps({"id": h}) for h in draw.ids],
            web,
        )
    ]
    if peer is not None:
        bodies = [orjson.dumps({"query": POSTGRAPHILE_QUERY, "variables": {"id": h}}) for h in draw.ids]
        found.append(Configuration("PostGraphile 4 (equivalent query)", "PostGraphile", peer, bodies, postgraphile))
    documents = [orjson.dumps({"query": WEB_DOCUMENT, "variables": {"id": h}}) for h in draw.ids]
    found.append(Configuration("API web document (free, nested)", "API", api, documents, web))
    document_ids = persisted_ids()
    return found + [tool_configuration(api, tool, document_ids[tool], draw) for tool in TOOLS]


# -- the load ---------------------------------------------------------------------------------------


def write_bodies(configs: Sequence[Configuration], folder: Path) -> dict[str, Path]:
    """One file per configuration: one POST body per line."""
    files = {}
    for number, config in enumerate(configs):
        path = folder / f"bodies-{number}.jsonl"
        path.write_bytes(b"\n".join(config.bodies) + b"\n")
        files[config.name] = path
    return files


def measure(
    configs: Sequence[Configuration], files: dict[str, Path], load: Load, rounds: int, url: str, console: Console
) -> None:
    """Each configuration in turn, `rounds` times: an untimed warm-up, then the timed run, then its RSS; each run
    once the statements of the one before have ended (`settle`)."""
    for number in range(1, rounds + 1):
        for config in configs:
            console.print(f"round {number}/{rounds}: {config.name} ...", end=" ")
            if load.warmup:
                run_wrk(config.url, files[config.name], load, load.warmup, SEED + 1000 + number)
                settle(url)
            clock = CpuClock.now()
            run = parse_wrk(run_wrk(config.url, files[config.name], load, load.seconds, SEED + number))
            after = CpuClock.now()
            run.server_cpu_s = after.server_since(clock, config.server.process.pid)
            run.postgres_cpu_s = after.postgres_since(clock)
            run.rss = config.server.rss_bytes()
            config.runs.append(run)
            settle(url)
            console.print(f"{run.rate:,.0f} req/s, p50 {run.p50_ms:.1f} ms, p99 {run.p99_ms:.1f} ms")


# -- the run ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    load: Load
    rounds: int
    ids: int
    check_ids: int
    tool_args: int
    pg4_dir: Path
    postgraphile: bool
    smoke: bool
    workers: int
    only: tuple[str, ...]
    search_anchor: bool


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=15, help="timed seconds per run (default 15)")
    parser.add_argument("--rounds", type=int, default=2, help="runs per configuration, alternating (default 2)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (default 32)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed seconds of wrk before each run (default 2)")
    parser.add_argument("--ids", type=int, default=2000, help="random hadith with chains (default 2000)")
    parser.add_argument("--check-ids", type=int, default=100, help="ids checked on every server (default 100)")
    parser.add_argument("--tool-args", type=int, default=200, help="argument sets per other tool (default 200)")
    parser.add_argument("--pg4-dir", type=Path, default=Path("/tmp/pg4"), help="npm prefix of postgraphile@4")  # noqa: S108
    parser.add_argument("--workers", type=int, default=1, help="processes per server (default 1)")
    parser.add_argument("--no-postgraphile", action="store_true", help="skip PostGraphile")
    parser.add_argument(
        "--only", nargs="+", default=(), help="the floor and the configurations whose name holds one of these words"
    )
    parser.add_argument(
        "--search-anchor", action="store_true", help="the searches also sent to tantivy over the same texts"
    )
    smoke = ", ".join(f"--{name.replace('_', '-')} {value}" for name, value in SMOKE.items())
    parser.add_argument("--smoke", action="store_true", help=f"a short run for CI; its defaults: {smoke}")
    return parser


def parse_options(argv: Sequence[str] | None = None) -> Options:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.smoke:  # the smoke defaults, under what the command line says
        parser.set_defaults(**SMOKE)
        args = parser.parse_args(argv)
    numbers = (args.seconds, args.rounds, args.threads, args.connections, args.ids, args.check_ids, args.tool_args,
               args.workers)  # fmt: skip
    if min(numbers) < 1 or args.warmup < 0 or args.connections < args.threads or args.check_ids > args.ids:
        parser.error("invalid option")
    load = Load(args.threads, args.connections, args.seconds, args.warmup)
    return Options(
        load,
        args.rounds,
        args.ids,
        args.check_ids,
        args.tool_args,
        args.pg4_dir,
        not args.no_postgraphile,
        args.smoke,
        args.workers,
        tuple(args.only),
        args.search_anchor,
    )


async def draw(url: str, settings: Settings, options: Options) -> Draw:
    """The hadith ids and the tools' argument sets (bench/api_args.py), and the server's version."""
    connection = await asyncpg.connect(url, server_settings={"search_path": f"{settings.db_schema}, public"})
    try:
        ids = await pick_hadith_with_chains(connection, SEED, options.ids)
        arguments = await pick_arguments(connection, SEED, options.tool_args)
        version = str(await connection.fetchval("SHOW server_version"))
    finally:
        await connection.close()
    return Draw(ids, arguments, version)


def pool_per_process(options: Options, settings: Settings) -> int:
    """Each server has the API's pool size in all, split between its processes."""
    return max(1, settings.pool_size // options.workers)


def postgraphile_command(options: Options, settings: Settings, url: str, port: int) -> list[str] | str:
    """The command, or why there is none. Its pool has the API's size, as the floor's."""
    binary = options.pg4_dir / "node_modules" / ".bin" / "postgraphile"
    if not binary.exists():
        return f"no {binary} (npm install --prefix {options.pg4_dir} postgraphile@4)"
    # --classic-ids: the Relay global id is `id`, not `nodeId`, which chain_node.node_id would clash with;
    # --disable-default-mutations: nothing that writes (the superuser connects)
    command = [str(binary), "-c", url, "--schema", settings.db_schema, "--port", str(port), "--disable-graphiql",
            "--disable-query-log", "--classic-ids", "--disable-default-mutations",
            "--max-pool-size", str(pool_per_process(options, settings))]  # fmt: skip
    return command + (["--cluster-workers", str(options.workers)] if options.workers > 1 else [])


def postgraphile_version(options: Options) -> str:
    package = options.pg4_dir / "node_modules" / "postgraphile" / "package.json"
    return str(json.loads(package.read_text())["version"]) if package.exists() else "?"


def start_servers(
    stack: ExitStack, options: Options, settings: Settings, url: str, console: Console
) -> tuple[Server, Server, Server | None]:
    """The floor, the API and PostGraphile (None where it cannot serve: why is printed), all ready."""
    env, pool = database_env(url), str(pool_per_process(options, settings))
    floor_port, api_port, peer_port = free_port(), free_port(), free_port()
    floor_cmd = [sys.executable, "-m", "bench.floor", "--database-url", url, "--schema", settings.db_schema,
                 "--pool", pool, "--workers", str(options.workers), "--port", str(floor_port)]  # fmt: skip
    floor = stack.enter_context(server("floor", floor_cmd, floor_port, env, "/healthz"))
    api_cmd = api_command(api_port, options.workers)
    api = stack.enter_context(server("API", api_cmd, api_port, {**env, "ISNAD_POOL_SIZE": pool}, "/readyz"))
    peer = None
    peer_cmd = postgraphile_command(options, settings, url, peer_port) if options.postgraphile else None
    if isinstance(peer_cmd, str):
        console.print(f"PostGraphile skipped: {peer_cmd}")
    elif peer_cmd is not None:
        peer = stack.enter_context(server("PostGraphile", peer_cmd, peer_port, env, "/graphql", TYPENAME))
    for target in (floor, api):
        if (failure := wait_ready(target)) is not None:
            raise SystemExit(failure)
    if peer is not None and (failure := wait_ready(peer)) is not None:
        console.print(f"[red]PostGraphile skipped: {failure}[/red]")
        stop(peer.process)
        peer = None
    return floor, api, peer


def header(options: Options, settings: Settings, version: str, load_before: tuple[float, float, float]) -> list[str]:
    load = options.load
    averages = ", ".join(f"{value:.2f}" for value in load_before)
    after = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [
        f"{machine()}; PostgreSQL {version}; PostGraphile {postgraphile_version(options)}"
        + ("; SMOKE RUN: too short for figures, read the ratios only as a sign" if options.smoke else ""),
        f"load average (1, 5, 15 min) before the run: {averages}; after: {after} (other processes on the CPUs "
        "raise it)",
        f"wrk: {load.threads} threads, {load.connections} connections, {load.seconds} s per run after {load.warmup} s "
        f"of warm-up, rounds: {options.rounds}, alternating the configurations (medians); random ids among "
        f"{options.ids} hadith with chains and {options.tool_args} argument sets per other tool (seed {SEED}); "
        f"every server is {options.workers} process(es) with {pool_per_process(options, settings)} connections each; "
        "wrk, the servers and PostgreSQL share the CPUs",
    ]


def check(configs: Sequence[Configuration], options: Options, console: Console) -> None:
    console.print(f"checking that every configuration returns the floor's data for {options.check_ids} ids ...")
    check_same(configs, options.check_ids)
    console.print(f"checking that the other tools answer their {options.tool_args} argument sets without errors ...")
    check_answers(configs)


def run(options: Options, settings: Settings, url: str, console: Console) -> None:
    drawn = asyncio.run(draw(url, settings, options))
    load_before = os.getloadavg()
    with ExitStack() as stack:
        console.print("starting the servers ...")
        floor, api, peer = start_servers(stack, options, settings, url, console)
        document_ids = persisted_ids()
        searches = search_kinds(api, document_ids, drawn.arguments)
        configs = chosen(configurations(floor, api, peer, drawn) + searches, options.only)
        if options.search_anchor:
            configs += anchor_twins(stack, url, settings.db_schema, configs, document_ids, console)
        check(configs, options, console)
        if not installed():
            console.print("wrk is not on PATH (apt-get install -y wrk): the data was checked, nothing timed")
            return
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="isnad-load-")))
        measure(configs, write_bodies(configs, folder), options.load, options.rounds, url, console)
    console.print()
    for line in header(options, settings, drawn.version, load_before):
        console.print(line)
    console.print(table(configs))
    console.print(
        "SQL/req: statements per request, as the API reports them (server-timing); server and PG CPU ms/req: CPU "
        "time of the server's processes and of PostgreSQL's (all of them) during the timed runs, per answered "
        "request; RSS: the server's processes "
        "together, the largest reading after a run (the API serves nine configurations); KiB/resp: bytes "
        "read by wrk per response, headers included; bad: responses not 200 or with GraphQL errors, and socket "
        "errors. The floor and PostGraphile answer the anchor request only: the tools' ratios compare each tool "
        "with that request, not equal work."
    )


def main(argv: Sequence[str] | None = None) -> None:
    options = parse_options(argv)
    stop_servers_on_sigterm()
    if not installed() and not options.smoke:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    settings = load_settings()
    console = Console(width=None if sys.stdout.isatty() else 220)  # a pipe: no wrapping at 80 columns
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        run(options, settings, url, console)


if __name__ == "__main__":
    main()
