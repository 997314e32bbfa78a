"""The resolver `info` of this API: its context is app.execution.context.Context."""

from strawberry.types import Info as StrawberryInfo

from app.execution.context import Context
from schema.common import Sources

Info = StrawberryInfo[Context, None]


async def sources(info: Info) -> Sources:
    """The source catalog that provenance cites (loaded once per engine)."""
    return await info.context.sources.load(info.context.db)
