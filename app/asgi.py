"""The ASGI application: /graphql, /healthz (alive) and /readyz (database reachable)."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from app.data.sources import SourceCatalog
from app.database import create_engine, ping
from app.graphql import GraphQLEndpoint, schema_extensions
from app.settings import Settings, load_settings
from schema.build import build_schema


async def healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "alive"})


async def readyz(request: Request) -> JSONResponse:
    engine: AsyncEngine = request.app.state.engine
    if await ping(engine):
        return JSONResponse({"status": "ready"})
    return JSONResponse({"status": "database unavailable"}, status_code=503)


def create_app(settings: Settings, database_url: str) -> Starlette:
    engine = create_engine(settings, database_url)
    graphql = GraphQLEndpoint(build_schema(schema_extensions()), engine, SourceCatalog())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await engine.dispose()

    app = Starlette(
        routes=[
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Route("/graphql", graphql, methods=["GET", "POST"]),
        ],
        lifespan=lifespan,
    )
    app.state.engine = engine
    return app


def app_from_environment() -> Starlette:
    """The factory `serve` gives uvicorn: ISNAD_DATABASE_URL names the database."""
    settings = load_settings()
    if settings.database_url is None:
        raise SystemExit("ISNAD_DATABASE_URL is not set (isnad-graphql serve sets it)")
    return create_app(settings, settings.database_url)
