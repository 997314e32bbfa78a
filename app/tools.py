"""The neutral tool surface for the agent gateway (contract section G): `GET /tools` describes the
eight tools in plain JSON Schema, `POST /tools/{name}` runs one tool's persisted document.

A tool's output is `data.<tool>` of its persisted GraphQL response, byte for byte; an error is
`{"error": {code, message}}` with a fitting HTTP status. No provider's function-calling format.
"""

from collections.abc import Mapping
from typing import Any

import orjson
from graphql import GraphQLSchema
from starlette.requests import Request
from starlette.responses import Response

from app.documents import DocumentRejected, Documents
from app.errors import ApiError, ErrorCode, InvalidInput, QueryRejected
from app.execution import Executor
from app.graphql import HttpRefusal, read_body, server_timing
from app.persisted import PersistedOperation
from schema.contract import TOOLS, input_schema, output_schema

HTTP_STATUS = {
    ErrorCode.INVALID_INPUT: 400,
    ErrorCode.UNSUPPORTED_LANGUAGE: 400,
    ErrorCode.LIMIT_EXCEEDED: 400,
    ErrorCode.QUERY_REJECTED: 400,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.PERSISTED_QUERY_NOT_FOUND: 404,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.INTERNAL_ERROR: 500,
    ErrorCode.UPSTREAM_UNAVAILABLE: 503,
}


def _json(body: object, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


def _error(code: str, message: str, alias: str | None = None) -> Response:
    error = {"code": code, "message": message} | ({"alias": alias} if alias else {})
    return _json({"error": error}, HTTP_STATUS.get(ErrorCode(code), 500))


class Tools:
    def __init__(
        self,
        schema: GraphQLSchema,
        executor: Executor,
        documents: Documents,
        manifest: Mapping[str, PersistedOperation],
        body_limit: int,
    ) -> None:
        self.body_limit = body_limit
        self.executor = executor
        self.documents = documents
        self.operations = {operation.name: operation for operation in manifest.values()}
        root = schema.query_type
        self.descriptions = {name: field.description for name, field in (root.fields.items() if root else ())}

    def definitions(self) -> list[dict[str, Any]]:
        return [
            {
                "name": tool,
                "description": self.descriptions.get(tool),
                "input_schema": input_schema(tool),
                "output_schema": output_schema(tool),
                "persisted_document_id": f"sha256:{self.operations[tool].id}",
            }
            for tool in TOOLS
        ]

    async def list(self, request: Request) -> Response:
        return _json({"tools": self.definitions()})

    async def call(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.operations:
            return _error(ErrorCode.NOT_FOUND, f"No tool is named {name!r}.")
        try:
            arguments = await self._arguments(request, name)
            return await self._run(name, arguments)
        except ApiError as error:
            return _error(error.code, error.message, error.alias)
        except HttpRefusal as refusal:
            return _json({"error": {"code": ErrorCode.INVALID_INPUT, "message": refusal.message}}, refusal.status)
        except DocumentRejected:
            return _error(ErrorCode.INTERNAL_ERROR, "Internal error.")

    async def _arguments(self, request: Request, name: str) -> dict[str, Any]:
        try:
            arguments = orjson.loads(await read_body(request, self.body_limit) or b"{}")
        except orjson.JSONDecodeError:
            raise InvalidInput("The body must be the tool's input as a JSON object.") from None
        if not isinstance(arguments, dict):
            raise InvalidInput("The body must be the tool's input as a JSON object.")
        unknown = sorted(set(arguments) - set(input_schema(name)["properties"]))
        if unknown:
            raise InvalidInput(f"Unknown argument: {', '.join(unknown)}.")
        return arguments

    async def _run(self, name: str, arguments: dict[str, Any]) -> Response:
        prepared = self.documents.prepare(self.operations[name].body)
        outcome = await self.executor.run(prepared, self.executor.admit(prepared, name, arguments))
        if outcome.errors:
            extensions = outcome.errors[0].extensions or {}
            return _error(
                extensions.get("code", ErrorCode.INTERNAL_ERROR), outcome.errors[0].message, extensions.get("alias")
            )
        if outcome.data is None:
            raise QueryRejected("The tool returned nothing.")
        headers = {"server-timing": server_timing(outcome)}
        return Response(orjson.dumps(outcome.data[name]), media_type="application/json", headers=headers)
