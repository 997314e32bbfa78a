"""The resolver `info` of this API: its context is app.context.Context."""

from strawberry.types import Info as StrawberryInfo

from app.context import Context

Info = StrawberryInfo[Context, None]
