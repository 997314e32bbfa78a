"""Each of the eight tools answers through the ASGI app over the imported subset."""

import httpx
import pytest

from tests.graphql_client import SAMPLE_CALLS, call_tool


@pytest.mark.parametrize("tool", sorted(SAMPLE_CALLS))
async def test_every_tool_answers(client: httpx.AsyncClient, tool: str) -> None:
    body = await call_tool(client, tool, **SAMPLE_CALLS[tool])
    assert "errors" not in body, body
    assert body["data"][tool] is not None
