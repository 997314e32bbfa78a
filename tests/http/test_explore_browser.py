"""The explorer page (/explore) in headless Chromium with every host but 127.0.0.1 unreachable: it searches
«إنما الأعمال بالنيات», opens Bukhari 1, and draws exactly the nodes of the API's isnad tree, a madar ringed where
the API gives one;
a narrator opens by the keyboard, and two ask how they are related; a narrator's teachers and students are the
API's, a possible relation shown apart from an attested one, and each opens that narrator; it reads at phone
width; the layout of 50 chains takes under 200 ms. The page's documents are the manifest's (persisted/web/explore_*),
embedded with their sha256, which it sends alone: the API here takes persisted documents only.

Set ISNAD_TEST_SCREENSHOTS to a folder to keep PNGs of what the browser rendered (never committed).
"""

import asyncio
import hashlib
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from app.execution.persisted import DEFAULT_DIR, WEB_FOLDER, load_manifest
from app.http.explore import PREFIX
from ingest.run import ImportReport
from tests.chromium import Chromium, hosts, keep_screenshot
from tests.conftest import LIVE_SCHEMA
from tests.graphql_client import rows
from tests.live_server import api_serving

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
    """The API as a deployment that takes persisted documents only: the explorer's are the manifest's."""
    with api_serving(database_url, LIVE_SCHEMA, ISNAD_DEFAULT_CLIENT_MODE="persisted") as base:
        yield base


SHOWN = """[...document.querySelectorAll('#narrator [data-side="%s"] li')].map((li) => [
  Number(li.dataset.narrator), li.dataset.status, li.querySelector('.status').textContent,
  li.querySelector('button').textContent, getComputedStyle(li).borderInlineStartStyle])"""
# A narrator whose first ten teachers hold an attested and a probable relation.
MIXED_TEACHERS = """SELECT student_id AS id FROM transmission_relation WHERE teacher_id <> student_id GROUP BY 1
 HAVING bool_or(status = 'attested') AND bool_or(status = 'probable') AND count(*) <= 10 ORDER BY 1 LIMIT 1"""


def _document(name: str) -> str:
    return (DEFAULT_DIR / WEB_FOLDER / f"{PREFIX}{name}.graphql").read_text(encoding="utf-8")


def _api(api: str, name: str, **variables: Any) -> dict[str, Any]:
    """The answer to the explorer's document `name`, sent by its hash alone."""
    document_id = hashlib.sha256(_document(name).encode()).hexdigest()
    body = httpx.post(f"{api}/graphql", json={"documentId": f"sha256:{document_id}", "variables": variables}).json()
    assert "errors" not in body, body["errors"]
    data: dict[str, Any] = body["data"]
    return data


def _api_tree(api: str, hadith_id: int) -> dict[str, Any]:
    tree: dict[str, Any] = _api(api, "hadith", hadith_id=hadith_id)["get_hadith"]["isnad_tree"]
    return tree


def _shown(browser: Chromium, side: str) -> list[list[Any]]:
    shown: list[list[Any]] = browser.evaluate(SHOWN % side)
    return shown


def _open_narrator(browser: Chromium, narrator_id: int, how: str) -> None:
    browser.evaluate(how)
    browser.wait_for(f"document.getElementById('narrator').dataset.ready === '{narrator_id}'")


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
        op.name.removeprefix(PREFIX): op.id for op in load_manifest(DEFAULT_DIR).values() if op.name.startswith(PREFIX)
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


def test_a_narrator_lists_the_api_s_teachers_and_students_and_a_teacher_opens_in_turn(
    api: str, browser: Chromium
) -> None:
    _open_bukhari_1(api, browser)
    _open_narrator(
        browser, 11062, "document.querySelector('[data-key=\"narrator:11062\"]').dispatchEvent(new Event('click'))"
    )
    profile = _api(api, "narrator", narrator_id=11062)["get_narrator_profile"]
    teachers, students = _shown(browser, "teachers"), _shown(browser, "students")
    browser.evaluate("document.querySelector('#narrator [data-side=\"teachers\"]').scrollIntoView()")
    keep_screenshot(browser, "explore-teachers.png")

    for shown, side, other in ((teachers, "teachers", "teacher"), (students, "students", "student")):
        answer = profile[side]["items"]
        assert [(item[0], item[1]) for item in shown] == [(r[f"{other}_id"], r["relation_status"]) for r in answer]
        assert [item[3] for item in shown] == [r[other]["canonical_display"] for r in answer]
        heading = browser.evaluate(
            f"document.querySelector('#narrator [data-side=\"{side}\"]').previousSibling.textContent"
        )
        assert str(profile[side]["count"]) in heading
    first = teachers[0][0]
    _open_narrator(browser, first, "document.querySelector('#narrator [data-side=\"teachers\"] button').click()")
    relation = browser.wait_for("document.getElementById('relation').dataset.ready")
    opened = _api(api, "narrator", narrator_id=first)["get_narrator_profile"]

    assert browser.evaluate("document.activeElement.tagName + ' ' + document.activeElement.textContent") == (
        f"H3 {opened['identity']['canonical_display']}"
    )
    assert relation == f"11062 {first}"
    assert "attested" in browser.evaluate("document.getElementById('relation').innerText")
    assert browser.errors == [] and browser.failures == []


def test_a_possible_relation_is_shown_apart_from_an_attested_one(
    api: str, browser: Chromium, database_url: str
) -> None:
    (mixed,) = asyncio.run(rows(database_url, MIXED_TEACHERS))
    browser.navigate(f"{api}/explore")
    _open_narrator(browser, mixed["id"], f"window.explorer.openNarrator({mixed['id']})")
    shown = _shown(browser, "teachers")
    keep_screenshot(browser, "explore-possible.png")

    attested = [item for item in shown if item[1] == "attested"]
    probable = [item for item in shown if item[1] == "probable"]
    assert attested and probable and shown == attested + probable
    assert {(item[2], item[4]) for item in attested} == {("attested", "solid")}
    assert {(item[2], item[4]) for item in probable} == {("possible (the source says probable)", "dashed")}


def test_the_explorer_reads_at_phone_width(api: str, browser: Chromium) -> None:
    browser.call("Emulation.setDeviceMetricsOverride", **PHONE)
    _open_bukhari_1(api, browser)
    keep_screenshot(browser, "explore-phone.png")
    _open_narrator(
        browser, 11062, "document.querySelector('[data-key=\"narrator:11062\"]').dispatchEvent(new Event('click'))"
    )
    browser.evaluate("document.querySelector('#narrator [data-side=\"students\"]').scrollIntoView()")
    keep_screenshot(browser, "explore-phone-narrator.png")

    assert browser.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert browser.evaluate("getComputedStyle(document.getElementById('text-ar')).direction") == "rtl"


def test_the_layout_of_fifty_chains_takes_under_200_ms(api: str, browser: Chromium) -> None:
    browser.navigate(f"{api}/explore")

    assert browser.evaluate(SYNTHETIC) < 200
