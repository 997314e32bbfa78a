"""The /graphql endpoint, GraphQL over HTTP: POST and GET, persisted documents, client profiles.

Media types and status codes follow the GraphQL-over-HTTP draft, after its watershed: the answer is
`application/graphql-response+json` when the client prefers it or sends no Accept header (400 for any
document refused before it runs: it does not parse, does not validate, or is refused by a limit), legacy
`application/json` when the client asks for it, `application/*` or `*/*` (200 with the errors), and 406
when it accepts neither. Whatever the media type, a request that is not a well-formed GraphQL-over-HTTP
request (a body that is not a JSON object, parameters of the wrong type, no document) is 400; 405 for
anything but a query over GET, 413 for an oversized body, 415 for a body that is not JSON-typed, each
with its error of the closed set. JSON answers say `charset=utf-8`. Persisted documents are found by
Apollo's `extensions.persistedQuery.sha256Hash` or by the draft's `documentId: "sha256:<hex>"`: in the
manifest, or, for a client that may send free documents, among those it registered by sending the hash
with the text (automatic persisted queries, `app/http/apq.py`); a persisted GET (or HEAD) carries cache
headers and a strong ETag (`app/http/http_cache.py` answers 304). A browser's GET (HTML accepted, no
document) gets the GraphiQL page of `app/http/graphiql.py`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.data.data_version import ServedVersion
from app.errors import (
    ApiError,
    LimitExceeded,
    PersistedQueryNotFound,
    QueryRejected,
    UpstreamUnavailable,
    rejected_document,
)
from app.execution.cost import Measure
from app.execution.documents import DocumentRejected, Documents, Prepared, only_queries
from app.execution.executor import Executor, Outcome
from app.execution.persisted import PersistedOperation
from app.http.apq import RegisteredDocuments, check_hash
from app.http.graphiql import graphiql_page
from app.http.http_cache import strong_etag
from app.http.profiles import API_KEY_HEADER, Profile, Profiles
from app.observation import FREE_DOCUMENT, note_error, note_operation

GRAPHQL_RESPONSE = "application/graphql-response+json"
LEGACY_JSON = "application/json"
DOCUMENT_ID_PREFIX = "sha256:"
SAFE_METHODS = ("GET", "HEAD")
ACCEPTED_AS = {  # what an Accept header's media range gets
    GRAPHQL_RESPONSE: GRAPHQL_RESPONSE,
    LEGACY_JSON: LEGACY_JSON,
    "application/*": LEGACY_JSON,
    "*/*": LEGACY_JSON,
}


class HttpRefusal(Exception):
    """A request refused at the HTTP level (405, 413, 415), before GraphQL: its status, and its error of
    the closed set."""

    def __init__(self, status: int, error: ApiError) -> None:
        super().__init__(error.message)
        self.status = status
        self.error = error


class MalformedRequest(QueryRejected):
    """A request that is not a well-formed GraphQL-over-HTTP request: 400 whatever the media type."""


@dataclass(frozen=True)
class Found:
    """The document a request runs: whether it is persisted, and the hash to register it under once
    admitted (an automatic persisted query sent with its text)."""

    prepared: Prepared
    persisted: bool
    registers: str | None = None
    name: str = FREE_DOCUMENT  # the manifest's name for its documents, as the metrics say it


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
        raise MalformedRequest(f"{name} must be a JSON object.") from None
    if not isinstance(value, dict):
        raise MalformedRequest(f"{name} must be a JSON object.")
    return value


def _params(source: Mapping[str, Any], decoded: bool) -> Params:
    def obj(name: str) -> dict[str, Any]:
        value = source.get(name)
        if decoded:
            if value is not None and not isinstance(value, dict):
                raise MalformedRequest(f"{name} must be a JSON object.")
            return value or {}
        return _json_field(value, name)

    query, name, document_id = source.get("query"), source.get("operationName"), source.get("documentId")
    for label, value in (("query", query), ("operationName", name), ("documentId", document_id)):
        if value is not None and not isinstance(value, str):
            raise MalformedRequest(f"{label} must be a string.")
    return Params(query, name, obj("variables"), obj("extensions"), document_id)


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 as soon as it is over `limit` bytes."""
    too_large = HttpRefusal(413, LimitExceeded(f"The request body is over {limit} bytes."))
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return body


def body_media_type(request: Request) -> str:
    """The media type of the request's body, without its parameters ('' when it declares none)."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def read_params(request: Request, body_limit: int) -> Params:
    if request.method in SAFE_METHODS:
        return _params(request.query_params, decoded=False)
    if body_media_type(request) not in (LEGACY_JSON, GRAPHQL_RESPONSE):
        raise HttpRefusal(415, QueryRejected("Send the request as application/json."))
    try:
        payload = orjson.loads(await read_body(request, body_limit))
    except orjson.JSONDecodeError:
        raise MalformedRequest("The request body is not valid JSON.") from None
    if not isinstance(payload, dict):
        raise MalformedRequest("The request body must be a JSON object.")
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


def response_media_type(accept: str | None) -> str | None:
    """The media type to answer in, by the Accept header's preferences (the first listed wins a tie);
    None when the client accepts neither JSON media type (406)."""
    if accept is None or not accept.strip():
        return GRAPHQL_RESPONSE
    chosen, chosen_q = None, 0.0
    for item in accept.split(","):
        media_type, *parameters = (part.strip().lower() for part in item.split(";"))
        q = next((_quality(value) for key, _, value in (p.partition("=") for p in parameters) if key == "q"), 1.0)
        if media_type in ACCEPTED_AS and q > chosen_q:
            chosen, chosen_q = ACCEPTED_AS[media_type], q
    return chosen


def _quality(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 0.0


def _wants_html(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "query" not in request.query_params and "documentId" not in request.query_params


class GraphQLEndpoint:
    """The ASGI app mounted at /graphql."""

    def __init__(
        self,
        data_version: ServedVersion,
        executor: Executor,
        documents: Documents,
        manifest: Mapping[str, PersistedOperation],
        profiles: Profiles,
        registered: RegisteredDocuments,
        body_limit: int,
        cache_seconds: int,
    ) -> None:
        self.data_version = data_version
        self.executor = executor
        self.documents = documents
        self.manifest = manifest
        self.profiles = profiles
        self.registered = registered
        self.body_limit = body_limit
        self.cache_seconds = cache_seconds
        for operation in manifest.values():  # parsed and validated once, at start-up
            documents.prepare(operation.body)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        response = await self.respond(request)
        await response(scope, receive, send)

    async def respond(self, request: Request) -> Response:
        if request.method in SAFE_METHODS and _wants_html(request):
            return graphiql_page()
        media_type = response_media_type(request.headers.get("accept"))
        if media_type is None:
            return self.refused(HttpRefusal(406, QueryRejected(f"Accept {GRAPHQL_RESPONSE} or {LEGACY_JSON}.")), False)
        modern = media_type == GRAPHQL_RESPONSE
        try:
            params = await read_params(request, self.body_limit)
            profile = self.profiles.for_key(request.headers.get(API_KEY_HEADER))
            found = self.document(params, profile)
            note_operation(found.name)
            outcome = await self.execute(request, found, params)
        except (HttpRefusal, DocumentRejected, ApiError) as error:
            return self.refused(error, modern)
        return self.result_response(outcome, modern, cacheable=found.persisted and request.method in SAFE_METHODS)

    def refused(self, error: HttpRefusal | DocumentRejected | ApiError, modern: bool) -> Response:
        """The answer to a request refused before it ran: 400 with `application/graphql-response+json`;
        with legacy `application/json`, 200 but for a malformed request; an HTTP refusal's own status; 503 while
        the database holds data this server cannot read."""
        if isinstance(error, HttpRefusal):
            note_error(error.error.code)
            response = self.errors_response([refusal_entry(error.error)], modern, error.status)
            if error.status == 405:
                response.headers["allow"] = "GET, POST"
            return response
        errors: list[Mapping[str, Any]] = [refusal_entry(error)] if isinstance(error, ApiError) else []
        if isinstance(error, DocumentRejected):
            errors = [rejected_document(rejected).formatted for rejected in error.errors]
        note_error(errors[0]["extensions"]["code"])
        if isinstance(error, UpstreamUnavailable):  # the server's state, not the request's: 503 for any client
            return self.errors_response(errors, modern, error.status)
        return self.errors_response(errors, modern, 400 if modern or isinstance(error, MalformedRequest) else 200)

    def document(self, params: Params, profile: Profile) -> Found:
        """The document to run, as the client's profile allows."""
        persisted_id = _persisted_id(params)
        if persisted_id is None:
            if profile.persisted_only:
                raise QueryRejected("This client may send persisted documents only.")
            if not params.query:
                raise MalformedRequest("Send a query, or the id of a persisted document.")
            return Found(self.documents.prepare(params.query), persisted=False)
        return self.persisted_document(persisted_id, params.query, profile)

    def persisted_document(self, hash_: str, text: str | None, profile: Profile) -> Found:
        """A manifest document, for any profile; for a profile that may send free documents, one it
        registered, or the text sent beside its hash, to be registered once admitted."""
        if text:
            check_hash(hash_, text)
        operation = self.manifest.get(hash_)
        if operation is not None:
            return Found(self.documents.prepare(operation.body), persisted=True, name=operation.name)
        if profile.persisted_only:
            if text:
                raise QueryRejected("This client may send persisted documents only.")
            raise PersistedQueryNotFound("PersistedQueryNotFound")
        registered = self.registered.get(hash_)
        if registered is not None:
            return Found(self.documents.prepare(registered), persisted=True)
        if not text:
            raise PersistedQueryNotFound("PersistedQueryNotFound")
        return Found(self.documents.prepare(text), persisted=False, registers=hash_)

    async def execute(self, request: Request, found: Found, params: Params) -> Outcome:
        prepared = found.prepared
        if request.method in SAFE_METHODS and not only_queries(prepared, params.operation_name):
            raise HttpRefusal(405, QueryRejected("Only queries may be sent over GET."))
        admitted = self.executor.admit(prepared, params.operation_name, params.variables)
        if found.registers is not None:
            self.registered.register(found.registers, prepared.text)
        return await self.executor.run(prepared, admitted)

    def response_extensions(self, cost: Measure | None) -> dict[str, Any]:
        """The request's cost against its maximum, and the version of the data it was answered from."""
        allowed = self.executor.allowed
        requested = {"nodes": cost.nodes, "cost": cost.cost} if cost else None
        maximum = {"nodes": allowed.max_nodes, "cost": allowed.max_cost}
        return {"cost": {"requested": requested, "maximum": maximum}, "data_version": self.data_version.as_extension()}

    def errors_response(self, errors: Sequence[Mapping[str, Any]], modern: bool, status: int) -> Response:
        """A request refused before it ran: its errors (with their place in the document where they have
        one), and no data."""
        body = {"errors": list(errors), "extensions": self.response_extensions(None)}
        return _json(body, status, modern)

    def result_response(self, outcome: Outcome, modern: bool, cacheable: bool) -> Response:
        body: dict[str, Any] = {"data": outcome.data}
        if outcome.errors:
            body["errors"] = [error.formatted for error in outcome.errors]
            note_error(body["errors"][0]["extensions"]["code"])
        body["extensions"] = self.response_extensions(outcome.cost)
        response = _json(body, 200, modern)
        response.headers["server-timing"] = server_timing(outcome)
        if cacheable and not outcome.errors:
            response.headers["cache-control"] = f"public, max-age={self.cache_seconds}"
            response.headers["vary"] = f"accept, {API_KEY_HEADER}"
            response.headers["etag"] = strong_etag(bytes(response.body))
        return response


def server_timing(outcome: Outcome) -> str:
    """The request's SQL, for browsers' developer tools and benchmarks: how many statements, how long."""
    return f'sql;dur={outcome.sql_seconds * 1000:.2f};desc="{outcome.statements} statements"'


def _json(body: dict[str, Any], status: int, modern: bool) -> Response:
    media_type = GRAPHQL_RESPONSE if modern else LEGACY_JSON
    return Response(orjson.dumps(body), status_code=status, media_type=f"{media_type}; charset=utf-8")


def refusal_entry(error: ApiError) -> dict[str, Any]:
    """The `errors[]` entry of a request refused before it ran: no place in a document, no path."""
    return {"message": error.message, "extensions": error.extensions}


def edge_refusal(error: ApiError, status: int, accept: str | None) -> Response:
    """An answer the edge writes itself for /graphql (429, 503): `errors` in the media type `accept`
    chooses, legacy `application/json` when it chooses neither."""
    return _json({"errors": [refusal_entry(error)]}, status, response_media_type(accept) == GRAPHQL_RESPONSE)
