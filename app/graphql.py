"""The /graphql endpoint: the Strawberry view, its per-request context, and its extensions."""

from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial

import orjson
import strawberry
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.extensions import ParserCache, SchemaExtension, ValidationCache

from app.context import Context, create_context
from app.data.sources import SourceCatalog
from app.database import RequestDatabase
from app.errors import to_closed_set

DOCUMENT_CACHE_SIZE = 1024


class ClosedErrorSet(SchemaExtension):
    """Every error of a result is mapped to the closed set before it leaves (app/errors.py)."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is not None and result.errors:
            result.errors = [to_closed_set(error) for error in result.errors]


class ReleaseConnection(SchemaExtension):
    """The request's connection goes back to the pool as soon as the operation ends."""

    async def on_operation(self) -> AsyncIterator[None]:
        yield
        context = self.execution_context.context
        if isinstance(context, Context):
            await context.db.close()


def schema_extensions() -> list[Callable[[], SchemaExtension]]:
    """Fresh extension instances per operation; the document caches are shared by size (strawberry)."""
    return [
        ReleaseConnection,
        ClosedErrorSet,
        partial(ParserCache, maxsize=DOCUMENT_CACHE_SIZE),
        partial(ValidationCache, maxsize=DOCUMENT_CACHE_SIZE),
    ]


class GraphQLEndpoint(GraphQL[Context, None]):
    """POST and GET queries; GraphiQL for a browser; JSON encoded without escaping Arabic."""

    def __init__(self, schema: strawberry.Schema, engine: AsyncEngine, sources: SourceCatalog) -> None:
        super().__init__(schema, graphql_ide="graphiql", allow_queries_via_get=True, subscription_protocols=())
        self._engine = engine
        self._sources = sources

    async def get_context(self, request: Request | WebSocket, response: Response | WebSocket) -> Context:
        return create_context(RequestDatabase(self._engine), self._sources)

    def encode_json(self, data: object) -> bytes:
        return orjson.dumps(data)
