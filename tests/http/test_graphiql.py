"""GraphiQL's page and its vendored files over HTTP: the page loads nothing but those files, each is
served with long cache headers, and each is the file its README's table describes."""

import hashlib
import re

import httpx

from app.http.graphiql import ASSETS_DIR, ASSETS_PATH, IMMUTABLE

BROWSER = {"accept": "text/html,application/xhtml+xml"}
MEDIA_TYPES = {".js": "text/javascript", ".css": "text/css"}


def vendored_names() -> set[str]:
    return {path.name for path in ASSETS_DIR.iterdir() if path.suffix in MEDIA_TYPES}


def readme_table() -> dict[str, tuple[int, str]]:
    """file -> (bytes, sha256), from the table of app/http/static/graphiql/README.md."""
    text = (ASSETS_DIR / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \|.*\| (\d+) \| `([0-9a-f]{64})` \|$", text, flags=re.MULTILINE)
    return {name: (int(size), digest) for name, size, digest in rows}


async def test_the_page_loads_only_the_vendored_files(client: httpx.AsyncClient) -> None:
    page = (await client.get("/graphql", headers=BROWSER)).text
    loaded = set(re.findall(r'(?:src|href)="([^"]+)"', page))

    assert loaded - {"data:,"} == {f"graphiql/static/{name}" for name in vendored_names()}
    assert "://" not in page


async def test_each_vendored_file_is_served_as_immutable(client: httpx.AsyncClient) -> None:
    for name in sorted(vendored_names()):
        response = await client.get(f"{ASSETS_PATH}/{name}")
        assert response.status_code == 200, name
        assert response.headers["content-type"].split(";")[0] == MEDIA_TYPES[name[name.rindex(".") :]]
        assert response.headers["cache-control"] == IMMUTABLE
        assert response.content == (ASSETS_DIR / name).read_bytes()


async def test_a_revalidated_file_is_not_modified(client: httpx.AsyncClient) -> None:
    first = await client.get(f"{ASSETS_PATH}/react-18.2.0.production.min.js")
    again = await client.get(
        f"{ASSETS_PATH}/react-18.2.0.production.min.js", headers={"if-none-match": first.headers["etag"]}
    )
    assert again.status_code == 304


async def test_an_unknown_file_is_not_found(client: httpx.AsyncClient) -> None:
    assert (await client.get(f"{ASSETS_PATH}/graphiql-0.0.0.min.js")).status_code == 404


def test_each_vendored_file_is_the_one_its_readme_describes() -> None:
    described = readme_table()
    assert set(described) == vendored_names()
    for name, (size, digest) in described.items():
        content = (ASSETS_DIR / name).read_bytes()
        assert (len(content), hashlib.sha256(content).hexdigest()) == (size, digest), name
