"""Load test of the anchor request (../shared/PERFORMANCE-ANCHORS.md) with wrk: the API beside the floor
and PostGraphile 4, on the full database.

    python -m bench.load [--seconds 15] [--rounds 2] [--threads 2] [--connections 32] [--warmup 2]
                         [--ids 2000] [--check-ids 100] [--pg4-dir /tmp/pg4] [--no-postgraphile]

The request: a hadith by id with its collection, its chains by chain_number, their nodes by position
and each node's narrator. One command:
1. starts (or joins) the embedded PostgreSQL, unless ISNAD_DATABASE_URL names a server;
2. picks `--ids` random hadith that have chains (seed 20261130, the first draw of bench/api_args.py);
3. starts three servers, one process each: the floor (bench/floor.py: Starlette + asyncpg pool 8 +
   orjson, one SQL statement); the API (`isnad-graphql serve --workers 1`), asked three ways: the
   persisted `get_hadith_chains` and `get_hadith` documents by `documentId`, and the free web document
   WEB_DOCUMENT; PostGraphile 4 from `--pg4-dir` with the equivalent query (POSTGRAPHILE_QUERY);
4. checks, for `--check-ids` of the ids, that every configuration returns the same data as the floor
   (each answer normalized to one structure, compared on the parts it carries);
5. runs wrk (`--threads`, `--connections`, `--seconds`) on each configuration in turn, `--rounds`
   times (A B C .. A B C ..), each run after an untimed `--warmup`; reads each server's RSS after each
   run; prints one table: medians of the rounds, RSS, ratios to the floor and to PostGraphile.
Every server is stopped at the end, whatever happens. wrk, the servers and PostgreSQL share the
machine's CPUs (2 on the machines of the anchors). A script that prints figures, never a test.
"""

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import asyncpg
import httpx
import orjson
from rich import box
from rich.console import Console
from rich.table import Table

from app.embedded import database_url
from app.settings import Settings, load_settings
from bench.api_args import HADITH_WITH_CHAINS

ROOT = Path(__file__).resolve().parents[1]
WRK_SCRIPT = Path(__file__).resolve().with_name("wrk_post.lua")
SEED = 20261130  # bench/api_bench.py's: its 200 get_hadith ids are the first 200 of ours
READY_TIMEOUT_S = 90.0  # PostGraphile introspects the whole schema first
CHAIN_LIMIT = 20
TYPENAME = b'{"query":"{__typename}"}'
JSON_HEADERS = {"content-type": "application/json"}

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

Json = Any
Normalize = Callable[[Json], Json]  # a response's JSON -> the common structure (the parts it carries)


# -- the common structure ---------------------------------------------------------------------------
# {"hadith_id", "canonical_reference", "collection": {"code", "name"},
#  "chains": [{"chain_number", "nodes": [{"position", "narrator_id", "narrator": display | None}]}]}


def _web(response: Json) -> Json:
    """The floor's and the web document's answer (the same shape)."""
    hadith = response["data"]["get_hadith"]
    chains = [
        {
            "chain_number": chain["chain_number"],
            "nodes": [
                {
                    "position": node["position"],
                    "narrator_id": node["narrator_id"],
                    "narrator": node["narrator"]["canonical_display"] if node["narrator"] else None,
                }
                for node in chain["nodes"]
            ],
        }
        for chain in hadith["chains"]["chains"]
    ]
    collection = hadith["collection"]
    return {
        "hadith_id": hadith["hadith_id"],
        "canonical_reference": hadith["canonical_reference"],
        "collection": {"code": collection["code"], "name": collection["name"]},
        "chains": chains,
    }


def _get_hadith(response: Json) -> Json:
    hadith = response["data"]["get_hadith"]
    collection = hadith["collection"]
    return {
        "hadith_id": hadith["hadith_id"],
        "canonical_reference": hadith["canonical_reference"],
        "collection": {"code": collection["code"], "name": collection["name"]},
    }


def _get_hadith_chains(response: Json) -> Json:
    answer = response["data"]["get_hadith_chains"]
    chains = [
        {
            "chain_number": chain["chain_number"],
            "nodes": [{"position": node["position"], "narrator_id": node["narrator_id"]} for node in chain["nodes"]],
        }
        for chain in answer["chains"]
    ]
    return {"hadith_id": answer["hadith_id"], "chains": chains}


def _postgraphile(response: Json) -> Json:
    hadith = response["data"]["hadithByHadithId"]
    chains = [
        {
            "chain_number": chain["chainNumber"],
            "nodes": [
                {
                    "position": node["position"],
                    "narrator_id": node["narratorId"],
                    "narrator": node["narratorByNarratorId"]["canonicalDisplay"]
                    if node["narratorByNarratorId"]
                    else None,
                }
                for node in chain["chainNodesByChainId"]["nodes"]
            ],
        }
        for chain in hadith["chainsByHadithId"]["nodes"]
    ]
    collection = hadith["collectionByCollectionId"]
    return {
        "hadith_id": hadith["hadithId"],
        "canonical_reference": hadith["canonicalReference"],
        "collection": {"code": collection["code"], "name": collection["nameEn"]},
        "chains": chains,
    }


def project(reference: Json, like: Json) -> Json:
    """`reference` cut down to the keys of `like` (lists element by element, when their lengths agree)."""
    if isinstance(like, dict) and isinstance(reference, dict):
        return {key: project(reference.get(key), value) for key, value in like.items()}
    if isinstance(like, list) and isinstance(reference, list) and len(like) == len(reference):
        return [project(ref, item) for ref, item in zip(reference, like, strict=True)]
    return reference


# -- servers ----------------------------------------------------------------------------------------


@dataclass
class Server:
    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: IO[bytes]
    ready_path: str
    ready_body: bytes | None = None  # POST this to `ready_path`; None: GET it

    def log_tail(self, characters: int = 2000) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-characters:]

    def rss_bytes(self) -> int:
        """The resident memory of the server's process group (it was started in a session of its own)."""
        return group_rss(self.process.pid)


def _group_processes(group: int) -> Iterator[Path]:
    """The /proc folders of the live (not zombie) processes of a process group."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "pid (comm)": state ppid pgrp ...
        except (OSError, IndexError):
            continue  # gone meanwhile
        if len(fields) > 2 and fields[2] == str(group) and fields[0] != "Z":
            yield stat.parent


def group_rss(group: int) -> int:
    """The sum of VmRSS over the processes of a process group."""
    total = 0
    for folder in _group_processes(group):
        try:
            match = re.search(r"^VmRSS:\s+(\d+) kB", (folder / "status").read_text(), re.MULTILINE)
        except OSError:
            continue
        total += int(match.group(1)) * 1024 if match else 0
    return total


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group (it was started in a session of its own), then SIGKILL."""
    for sent, grace_s in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            break  # nothing left in the group
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            process.poll()  # reaps the leader once it has exited
            if next(_group_processes(process.pid), None) is None:
                return
            time.sleep(0.05)
    process.poll()


@contextmanager
def server(
    name: str, command: Sequence[str], port: int, env: dict[str, str], ready_path: str, ready_body: bytes | None = None
) -> Iterator[Server]:
    """Starts `command` (listening on `port`) in a process group of its own; stops the group on exit."""
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(  # noqa: S603 - fixed commands
            list(command), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            yield Server(name, port, process, log, ready_path, ready_body)
        finally:
            stop(process)


def wait_ready(target: Server) -> str | None:
    """None once `target` answers 200; else why it never did."""
    url = f"http://127.0.0.1:{target.port}{target.ready_path}"
    deadline = time.monotonic() + READY_TIMEOUT_S
    with httpx.Client(timeout=5.0) as client:
        while time.monotonic() < deadline:
            if target.process.poll() is not None:
                return f"{target.name} exited with {target.process.returncode}:\n{target.log_tail()}"
            try:
                if target.ready_body is None:
                    response = client.get(url)
                else:
                    response = client.post(url, content=target.ready_body, headers=JSON_HEADERS)
                if response.status_code == 200:
                    return None
            except httpx.TransportError:
                pass
            time.sleep(0.2)
    return f"{target.name} was not ready in {READY_TIMEOUT_S:.0f} s:\n{target.log_tail()}"


# -- configurations ---------------------------------------------------------------------------------


@dataclass
class Run:
    rate: float
    p50_ms: float
    p99_ms: float
    requests: int
    bytes_read: float
    bad: int  # not 200, or GraphQL errors, or socket errors
    rss: int


@dataclass
class Configuration:
    name: str
    server: Server
    body: Callable[[int], bytes]  # hadith id -> POST body
    normalize: Normalize
    runs: list[Run] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/graphql"

    def median(self, read: Callable[[Run], float]) -> float:
        return statistics.median(read(run) for run in self.runs)


def persisted_ids() -> dict[str, str]:
    """The persisted documents' ids by tool name (persisted/manifest.json)."""
    manifest = json.loads((ROOT / "persisted" / "manifest.json").read_text(encoding="utf-8"))
    return {operation["name"]: operation["id"] for operation in manifest["operations"]}


def configurations(floor: Server, api: Server, postgraphile: Server | None) -> list[Configuration]:
    ids = persisted_ids()
    chains_id, hadith_id = f"sha256:{ids['get_hadith_chains']}", f"sha256:{ids['get_hadith']}"
    found = [
        Configuration(
            "floor: Starlette + asyncpg + orjson, 1 statement", floor, lambda h: orjson.dumps({"id": h}), _web
        ),
        Configuration(
            "API get_hadith_chains (persisted, documentId)",
            api,
            lambda h: orjson.dumps({"documentId": chains_id, "variables": {"hadith_id": h, "limit": CHAIN_LIMIT}}),
            _get_hadith_chains,
        ),
        Configuration(
            "API get_hadith (persisted, documentId)",
            api,
            lambda h: orjson.dumps({"documentId": hadith_id, "variables": {"hadith_id": h}}),
            _get_hadith,
        ),
        Configuration(
            "API web document (free, nested)",
            api,
            lambda h: orjson.dumps({"query": WEB_DOCUMENT, "variables": {"id": h}}),
            _web,
        ),
    ]
    if postgraphile is not None:
        found.append(
            Configuration(
                "PostGraphile 4 (equivalent query)",
                postgraphile,
                lambda h: orjson.dumps({"query": POSTGRAPHILE_QUERY, "variables": {"id": h}}),
                _postgraphile,
            )
        )
    return found


def check_same(configs: Sequence[Configuration], ids: Sequence[int]) -> None:
    """Every configuration answers each id with the floor's data, on the parts it carries; else exit."""
    floor = configs[0]
    with httpx.Client(timeout=30.0) as client:

        def answer(config: Configuration, hadith_id: int) -> Json:
            response = client.post(config.url, content=config.body(hadith_id), headers=JSON_HEADERS)
            body = response.json() if response.status_code == 200 else None
            if not isinstance(body, dict) or body.get("errors") or not body.get("data"):
                raise SystemExit(f"{config.name}, hadith {hadith_id}: {response.status_code} {response.text[:500]}")
            try:
                return config.normalize(body)
            except (KeyError, TypeError) as missing:
                raise SystemExit(f"{config.name}, hadith {hadith_id}: no {missing} in {response.text[:500]}") from None

        for hadith_id in ids:
            reference = answer(floor, hadith_id)
            for config in configs[1:]:
                got = answer(config, hadith_id)
                if project(reference, got) != got:
                    raise SystemExit(
                        f"{config.name} differs from the floor for hadith {hadith_id}:\n"
                        f"  floor: {project(reference, got)}\n  {config.name}: {got}"
                    )


# -- wrk --------------------------------------------------------------------------------------------

TIME_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
SIZE_UNITS = {"B": 1.0, "KB": 1024.0, "MB": 1024.0**2, "GB": 1024.0**3, "TB": 1024.0**4}


def _ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text)
    if match is None:
        raise SystemExit(f"unexpected wrk duration {text!r}")
    return float(match.group(1)) * TIME_UNITS[match.group(2)]


def parse_wrk(output: str) -> Run:
    """Req/s, p50, p99 (--latency), requests, bytes read and bad responses from wrk's report."""

    def find(pattern: str) -> re.Match[str]:
        match = re.search(pattern, output, re.MULTILINE)
        if match is None:
            raise SystemExit(f"unexpected wrk output (no /{pattern}/):\n{output}")
        return match

    totals = find(r"^\s*(\d+) requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB|TB) read")
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    bad = int(find(r"^bad responses: (\d+)").group(1))
    bad += sum(map(int, socket_errors.groups())) if socket_errors else 0
    return Run(
        rate=float(find(r"^Requests/sec:\s+([\d.]+)").group(1)),
        p50_ms=_ms(find(r"^\s+50%\s+(\S+)").group(1)),
        p99_ms=_ms(find(r"^\s+99%\s+(\S+)").group(1)),
        requests=int(totals.group(1)),
        bytes_read=float(totals.group(2)) * SIZE_UNITS[totals.group(3)],
        bad=bad,
        rss=0,
    )


@dataclass(frozen=True)
class Load:
    threads: int
    connections: int
    seconds: int
    warmup: int


def wrk(config: Configuration, bodies: Path, load: Load, seconds: int, seed: int) -> str:
    command = [
        "wrk",
        f"-t{load.threads}",
        f"-c{load.connections}",
        f"-d{seconds}s",
        "--timeout",
        "10s",
        "--latency",
        "-s",
        str(WRK_SCRIPT),
        config.url,
        "--",
        str(bodies),
        str(seed),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603 - fixed command
    if done.returncode != 0:
        raise SystemExit(f"wrk failed ({done.returncode}): {done.stderr or done.stdout}")
    return done.stdout


def measure(
    configs: Sequence[Configuration], files: dict[str, Path], load: Load, rounds: int, console: Console
) -> None:
    """Each configuration in turn, `rounds` times: an untimed warm-up, then the timed run, then its RSS."""
    for number in range(1, rounds + 1):
        for config in configs:
            console.print(f"round {number}/{rounds}: {config.name} ...", end=" ")
            if load.warmup:
                wrk(config, files[config.name], load, load.warmup, SEED + 1000 + number)
            run = parse_wrk(wrk(config, files[config.name], load, load.seconds, SEED + number))
            run.rss = config.server.rss_bytes()
            config.runs.append(run)
            console.print(f"{run.rate:,.0f} req/s, p50 {run.p50_ms:.1f} ms, p99 {run.p99_ms:.1f} ms")


# -- the report -------------------------------------------------------------------------------------


def cpu_model() -> str:
    lines = Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []
    models = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return models[0] if models else "unknown CPU"


def ratio(value: float, base: float | None) -> str:
    return f"{value / base:.2f}" if base else "n/a"


def table(configs: Sequence[Configuration]) -> Table:
    floor_rate = configs[0].median(lambda run: run.rate)
    peers = [config for config in configs if config.name.startswith("PostGraphile")]
    peer_rate = peers[0].median(lambda run: run.rate) if peers else None
    grid = Table(box=box.MARKDOWN)
    grid.add_column("configuration")
    for header in ("req/s", "rounds", "p50 ms", "p99 ms", "RSS MiB", "KiB/resp", "/ floor", "/ PostGraphile", "bad"):
        grid.add_column(header, justify="right")
    for config in configs:
        rate = config.median(lambda run: run.rate)
        grid.add_row(
            config.name,
            f"{rate:,.0f}",
            " / ".join(f"{run.rate:,.0f}" for run in config.runs),
            f"{config.median(lambda run: run.p50_ms):.1f}",
            f"{config.median(lambda run: run.p99_ms):.1f}",
            f"{max(run.rss for run in config.runs) / 2**20:.0f}",
            f"{sum(run.bytes_read for run in config.runs) / sum(run.requests for run in config.runs) / 1024:.1f}",
            ratio(rate, floor_rate),
            ratio(rate, peer_rate),
            str(sum(run.bad for run in config.runs)),
        )
    return grid


# -- the run ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    load: Load
    rounds: int
    ids: int
    check_ids: int
    pg4_dir: Path
    postgraphile: bool


def parse_options(argv: Sequence[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=15, help="timed seconds per run (default 15)")
    parser.add_argument("--rounds", type=int, default=2, help="runs per configuration, alternating (default 2)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (default 32)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed seconds of wrk before each run (default 2)")
    parser.add_argument("--ids", type=int, default=2000, help="random hadith with chains (default 2000)")
    parser.add_argument("--check-ids", type=int, default=100, help="ids checked on every server (default 100)")
    parser.add_argument("--pg4-dir", type=Path, default=Path("/tmp/pg4"), help="npm prefix of postgraphile@4")  # noqa: S108
    parser.add_argument("--no-postgraphile", action="store_true", help="skip PostGraphile")
    args = parser.parse_args(argv)
    numbers = (args.seconds, args.rounds, args.threads, args.connections, args.ids, args.check_ids)
    if min(numbers) < 1 or args.warmup < 0 or args.connections < args.threads or args.check_ids > args.ids:
        parser.error("invalid option")
    load = Load(args.threads, args.connections, args.seconds, args.warmup)
    return Options(load, args.rounds, args.ids, args.check_ids, args.pg4_dir, not args.no_postgraphile)


async def pick_ids(url: str, settings: Settings, count: int) -> tuple[list[int], str]:
    """`count` random hadith with chains (the first draw of bench/api_args.py), and the server's version."""
    connection = await asyncpg.connect(url, server_settings={"search_path": f"{settings.db_schema}, public"})
    try:
        candidates = [row[0] for row in await connection.fetch(HADITH_WITH_CHAINS)]
        version = str(await connection.fetchval("SHOW server_version"))
    finally:
        await connection.close()
    rng = random.Random(SEED)  # noqa: S311 (reproducible sampling, not cryptography)
    return rng.sample(candidates, count), version


def postgraphile_command(options: Options, url: str, schema: str, port: int) -> list[str] | str:
    """The command, or why there is none."""
    binary = options.pg4_dir / "node_modules" / ".bin" / "postgraphile"
    if not binary.exists():
        return f"no {binary}: `cd {options.pg4_dir} && npm install postgraphile@4`"
    # --classic-ids: the Relay global id is `id`, not `nodeId`, which chain_node.node_id would clash with;
    # --disable-default-mutations: nothing that writes (the superuser connects)
    return [str(binary), "-c", url, "--schema", schema, "--port", str(port), "--disable-graphiql",
            "--disable-query-log", "--classic-ids", "--disable-default-mutations"]  # fmt: skip


def postgraphile_version(options: Options) -> str:
    package = options.pg4_dir / "node_modules" / "postgraphile" / "package.json"
    return str(json.loads(package.read_text())["version"]) if package.exists() else "?"


def start_servers(
    stack: ExitStack, options: Options, settings: Settings, url: str, console: Console
) -> tuple[Server, Server, Server | None]:
    """The floor, the API and PostGraphile (None where it cannot serve: why is printed), all ready."""
    env = {**os.environ, "ISNAD_DATABASE_URL": url}
    python = sys.executable
    floor_port, api_port, peer_port = free_port(), free_port(), free_port()
    floor_cmd = [python, "-m", "bench.floor", "--database-url", url, "--schema", settings.db_schema,
                 "--pool", str(settings.pool_size), "--port", str(floor_port)]  # fmt: skip
    api_cmd = [str(Path(python).with_name("isnad-graphql")), "serve", "--workers", "1", "--port", str(api_port)]
    floor = stack.enter_context(server("floor", floor_cmd, floor_port, env, "/healthz"))
    api = stack.enter_context(server("API", api_cmd, api_port, env, "/readyz"))
    peer = None
    peer_cmd = postgraphile_command(options, url, settings.db_schema, peer_port) if options.postgraphile else None
    if isinstance(peer_cmd, str):
        console.print(f"[red]PostGraphile skipped: {peer_cmd}[/red]")
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


def write_bodies(configs: Sequence[Configuration], ids: Sequence[int], folder: Path) -> dict[str, Path]:
    """One file per configuration: one POST body per line, one line per id."""
    files = {}
    for number, config in enumerate(configs):
        path = folder / f"bodies-{number}.jsonl"
        path.write_bytes(b"\n".join(config.body(hadith_id) for hadith_id in ids) + b"\n")
        files[config.name] = path
    return files


def header(options: Options, version: str, load_before: tuple[float, float, float]) -> list[str]:
    load = options.load
    averages = ", ".join(f"{value:.2f}" for value in load_before)
    after = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), "
        f"{cpu_model()}; PostgreSQL {version}; PostGraphile {postgraphile_version(options)}",
        f"load average (1, 5, 15 min) before the run: {averages}; after: {after} (other processes on the CPUs "
        "raise it)",
        f"wrk: {load.threads} threads, {load.connections} connections, {load.seconds} s per run after {load.warmup} s "
        f"of warm-up, {options.rounds} alternating rounds (medians), random ids among {options.ids} hadith with "
        f"chains (seed {SEED}); every server is 1 process; wrk, the servers and PostgreSQL share the CPUs",
    ]


def run(options: Options, settings: Settings, url: str, console: Console) -> None:
    ids, version = asyncio.run(pick_ids(url, settings, options.ids))
    load_before = os.getloadavg()
    with ExitStack() as stack:
        console.print("starting the servers ...")
        floor, api, peer = start_servers(stack, options, settings, url, console)
        configs = configurations(floor, api, peer)
        console.print(f"checking that every configuration returns the floor's data for {options.check_ids} ids ...")
        check_same(configs, ids[: options.check_ids])
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="isnad-load-")))
        measure(configs, write_bodies(configs, ids, folder), options.load, options.rounds, console)
    console.print()
    for line in header(options, version, load_before):
        console.print(line)
    console.print(table(configs))
    console.print(
        "RSS: the server's processes, the largest reading after a run (the API serves three configurations); "
        "KiB/resp: bytes read by wrk per response, headers included; bad: responses not 200 or with GraphQL "
        "errors, and socket errors."
    )


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds the servers' context managers: each is stopped


def main(argv: Sequence[str] | None = None) -> None:
    options = parse_options(argv)
    signal.signal(signal.SIGTERM, _terminated)
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    settings = load_settings()
    console = Console(width=None if sys.stdout.isatty() else 200)  # a pipe: no wrapping at 80 columns
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        run(options, settings, url, console)


if __name__ == "__main__":
    main()
