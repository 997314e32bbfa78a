"""The eight tools over the Model Context Protocol, with the official SDK's low-level server: Streamable
HTTP at `/mcp` (stateless, JSON answers, so any worker serves any request) and stdio
(`isnad-graphql mcp --stdio`, for desktop agents).

Each tool's input and output schemas are the contract's, as `GET /tools` gives them. A call runs through
`Tools.run`, the path of `POST /tools/{name}`: the same profiles, input checks and limits. Its structured
content (and its one text block) is the JSON `/tools` returns; an error is a tool error (`isError`)
whose structured content is `/tools`' `{"error": {code, message, alias}}`. Over HTTP the `X-API-Key`
header chooses the profile; stdio carries no header, so it gets the default profile.
"""

from contextlib import AbstractAsyncContextManager
from importlib.metadata import version
from typing import Any

import mcp_types as types
import orjson
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from app.http.profiles import API_KEY_HEADER
from app.http.tools import ToolFailed, Tools
from app.observation import note_error

SERVER_NAME = "isnad-graphql"
READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def mcp_server(tools: Tools) -> Server[Any]:
    """An MCP server that lists the eight tools and calls them through `tools`."""
    listed = types.ListToolsResult(
        tools=[
            types.Tool(
                name=tool["name"],
                description=tool["description"],
                input_schema=tool["input_schema"],
                output_schema=tool["output_schema"],
                annotations=READ_ONLY,
            )
            for tool in tools.definitions()
        ]
    )

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listed

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        api_key = ctx.request.headers.get(API_KEY_HEADER) if isinstance(ctx.request, Request) else None
        try:
            output, _timing = await tools.run(params.name, params.arguments or {}, api_key)
        except ToolFailed as failed:
            note_error(failed.code)
            error = failed.body()
            return _result(error, orjson.dumps(error), is_error=True)
        return _result(orjson.loads(output), output, is_error=False)

    return Server(SERVER_NAME, version=version("isnad-graphql"), on_list_tools=list_tools, on_call_tool=call_tool)


def _result(structured: dict[str, Any], text: bytes, is_error: bool) -> types.CallToolResult:
    content = types.TextContent(text=text.decode())
    return types.CallToolResult(content=[content], structured_content=structured, is_error=is_error)


class McpEndpoint:
    """The ASGI endpoint of `/mcp`; `running()` belongs in the app's lifespan."""

    def __init__(self, tools: Tools, body_limit: int) -> None:
        self.manager = StreamableHTTPSessionManager(
            mcp_server(tools), json_response=True, stateless=True, max_request_body_size=body_limit
        )

    def running(self) -> AbstractAsyncContextManager[None]:
        return self.manager.run()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.manager.handle_request(scope, receive, send)


async def serve_stdio(tools: Tools) -> None:
    """Serve the tools over stdin and stdout until the client closes stdin."""
    server = mcp_server(tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
