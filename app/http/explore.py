"""The explorer page (`/explore`): search a hadith, read its text and grades, and draw its isnad tree.

The page and its files (`app/http/static/explore/`: the page, its script and style, no library and no CDN) are
served by the API itself. The page asks the public GraphQL API only, through persisted documents: the
documents of `app/http/static/explore/documents/` are embedded in the page with their sha256, which the page sends
alone first (Apollo's automatic persisted queries), and with the text only when the server does not know it.
"""

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

HERE = Path(__file__).resolve().parent / "static" / "explore"
ASSETS_PATH = "/explore/static"
DOCUMENTS = "<!-- documents -->"


def _documents() -> str:
    """The page's documents by name, each with its text and the sha256 of its text."""
    found = {}
    for path in sorted((HERE / "documents").glob("*.graphql")):
        text = path.read_text(encoding="utf-8")
        found[path.stem] = {"hash": hashlib.sha256(text.encode()).hexdigest(), "text": text}
    return json.dumps(found, ensure_ascii=False).replace("</", "<\\/")


PAGE = (HERE / "explore.html").read_text(encoding="utf-8").replace(DOCUMENTS, _documents())


async def page(_request: Request) -> HTMLResponse:
    return HTMLResponse(PAGE)


def explore_assets() -> StaticFiles:
    return StaticFiles(directory=HERE)
