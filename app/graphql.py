"""The /graphql endpoint, GraphQL over HTTP: POST and GET, persisted documents, client profiles.

Media types and status codes follow the GraphQL-over-HTTP draft: `application/graphql-response+json`
when the client accepts it (400 for a document that does not parse, 422 for one that does not
validate, 400 for one refused before it runs), legacy `application/json` otherwise (200 with the
errors); 405 for anything but a query over GET, 413 for an oversized body, 415 for a body that is
not JSON. Persisted documents are found by Apollo's `extensions.persistedQuery.sha256Hash` or by the
draft's `documentId: "sha256:<hex>"`; a persisted GET carries cache headers. A browser's GET (HTML
accepted, no document) gets the GraphiQL page of `app/graphiql.py`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.cost import Measure
from app.documents import DocumentRejected, Documents, Prepared, only_queries
from app.errors import ApiError, PersistedQueryNotFound, QueryRejected, rejected_document
from app.execution import Executor, Outcome
from app.graphiql import graphiql_page
from app.persisted import PersistedOperation
from app.profiles import API_KEY_HEADER, Profile, Profiles

GRAPHQL_RESPONSE = "application/graphql-response+json"
LEGACY_JSON = "application/json"
DOCUMENT_ID_PREFIX = "sha256:"


class HttpRefusal(Exception):
    """A request refused at the HTTP level (405, 413, 415), before GraphQL."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Params:
    query: str | None
    operation_name: str | None
    variables: dict[str, Any]
    extensions: dict[str, Any]
    document_id: str | None


def _json_field(raw: str | None, name: str) -> dict[str, Any]:
    if not raw:
        return {}
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise QueryRejected(f"{name} must be a JSON object.") from None
    if not isinstance(value, dict):
        raise QueryRejected(f"{name} must be a JSON object.")
    return value


def _params(source: Mapping[str, Any], decoded: bool) -> Params:
    def obj(name: str) -> dict[str, Any]:
        value = source.get(name)
        if decoded:
            if value is not None and not isinstance(value, dict):
                raise QueryRejected(f"{name} must be a JSON object.")
            return value or {}
        return _json_field(value, name)

    query, name, document_id = source.get("query"), source.get("operationName"), source.get("documentId")
    for label, value in (("query", query), ("operationName", name), ("documentId", document_id)):
        if value is not None and not isinstance(value, str):
            raise QueryRejected(f"{label} must be a string.")
    return Params(query, name, obj("variables"), obj("extensions"), document_id)


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 as soon as it is over `limit` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise HttpRefusal(413, f"The request body is over {limit} bytes.")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HttpRefusal(413, f"The request body is over {limit} bytes.")
    return body


async def read_params(request: Request, body_limit: int) -> Params:
    if request.method in ("GET", "HEAD"):
        return _params(request.query_params, decoded=False)
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type not in (LEGACY_JSON, GRAPHQL_RESPONSE):
        raise HttpRefusal(415, "Send the request as application/json.")
    try:
        payload = orjson.loads(await read_body(request, body_limit))
    except orjson.JSONDecodeError:
        raise QueryRejected("The request body is not valid JSON.") from None
    if not isinstance(payload, dict):
        raise QueryRejected("The request body must be a JSON object.")
    return _params(payload, decoded=True)


def _persisted_id(params: Params) -> str | None:
    if params.document_id is not None:
        if not params.document_id.startswith(DOCUMENT_ID_PREFIX):
            raise PersistedQueryNotFound("PersistedQueryNotFound")
        return params.document_id.removeprefix(DOCUMENT_ID_PREFIX)
    apq = params.extensions.get("persistedQuery")
    if isinstance(apq, dict):
        hash_ = apq.get("sha256Hash")
        return hash_ if isinstance(hash_, str) else ""
    return None


def _wants_graphql_response(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return GRAPHQL_RESPONSE in accept


def _wants_html(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "query" not in request.query_params and "documentId" not in request.query_params


class GraphQLEndpoint:
    """The ASGI app mounted at /graphql."""

    def __init__(
        self,
        executor: Executor,
        documents: Documents,
        manifest: Mapping[str, PersistedOperation],
        profiles: Profiles,
        body_limit: int,
        cache_seconds: int,
    ) -> None:
        self.executor = executor
        self.documents = documents
        self.manifest = manifest
        self.profiles = profiles
        self.body_limit = body_limit
        self.cache_seconds = cache_seconds
        for operation in manifest.values():  # parsed and validated once, at start-up
            documents.prepare(operation.body)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        response = await self.respond(request)
        await response(scope, receive, send)

    async def respond(self, request: Request) -> Response:
        if request.method == "GET" and _wants_html(request):
            return graphiql_page()
        modern = _wants_graphql_response(request)
        try:
            params = await read_params(request, self.body_limit)
            profile = self.profiles.for_key(request.headers.get(API_KEY_HEADER))
            prepared, persisted = self.document(params, profile)
            outcome = await self.execute(request, prepared, params)
        except HttpRefusal as refusal:
            return _plain(refusal.status, refusal.message)
        except DocumentRejected as rejected:
            errors = [rejected_document(error).formatted for error in rejected.errors]
            return self.errors_response(errors, modern, 400 if rejected.stage == "parse" else 422)
        except ApiError as error:
            return self.errors_response([{"message": error.message, "extensions": error.extensions}], modern, 400)
        return self.result_response(outcome, modern, cacheable=persisted and request.method == "GET")

    def document(self, params: Params, profile: Profile) -> tuple[Prepared, bool]:
        """The document to run and whether it is persisted, as the client's profile allows."""
        persisted_id = _persisted_id(params)
        if persisted_id is not None:
            operation = self.manifest.get(persisted_id)
            if operation is None:
                raise PersistedQueryNotFound("PersistedQueryNotFound")
            return self.documents.prepare(operation.body), True
        if profile.persisted_only:
            raise QueryRejected("This client may send persisted documents only.")
        if not params.query:
            raise QueryRejected("Send a query, or the id of a persisted document.")
        return self.documents.prepare(params.query), False

    async def execute(self, request: Request, prepared: Prepared, params: Params) -> Outcome:
        if request.method == "GET" and not only_queries(prepared, params.operation_name):
            raise HttpRefusal(405, "Only queries may be sent over GET.")
        admitted = self.executor.admit(prepared, params.operation_name, params.variables)
        return await self.executor.run(prepared, admitted)

    def cost_extension(self, cost: Measure | None) -> dict[str, Any]:
        allowed = self.executor.allowed
        requested = {"nodes": cost.nodes, "cost": cost.cost} if cost else None
        return {"cost": {"requested": requested, "maximum": {"nodes": allowed.max_nodes, "cost": allowed.max_cost}}}

    def errors_response(self, errors: Sequence[Mapping[str, Any]], modern: bool, status: int) -> Response:
        """A request refused before it ran: its errors (with their place in the document where they have
        one), and no data."""
        body = {"errors": list(errors), "extensions": self.cost_extension(None)}
        return _json(body, status if modern else 200, modern)

    def result_response(self, outcome: Outcome, modern: bool, cacheable: bool) -> Response:
        body: dict[str, Any] = {"data": outcome.data}
        if outcome.errors:
            body["errors"] = [error.formatted for error in outcome.errors]
        body["extensions"] = self.cost_extension(outcome.cost)
        response = _json(body, 200, modern)
        response.headers["server-timing"] = server_timing(outcome)
        if cacheable and not outcome.errors:
            response.headers["cache-control"] = f"public, max-age={self.cache_seconds}"
            response.headers["vary"] = f"accept, {API_KEY_HEADER}"
        return response


def server_timing(outcome: Outcome) -> str:
    """The request's SQL, for browsers' developer tools and benchmarks: how many statements, how long."""
    return f'sql;dur={outcome.sql_seconds * 1000:.2f};desc="{outcome.statements} statements"'


def _json(body: dict[str, Any], status: int, modern: bool) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type=GRAPHQL_RESPONSE if modern else LEGACY_JSON)


def _plain(status: int, message: str) -> Response:
    headers = {"allow": "GET, POST"} if status == 405 else None
    return Response(message, status_code=status, media_type="text/plain", headers=headers)
