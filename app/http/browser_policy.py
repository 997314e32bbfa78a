"""What the API tells browsers besides its content: never to guess a type an answer does not declare (every
answer carries `X-Content-Type-Options: nosniff`), and, for its two pages (GraphiQL at `/graphql`, the explorer at
`/explore`), a Content-Security-Policy under which a page runs only this server's files and its own inline script
(allowed by its sha256, never any inline script), asks only this server, is never framed by another site, and
sends no referrer. Should anything a page shows ever carry markup, the browser would not run it.

Styles come from this server's files only, but on GraphiQL's page, whose dialogs (Radix's) add `<style>` elements
as they open: there they may be inline."""

import base64
import hashlib
import re

NOSNIFF = (b"x-content-type-options", b"nosniff")
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)  # a <script src=...> or a data block has attributes
_POLICY = (
    "default-src 'none'",
    "script-src 'self'{scripts}",
    "style-src 'self'{styles}",
    "connect-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
)


def _sha256_source(script: str) -> str:
    return f" 'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"


def page_headers(page: str, inline_styles: bool = False) -> dict[str, str]:
    """The headers of `page`, an HTML page served whole: its policy allows each of its inline scripts by hash, and
    any inline style where `inline_styles`."""
    scripts = "".join(_sha256_source(script) for script in _INLINE_SCRIPT.findall(page))
    styles = " 'unsafe-inline'" if inline_styles else ""
    return {
        "content-security-policy": "; ".join(_POLICY).format(scripts=scripts, styles=styles),
        "x-frame-options": "DENY",  # frame-ancestors, for browsers that predate it
        "referrer-policy": "no-referrer",
    }
