"""Revalidation of cacheable answers: a strong ETag per representation, and 304 on If-None-Match.

An endpoint marks an answer revalidatable by giving it `strong_etag(body)`. `Revalidation` sits
outside compression: an answer that leaves compressed has its content coding added to its ETag
(`"<hash>-gzip"`), so each representation keeps a strong validator of its own. A GET or HEAD whose
If-None-Match names the ETag of the representation it would get is answered 304, with the validator
and the caching headers and no body.
"""

import hashlib

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

NOT_MODIFIED_HEADERS = frozenset({b"etag", b"cache-control", b"vary", b"expires", b"content-location", b"date"})


def strong_etag(body: bytes) -> str:
    """A strong validator of `body`: 128 bits of its SHA-256."""
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def etag_matches(if_none_match: str, etag: str) -> bool:
    """If-None-Match's weak comparison (RFC 9110 13.1.2): `*`, or any listed tag, W/ or not."""
    if if_none_match.strip() == "*":
        return True
    return etag.removeprefix("W/") in {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}


def _not_modified(start: Message) -> Message:
    headers = [(name, value) for name, value in start["headers"] if name.lower() in NOT_MODIFIED_HEADERS]
    return {"type": "http.response.start", "status": 304, "headers": headers}


class Revalidation:
    """ASGI middleware: per-representation ETags, and 304 for a GET or HEAD that already holds one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        if_none_match = Headers(scope=scope).get("if-none-match")
        not_modified = False

        async def revalidating(message: Message) -> None:
            nonlocal not_modified
            if message["type"] == "http.response.start" and message["status"] == 200:
                etag = _representation_etag(message)
                if etag is not None and if_none_match is not None and etag_matches(if_none_match, etag):
                    not_modified = True
                    message = _not_modified(message)
            elif message["type"] == "http.response.body" and not_modified:
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app(scope, receive, revalidating)


def _representation_etag(start: Message) -> str | None:
    """The answer's ETag, with its content coding added when it leaves compressed (set on `start`)."""
    headers = MutableHeaders(scope=start)
    etag = headers.get("etag")
    coding = headers.get("content-encoding")
    if etag is None or coding is None or not etag.endswith('"'):
        return etag
    headers["etag"] = f'{etag[:-1]}-{coding}"'
    return headers["etag"]
