"""The resolver `info` of this API: its context is app.execution.context.Context."""

from strawberry.types import Info as StrawberryInfo

from app.execution.context import Context

Info = StrawberryInfo[Context, None]
