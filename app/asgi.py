"""The ASGI application: /graphql, /tools, /mcp (the tools over MCP), /healthz (alive), /readyz (database
reachable), /metrics (Prometheus) and the files of GraphiQL (/graphiql/static)."""

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Mount, Route

from app.data.data_version import ServedVersion
from app.data.database import FUZZY_NAME_THRESHOLD, Readiness, create_engine
from app.data.replicas import read_routing
from app.data.search import NameIndex
from app.data.sessions import NAME_WORD_SIMILARITY
from app.data.sources import SourceCatalog
from app.execution.cost import CostLimits
from app.execution.documents import Documents
from app.execution.executor import Executor
from app.execution.framework import graphql_core_schema
from app.execution.persisted import DEFAULT_DIR, load_manifest
from app.http import explore, request_log
from app.http.admission import Admission, Places
from app.http.apq import RegisteredDocuments
from app.http.disconnect import CancelOnDisconnect
from app.http.front_door import FrontDoor
from app.http.graphiql import ASSETS_PATH, graphiql_assets
from app.http.graphql import GraphQLEndpoint
from app.http.http_cache import Revalidation
from app.http.mcp import McpEndpoint
from app.http.observability import Observed
from app.http.probes import PROBES_KEY, Probes
from app.http.profiles import API_KEY_HEADER, Profiles
from app.http.rate_limits import RateLimits, parse_rates
from app.http.refusals import router_refusal
from app.http.shedding import STATE_KEY, Shedding
from app.http.tools import Tools
from app.metrics import MetricsEndpoint
from app.settings import Settings, load_settings
from schema.build import build_schema

CORS_REQUEST_HEADERS = ["accept", "content-type", API_KEY_HEADER, "mcp-protocol-version"]  # the last: MCP over HTTP
CORS_EXPOSED_HEADERS = [
    "server-timing",
    "etag",
    "x-request-id",
    "traceresponse",
    "retry-after",
    "ratelimit",
    "ratelimit-policy",
]
# gzip's level, where Starlette's default is 9: a search answer of 14.5 KB took 0.45 ms to compress at 4 against
# 1.33 ms at 9, for 6 % more bytes (docs/performance.md, "Compressed answers").
COMPRESS_LEVEL = 4


def edge(settings: Settings, profiles: Profiles, shedding: Shedding, probes: Probes) -> list[Middleware]:
    """What every answer goes through, outermost first: the front door (the probes, and the requests admission
    cannot take, answered before the rest), observation (request id, trace context, metrics, the request log),
    a client that leaves cancels its work, CORS for the allowed origins (credentials never allowed), rate limits
    per client (429), admission (a bound on requests in flight, 503 beyond it), revalidation (ETag, 304), then
    gzip above `compress_min_bytes`."""
    return [
        Middleware(FrontDoor, shedding, probes),
        Middleware(Observed),
        Middleware(CancelOnDisconnect),
        Middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "HEAD", "POST"],
            allow_headers=CORS_REQUEST_HEADERS,
            expose_headers=CORS_EXPOSED_HEADERS,
            max_age=600,
        ),
        Middleware(RateLimits, parse_rates(settings.rate_limits, profiles.names), profiles),
        Middleware(Admission, shedding.places),
        Middleware(Revalidation),
        Middleware(GZipMiddleware, minimum_size=settings.compress_min_bytes, compresslevel=COMPRESS_LEVEL),
    ]


def create_app(settings: Settings, database_url: str) -> Starlette:
    engine = create_engine(settings, database_url)
    data_version = ServedVersion(settings, database_url, settings.ready_timeout_ms / 1000)
    reads = read_routing(settings, engine, data_version)
    strawberry_schema = build_schema()
    schema = graphql_core_schema(strawberry_schema)
    allowed = CostLimits(settings.max_nodes, settings.max_cost, settings.max_depth, settings.max_aliases)
    names = NameIndex(NAME_WORD_SIMILARITY, FUZZY_NAME_THRESHOLD)
    executor = Executor(
        strawberry_schema,
        reads,
        SourceCatalog(),
        names,
        allowed,
        settings.request_timeout_ms / 1000,
        settings.suggestions,
    )
    documents = Documents(schema, settings.max_tokens, settings.suggestions)
    manifest = load_manifest(DEFAULT_DIR)
    profiles = Profiles(settings.api_keys, settings.default_client_mode)
    graphql = GraphQLEndpoint(
        data_version,
        executor,
        documents,
        manifest,
        profiles,
        RegisteredDocuments(settings.apq_cache_size),
        body_limit=settings.max_body_bytes,
        cache_seconds=settings.persisted_cache_seconds,
    )
    tools = Tools(schema, executor, documents, manifest, profiles, settings.max_body_bytes)
    mcp = McpEndpoint(tools, settings.max_body_bytes)
    shedding = Shedding(Places(settings.max_in_flight, settings.max_queued, settings.queue_wait_ms))
    readiness = Readiness(settings, database_url, data_version.read_on, schema=True)
    probes = Probes(readiness, data_version, settings.ready_interval_ms, settings.ready_timeout_ms)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Shedding | Probes]]:
        await data_version.refresh()
        gc.freeze()  # what start-up built lives as long as the process: the collector need not scan it again
        following = names.following(engine, data_version, settings.ready_interval_ms / 1000)
        async with mcp.running(), probes.watching(), following:
            # uvicorn hands them to its protocol: `serve` answers the probes and sheds at the connection
            yield {STATE_KEY: shedding, PROBES_KEY: probes}
        await reads.dispose()
        await engine.dispose()

    app = Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            Route("/tools", tools.list, methods=["GET"]),
            Route("/tools/{name}", tools.call, methods=["POST"]),
            Mount(ASSETS_PATH, graphiql_assets()),
            Route("/explore", explore.page, methods=["GET"]),
            Mount(explore.ASSETS_PATH, explore.explore_assets()),
            Route("/mcp", mcp),
            Route("/metrics", MetricsEndpoint(settings.metrics_dir, settings.pool_size).scrape, methods=["GET"]),
        ],
        middleware=edge(settings, profiles, shedding, probes),
        exception_handlers={HTTPException: router_refusal},
        lifespan=lifespan,
    )
    app.state.engine = engine
    app.state.reads = reads
    app.state.probes = probes
    app.state.admission = shedding.places
    app.state.data_version = data_version
    app.state.executor = executor
    app.state.names = names
    app.state.tools = tools
    return app


def app_from_environment() -> Starlette:
    """The factory `serve` gives uvicorn: ISNAD_DATABASE_URL names the database."""
    settings = load_settings()
    if settings.database_url is None:
        raise SystemExit("ISNAD_DATABASE_URL is not set (isnad-graphql serve sets it)")
    if settings.request_log:
        request_log.to_stderr()
    return create_app(settings, settings.database_url)
