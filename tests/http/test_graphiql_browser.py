"""GraphiQL in headless Chromium with every host but 127.0.0.1 unreachable: the IDE renders from the
API's own files, loads the schema, runs a query whose answer it shows, and opens its dialogs, all within the
page's Content-Security-Policy. And a page on another origin that calls the API, as web frontends do (it
needs CORS).

Set ISNAD_TEST_SCREENSHOTS to a folder to keep PNGs of what the browser rendered.
"""

import json
from collections.abc import Iterator
from urllib.parse import quote, urlsplit

import pytest

from app.http.graphiql import ASSETS_DIR, ASSETS_PATH
from ingest.run import ImportReport
from tests.chromium import Chromium, hosts, keep_screenshot
from tests.conftest import LIVE_SCHEMA
from tests.cross_origin import page_elsewhere
from tests.live_server import api_serving

QUERY = "{ get_hadith(hadith_id: 100001) { hadith_id canonical_reference } }"
RESULT_TEXT = """(() => {
  const editor = document.querySelector('.result-window .CodeMirror');
  const text = editor && editor.CodeMirror.getValue();
  return text && text.includes('"data"') ? text : null;
})()"""
EXECUTE = "document.querySelector('.graphiql-execute-button')"


@pytest.fixture(scope="module")
def api(imported: ImportReport, database_url: str) -> Iterator[str]:
    with api_serving(database_url, LIVE_SCHEMA) as base:
        yield base


def test_graphiql_runs_a_query_with_no_host_but_the_api(api: str, browser: Chromium) -> None:
    browser.navigate(f"{api}/graphql?q={quote(QUERY)}")
    browser.wait_for(f"{EXECUTE} !== null")
    browser.evaluate(f"{EXECUTE}.click()")
    answer = json.loads(browser.wait_for(RESULT_TEXT))
    keep_screenshot(browser, "graphiql-query-result.png")

    assert answer["data"] == {"get_hadith": {"hadith_id": 100001, "canonical_reference": "bukhari:1"}}
    assert browser.errors == []
    assert browser.failures == []
    assert hosts(browser.requests) == {urlsplit(api).netloc}
    vendored = {f"{ASSETS_PATH}/{path.name}" for path in ASSETS_DIR.iterdir() if path.suffix in (".js", ".css")}
    assert vendored <= {urlsplit(url).path for url in browser.requests}


def test_graphiql_opens_on_a_default_query_that_runs(api: str, browser: Chromium) -> None:
    browser.navigate(f"{api}/graphql")
    browser.wait_for(f"{EXECUTE} !== null")
    browser.evaluate(f"{EXECUTE}.click()")
    answer = json.loads(browser.wait_for(RESULT_TEXT))
    keep_screenshot(browser, "graphiql-default-query.png")

    assert "errors" not in answer
    assert answer["data"]["get_hadith"]["canonical_reference"] == "bukhari:1"
    assert answer["data"]["get_hadith"]["text_ar"]
    assert browser.errors == []


def test_graphiql_explorer_lists_the_schema_s_root_fields(api: str, browser: Chromium) -> None:
    browser.navigate(f"{api}/graphql")
    browser.wait_for(f"{EXECUTE} !== null")
    browser.evaluate("document.querySelector('[aria-label=\"Show GraphiQL Explorer\"]').click()")
    shown = browser.wait_for(
        "(() => { const pane = document.querySelector('.graphiql-explorer-root');"
        " return pane && pane.innerText.includes('search_narrator') ? pane.innerText : null })()"
    )
    keep_screenshot(browser, "graphiql-explorer.png")

    fields = {"search_hadith", "get_hadith", "get_hadith_chains", "search_narrator", "get_narrator_profile"}
    fields |= {"get_narrator_hadiths", "get_transmission_relation", "get_hadith_commentary"}
    assert fields <= set(shown.split())
    assert browser.errors == []
    assert hosts(browser.requests) == {urlsplit(api).netloc}


def test_graphiql_opens_its_dialogs_within_the_page_s_policy(api: str, browser: Chromium) -> None:
    """The settings dialog adds a <style> element as it opens: the page's policy lets it, and breaks nothing."""
    browser.navigate(f"{api}/graphql")
    browser.wait_for(f"{EXECUTE} !== null")
    browser.evaluate("document.querySelector('[aria-label=\"Open settings dialog\"]').click()")
    shown = browser.wait_for("(() => { const d = document.querySelector('[role=dialog]'); return d && d.innerText })()")

    assert "Settings" in shown
    assert browser.errors == []


def test_a_page_on_another_origin_calls_the_api_by_post_and_by_get(
    imported: ImportReport, database_url: str, browser: Chromium
) -> None:
    with page_elsewhere() as origin, api_serving(database_url, LIVE_SCHEMA, ISNAD_CORS_ORIGINS=origin) as api:
        browser.navigate(f"{origin}/?api={quote(api)}")
        browser.wait_for("document.body.dataset.done === 'yes'")
        shown = browser.evaluate("['post', 'get'].map((id) => document.getElementById(id).textContent)")
        keep_screenshot(browser, "cross-origin-page.png")

    assert shown == ["bukhari:1", "bukhari:1"]
