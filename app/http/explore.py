"""The explorer page (`/explore`): search a hadith, read its text and grades, and draw its isnad tree.

The page and its files (`app/http/static/explore/`: the page, its script and style, no library and no CDN) are
served by the API itself. The page asks the public GraphQL API only, through persisted documents: its documents
are web documents of the manifest (`persisted/web/explore_*.graphql`), embedded in the page by name (without the
prefix) with their sha256, which the page sends alone; the text goes only where a server does not know it.
"""

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

from app.execution.persisted import DEFAULT_DIR, WEB_FOLDER
from app.http.browser_policy import page_headers

HERE = Path(__file__).resolve().parent / "static" / "explore"
PREFIX = "explore_"  # the page's documents among the web's: persisted/web/explore_<name>.graphql
ASSETS_PATH = "/explore/static"
DOCUMENTS = "<!-- documents -->"


def _documents() -> str:
    """The page's documents by name, each with its text and the sha256 of its text."""
    found = {}
    for path in sorted((DEFAULT_DIR / WEB_FOLDER).glob(f"{PREFIX}*.graphql")):
        text = path.read_text(encoding="utf-8")
        found[path.stem.removeprefix(PREFIX)] = {"hash": hashlib.sha256(text.encode()).hexdigest(), "text": text}
    return json.dumps(found, ensure_ascii=False).replace("</", "<\\/")


PAGE = (HERE / "explore.html").read_text(encoding="utf-8").replace(DOCUMENTS, _documents())
PAGE_HEADERS = page_headers(PAGE)


async def page(_request: Request) -> HTMLResponse:
    return HTMLResponse(PAGE, headers=PAGE_HEADERS)


def explore_assets() -> StaticFiles:
    return StaticFiles(directory=HERE)
