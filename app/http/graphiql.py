"""GraphiQL without the internet: the IDE's page and the files it loads, all served by the API itself.

The page (`app/http/graphiql.html`) is what `/graphql` answers a browser. It loads only the vendored,
pinned files of `app/http/static/graphiql/` (GraphiQL, its Explorer plugin, React and ReactDOM; versions,
sources, licences and sha256 in that folder's README), by paths relative to the page, so a deployment
behind a firewall or under a path prefix gets a working IDE. Each file's name carries its version, so
the files are cached for a year as immutable: a new version is a new name.
"""

import os
from pathlib import Path

from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

from app.http.browser_policy import page_headers

HERE = Path(__file__).resolve().parent
ASSETS_DIR = HERE / "static" / "graphiql"
ASSETS_PATH = "/graphiql/static"
IMMUTABLE = "public, max-age=31536000, immutable"
PAGE = (HERE / "graphiql.html").read_text(encoding="utf-8")
PAGE_HEADERS = page_headers(PAGE, inline_styles=True)  # its dialogs add <style> elements


def graphiql_page() -> HTMLResponse:
    return HTMLResponse(PAGE, headers=PAGE_HEADERS)


class VendoredFiles(StaticFiles):
    """The vendored files, with long cache headers (StaticFiles adds ETag and Last-Modified)."""

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = IMMUTABLE
        return response


def graphiql_assets() -> VendoredFiles:
    return VendoredFiles(directory=ASSETS_DIR)
