"""Sending documents to the app, as a client would: the persisted tool documents, or any document."""

from pathlib import Path
from typing import Any

import httpx

PERSISTED = Path(__file__).resolve().parent.parent / "persisted"


def tool_document(tool: str) -> str:
    return (PERSISTED / f"{tool}.graphql").read_text(encoding="utf-8")


async def execute(client: httpx.AsyncClient, document: str, **variables: Any) -> dict[str, Any]:
    response = await client.post("/graphql", json={"query": document, "variables": variables})
    body: dict[str, Any] = response.json()
    return body


async def call_tool(client: httpx.AsyncClient, tool: str, **variables: Any) -> dict[str, Any]:
    """The tool's persisted document with these arguments; returns the whole GraphQL response."""
    return await execute(client, tool_document(tool), **variables)
