"""The HTTP edge: /graphql, /tools, /mcp, GraphiQL, admission, rate limits, the request log."""
