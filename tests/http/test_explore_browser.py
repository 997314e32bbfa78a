"""The explorer page (/explore) in headless Chromium with every host but 127.0.0.1 unreachable: it searches
«إنما الأعمال بالنيات», opens Bukhari 1, and draws exactly the nodes of the API's isnad tree, a madar ringed where
the API gives one;
a narrator opens by the keyboard, and two ask how they are related; it reads at phone width; the layout of 50
chains takes under 200 ms. The page's documents are embedded with their sha256, which it sends first.

Set ISNAD_TEST_SCREENSHOTS to a folder to keep PNGs of what the browser rendered (never committed).
"""

import hashlib
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from app.http.explore import HERE
from ingest.run import ImportReport
from tests.chromium import Chromium, hosts, keep_screenshot
from tests.conftest import LIVE_SCHEMA
from tests.live_server import uvicorn_serving

NIYYAT = "إنما الأعمال بالنيات"
BUKHARI_1 = "bukhari:1"
DRAWN = "[...document.querySelectorAll('#tree .narrator-node')].map((g) => g.dataset.key)"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
SYNTHETIC = """(() => {
  const chains = [];
  for (let c = 0; c < 50; c++) {
    const keys = [];
    for (let p = 0; p < 8; p++) keys.push(p < 4 ? `narrator:${c * 10 + p}` : `narrator:${1000 + p + (c % 3)}`);
    chains.push({ chain_id: c, canonical_reference: `x:${c % 7}`, node_keys: keys });
  }
  const started = performance.now();
  window.explorer.layout({ chains });
  return performance.now() - started;
})()"""


@pytest.fixture(scope="module")
def api(imported: ImportReport, database_url: str) -> Iterator[str]:
    with uvicorn_serving(database_url, LIVE_SCHEMA) as base:
        yield base


def _document() -> str:
    return (HERE / "documents" / "hadith.graphql").read_text(encoding="utf-8")


def _api_tree(api: str, hadith_id: int) -> dict[str, Any]:
    body = httpx.post(f"{api}/graphql", json={"query": _document(), "variables": {"hadith_id": hadith_id}}).json()
    tree: dict[str, Any] = body["data"]["get_hadith"]["isnad_tree"]
    return tree


def _open_bukhari_1(api: str, browser: Chromium) -> int:
    browser.navigate(f"{api}/explore")
    browser.evaluate(f"document.getElementById('query').value = {json.dumps(NIYYAT)}")
    browser.evaluate("document.getElementById('search').requestSubmit()")
    browser.wait_for("document.getElementById('results').dataset.ready")
    browser.evaluate(f"document.querySelector('[data-reference=\"{BUKHARI_1}\"]').click()")
    return int(browser.wait_for("document.getElementById('tree').dataset.ready"))


def test_the_explorer_searches_and_draws_the_api_s_tree_with_its_madar(api: str, browser: Chromium) -> None:
    hadith_id = _open_bukhari_1(api, browser)
    drawn = browser.evaluate(DRAWN)
    madar = browser.evaluate("[...document.querySelectorAll('#tree .madar')].map((g) => g.dataset.key)")
    keep_screenshot(browser, "explore-niyyat-tree.png")

    tree = _api_tree(api, hadith_id)
    assert sorted(drawn) == sorted(node["key"] for node in tree["nodes"])
    assert madar == ([tree["madar"]["key"]] if tree["madar"] else [])
    assert browser.errors == [] and browser.failures == []
    assert hosts(browser.requests) == {urlsplit(api).netloc}
    documents = json.loads(browser.evaluate("document.getElementById('documents').textContent"))
    assert {name: doc["hash"] for name, doc in documents.items()} == {
        path.stem: hashlib.sha256(path.read_bytes()).hexdigest() for path in (HERE / "documents").glob("*.graphql")
    }
    assert {urlsplit(url).path for url in browser.requests} >= {
        "/explore",
        "/explore/static/explore.js",
        "/explore/static/explore.css",
        "/graphql",
    }


def test_a_narrator_opens_by_the_keyboard_and_two_show_their_relation_apart_from_observations(
    api: str, browser: Chromium
) -> None:
    _open_bukhari_1(api, browser)
    for key, name in (("narrator:11062", "Yahya bin Sa'id"), ("narrator:11213", "Muhammad bin Ibrahim")):
        browser.evaluate(f"document.querySelector('[data-key=\"{key}\"]').focus()")
        browser.evaluate(
            "document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}))"
        )
        browser.wait_for(f"document.getElementById('narrator').innerText.includes({json.dumps(name)})")
    shown = browser.wait_for(
        "!document.getElementById('relation').hidden && document.getElementById('relation').innerText"
    )
    profile = browser.evaluate("document.getElementById('narrator').innerText")
    keep_screenshot(browser, "explore-relation.png")

    assert "Muhammad bin Ibrahim" in profile
    assert "Relations recorded by a source" in shown and "Observed adjacent in chains" in shown
    assert "bukhari:1" in shown.split("Observed adjacent in chains")[1]
    assert browser.errors == []


def test_the_explorer_reads_at_phone_width(api: str, browser: Chromium) -> None:
    browser.call("Emulation.setDeviceMetricsOverride", **PHONE)
    _open_bukhari_1(api, browser)
    keep_screenshot(browser, "explore-phone.png")

    assert browser.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert browser.evaluate("getComputedStyle(document.getElementById('text-ar')).direction") == "rtl"


def test_the_layout_of_fifty_chains_takes_under_200_ms(api: str, browser: Chromium) -> None:
    browser.navigate(f"{api}/explore")

    assert browser.evaluate(SYNTHETIC) < 200
