"""The answers the edge writes itself, before an endpoint runs: the router's 404 and 405, and the
middleware's 429 and 503. Each carries the JSON error envelope of the surface asked, with a code of the
closed set: `/graphql` answers `{"errors": [{message, extensions}]}` in the media type its Accept header
chooses (legacy `application/json` when it chooses neither); every other path (`/tools`, `/mcp`)
answers `/tools`' `{"error": {code, message, alias}}`.
"""

from collections.abc import Mapping

import orjson
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Scope

from app.errors import ApiError, NotFound, QueryRejected
from app.http.graphql import edge_refusal
from app.http.tools import JSON, ToolFailed
from app.observation import note_error

GRAPHQL_PATH = "/graphql"


def refusal(scope: Scope, status: int, error: ApiError, headers: Mapping[str, str] | None = None) -> Response:
    """The answer `status` with `error`, in the envelope of the path asked, with these headers; its code
    counted in the request's metrics."""
    note_error(error.code)
    if scope["path"] == GRAPHQL_PATH:
        response = edge_refusal(error, status, Headers(scope=scope).get("accept"))
    else:
        response = Response(orjson.dumps(ToolFailed.of(error).body()), status_code=status, media_type=JSON)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


async def router_refusal(request: Request, exc: Exception) -> Response:
    """Starlette's HTTPException (an unknown path, a method the route does not take) as an error."""
    assert isinstance(exc, HTTPException)  # the only exception it is registered for
    error: ApiError = NotFound("No such path.") if exc.status_code == 404 else QueryRejected(f"{exc.detail}.")
    return refusal(request.scope, exc.status_code, error, exc.headers)
