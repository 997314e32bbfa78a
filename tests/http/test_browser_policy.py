"""Every answer tells browsers not to guess its type; the two pages carry a Content-Security-Policy that lets
them run only this server's files and their own inline script, ask only this server, and never be framed.
That the pages still work under it, with no breach, is checked in Chromium (test_graphiql_browser.py,
test_explore_browser.py)."""

import base64
import hashlib
from html.parser import HTMLParser

import httpx
import pytest

from app.http.graphiql import ASSETS_PATH
from tests.graphql_client import SAMPLE_CALLS

HTML = {"accept": "text/html"}


class _InlineScripts(HTMLParser):
    """The text of each <script> the page runs from its own markup: no `src`, no data block's `type`."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._inside = tag == "script" and not dict(attrs).keys() & {"src", "type"}
        if self._inside:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._inside = False

    def handle_data(self, data: str) -> None:
        if self._inside:
            self.scripts[-1] += data


def _directives(policy: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in policy.split(";"))}


def _inline_script_sources(page: str) -> list[str]:
    parser = _InlineScripts()
    parser.feed(page)
    return [f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in parser.scripts]


@pytest.mark.parametrize(
    ("path", "inline_scripts", "styles"),
    [("/graphql", 1, ["'self'", "'unsafe-inline'"]), ("/explore", 0, ["'self'"])],
)
async def test_a_page_runs_only_the_servers_files_and_its_own_inline_script(
    client: httpx.AsyncClient, path: str, inline_scripts: int, styles: list[str]
) -> None:
    response = await client.get(path, headers=HTML)
    policy = _directives(response.headers["content-security-policy"])
    hashes = _inline_script_sources(response.text)

    assert response.headers["content-type"].startswith("text/html")
    assert len(hashes) == inline_scripts
    assert policy["script-src"] == ["'self'", *hashes]
    assert policy["style-src"] == styles
    assert policy["default-src"] == ["'none'"]
    assert policy["connect-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


async def test_every_answer_tells_browsers_not_to_guess_its_type(client: httpx.AsyncClient) -> None:
    answers = [
        await client.get("/graphql", headers=HTML),
        await client.post("/graphql", json={"query": "{ __typename }"}),
        await client.post("/graphql", json={"query": "{ nothing_here }"}),
        await client.post("/tools/get_hadith", json=SAMPLE_CALLS["get_hadith"]),
        await client.get("/tools"),
        await client.get("/explore"),
        await client.get(f"{ASSETS_PATH}/graphiql-3.9.0.min.js"),
        await client.get("/explore/static/explore.js"),
        await client.get("/healthz"),
        await client.get("/readyz"),
        await client.get("/metrics"),
        await client.get("/nowhere"),
    ]

    assert {(answer.request.url.path, answer.headers.get("x-content-type-options")) for answer in answers} == {
        (answer.request.url.path, "nosniff") for answer in answers
    }
