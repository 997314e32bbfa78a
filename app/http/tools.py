"""The neutral tool surface for the agent gateway (contract section G): `GET /tools` describes the
eight tools in plain JSON Schema, `POST /tools/{name}` runs one tool's persisted document.

A tool's output is `data.<tool>` of its persisted GraphQL response, byte for byte; an error is
`{"error": {code, message, alias}}` with a fitting HTTP status. No provider's function-calling format.
A call's body must be `application/json` (415 otherwise): a form or `text/plain` is what another site's
page may send without a preflight.
`Tools.run` is the one way a tool runs, here and over MCP (`app/http/mcp.py`): the client's profile (an
unknown API key is refused), the arguments checked against the input schema, then the document.
"""

import logging
from collections.abc import Mapping
from typing import Any

import orjson
from graphql import GraphQLSchema
from starlette.requests import Request
from starlette.responses import Response

from app.errors import ApiError, ErrorCode, InternalError, InvalidInput, NotFound, QueryRejected, status_of
from app.execution.documents import Documents
from app.execution.executor import Executor
from app.execution.persisted import PersistedOperation
from app.http.graphql import HttpRefusal, body_media_type, read_body, server_timing
from app.http.profiles import API_KEY_HEADER, Profiles
from app.http.tool_input import check_arguments
from app.observation import note_error, note_operation
from schema.contract import TOOLS, input_schema, output_schema

logger = logging.getLogger("isnad_graphql")
JSON = "application/json"


def _json(body: object, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type=JSON)


class ToolFailed(Exception):
    """A tool call's error of the closed set, as `/tools` and the MCP server both return it."""

    def __init__(self, code: str, message: str, alias: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.alias = alias

    @classmethod
    def of(cls, error: ApiError) -> "ToolFailed":
        return cls(error.code, error.message, error.alias)

    def body(self) -> dict[str, dict[str, str]]:
        """`{"error": {code, message, alias}}`, the alias only where the contract names one."""
        return {"error": {"code": self.code, "message": self.message} | ({"alias": self.alias} if self.alias else {})}


class Tools:
    def __init__(
        self,
        schema: GraphQLSchema,
        executor: Executor,
        documents: Documents,
        manifest: Mapping[str, PersistedOperation],
        profiles: Profiles,
        body_limit: int,
    ) -> None:
        self.body_limit = body_limit
        self.executor = executor
        self.documents = documents
        self.profiles = profiles
        self.operations = {op.name: op for op in manifest.values() if op.name in TOOLS}  # not the web's documents
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
        try:
            arguments = await self._arguments(request)
            output, timing = await self.run(request.path_params["name"], arguments, request.headers.get(API_KEY_HEADER))
        except HttpRefusal as refusal:
            note_error(refusal.error.code)
            return _json(ToolFailed.of(refusal.error).body(), refusal.status)
        except ToolFailed as failed:
            note_error(failed.code)
            return _json(failed.body(), status_of(failed.code))
        return Response(output, media_type=JSON, headers={"server-timing": timing})

    async def _arguments(self, request: Request) -> dict[str, Any]:
        if body_media_type(request) != JSON:  # a form or text/plain is what another site may send unasked
            raise HttpRefusal(415, InvalidInput("Send the tool's input as application/json."))
        try:
            arguments = orjson.loads(await read_body(request, self.body_limit) or b"{}")
        except orjson.JSONDecodeError:
            arguments = None
        if not isinstance(arguments, dict):
            raise ToolFailed.of(InvalidInput("The body must be the tool's input as a JSON object."))
        return arguments

    async def run(self, name: str, arguments: dict[str, Any], api_key: str | None) -> tuple[bytes, str]:
        """The tool's output (the JSON of `data.<tool>`) and its Server-Timing, for a client with
        `api_key`; raises `ToolFailed`."""
        try:
            return await self._run(name, arguments, api_key)
        except ApiError as error:
            raise ToolFailed.of(error) from None
        except ToolFailed:
            raise
        except Exception:  # masked, as errors.py masks what escapes a resolver: nothing internal is sent
            logger.exception("tool %s failed", name)
            raise ToolFailed.of(InternalError()) from None

    async def _run(self, name: str, arguments: dict[str, Any], api_key: str | None) -> tuple[bytes, str]:
        if name not in self.operations:
            raise NotFound(f"No tool is named {name!r}.")
        note_operation(name)
        self.profiles.for_key(api_key)  # every profile may call the tools; an unknown key is refused
        check_arguments(name, arguments)
        prepared = self.documents.prepare(self.operations[name].body)
        outcome = await self.executor.run(prepared, self.executor.admit(prepared, name, arguments))
        if outcome.errors:
            extensions = outcome.errors[0].extensions or {}
            code = extensions.get("code", ErrorCode.INTERNAL_ERROR)
            raise ToolFailed(code, outcome.errors[0].message, extensions.get("alias"))
        if outcome.data is None:
            raise QueryRejected("The tool returned nothing.")
        return orjson.dumps(outcome.data[name]), server_timing(outcome)
