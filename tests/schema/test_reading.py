"""The reader: collections, books, chapters and hadith in the collection's order, a hadith's neighbours, a hadith
by its number, the hadith of the day, and the web's persisted pages that walk through them by GET."""

import json
import re
from typing import Any

import httpx
import pytest

from app.execution.persisted import DEFAULT_DIR, load_manifest
from schema.contract import TOOLS
from tests.graphql_client import data_of, execute

BOOK_HADITH = """query ($code: String!, $book: String!, $page: Int, $limit: Int) {
  collection(code: $code) { book(number: $book) { hadiths(page: $page, limit: $limit) {
    page truncated items { canonical_reference chapter { number } } } } } }"""
BOOKS = """query ($code: String!, $page: Int, $limit: Int) {
  collection(code: $code) { books(page: $page, limit: $limit) { page truncated items { number hadith_count } } } }"""
CHAPTERS = """query ($code: String!, $book: String!, $limit: Int) {
  collection(code: $code) { book(number: $book) { hadith_count chapters(limit: $limit) {
    truncated items { number hadith_count } } } } }"""
CHAPTER_HADITH = """query ($code: String!, $book: String!, $chapter: String!, $limit: Int) {
  collection(code: $code) { book(number: $book) { chapter(number: $chapter) { hadiths(limit: $limit) {
    truncated items { canonical_reference } } } } } }"""
NEIGHBOURS = """query ($id: Int!) { get_hadith(hadith_id: $id) {
  canonical_reference previous { canonical_reference } next { canonical_reference next { canonical_reference } } } }"""
BY_NUMBER = """query ($code: String!, $number: String!) {
  collection(code: $code) { hadith(number: $number) { hadith_id canonical_reference } } }"""
OF_THE_DAY = """query ($date: Date!, $collection_id: Int) {
  random_hadith(date: $date, collection_id: $collection_id) { hadith_id collection { code } } }"""
BOOK_TREE = """query ($limit: Int) { collection(code: "bukhari") { books(limit: $limit) { items {
  chapters(limit: $limit) { items { hadiths(limit: $limit) { items { canonical_reference } } } } } } } }"""
NEIGHBOURS_OF_A_PAGE = """query ($limit: Int) { collection(code: "muslim") { book(number: "1") {
  hadiths(limit: $limit) { items { canonical_reference previous { canonical_reference } next { canonical_reference } } }
} } }"""


def _collection(body: dict[str, Any]) -> Any:
    return data_of(body, "collection")


def _error(body: dict[str, Any]) -> tuple[str, str | None]:
    (error,) = body["errors"]
    return error["extensions"]["code"], error["extensions"].get("alias")


async def _book_hadith(client: httpx.AsyncClient, code: str, book: str, **page: int) -> Any:
    return _collection(await execute(client, BOOK_HADITH, code=code, book=book, **page))["book"]["hadiths"]


# --- collections ------------------------------------------------------------------------------------------


async def test_the_collections_are_listed_by_id_with_names_in_three_languages(client: httpx.AsyncClient) -> None:
    document = "{ collections { id code name name_ar name_fr hadith_count } }"
    collections = data_of(await execute(client, document), "collections")
    assert [c["code"] for c in collections] == [
        "bukhari",
        "muslim",
        "abudawud",
        "tirmidhi",
        "nasai",
        "ibnmajah",
        "malik",
        "nawawi40",
        "qudsi40",
        "shahwaliullah40",
    ]
    bukhari = collections[0]
    assert (bukhari["id"], bukhari["name"], bukhari["hadith_count"]) == (1, "Sahih al Bukhari", 37)
    assert bukhari["name_ar"] and bukhari["name_fr"]
    assert next(c for c in collections if c["code"] == "tirmidhi")["name_fr"] is None  # no French source


async def test_the_sources_of_a_collection_are_its_hadith_records_by_role(client: httpx.AsyncClient) -> None:
    document = (
        '{ collection(code: "bukhari") { hadith_count sources { role source_id edition_id language hadith_count } } }'
    )
    collection = _collection(await execute(client, document))
    sources = {
        (s["role"], s["source_id"], s["edition_id"]): (s["language"], s["hadith_count"]) for s in collection["sources"]
    }
    assert sources[("text_ar", "hadith-json", "hadith-json-bukhari")] == ("ar", collection["hadith_count"])
    assert sources[("text_fr", "hadith-api", "fra-bukhari")][0] == "fr"
    assert sources[("chapter", "lk-corpus", None)] == (None, 27)  # the hadith of its 25 chapters


async def test_an_unknown_collection_code_is_not_found(client: httpx.AsyncClient) -> None:
    body = await execute(client, '{ collection(code: "ahmed") { id } }')
    assert _error(body) == ("NOT_FOUND", "not_found")
    assert body["data"] is None


# --- books, chapters and their hadith, in order ------------------------------------------------------------


async def test_books_come_in_the_collections_order_and_page_on(client: httpx.AsyncClient) -> None:
    first = _collection(await execute(client, BOOKS, code="bukhari", page=1, limit=3))["books"]
    second = _collection(await execute(client, BOOKS, code="bukhari", page=2, limit=3))["books"]
    assert (first["page"], first["truncated"], [b["number"] for b in first["items"]]) == (1, True, ["1", "2", "10"])
    numbers = [b["number"] for b in second["items"]]
    assert (second["page"], second["truncated"], numbers) == (2, False, ["14", "24", "65"])


async def test_muslims_lettered_numbers_come_in_their_order(client: httpx.AsyncClient) -> None:
    page = await _book_hadith(client, "muslim", "1", page=1, limit=8)
    assert [h["canonical_reference"] for h in page["items"]] == [
        "muslim:8a",
        "muslim:8b",
        "muslim:8c",
        "muslim:8d",
        "muslim:8e",
        "muslim:9",
        "muslim:10",  # hadith-json cuts its English at a bracket: numbered by the same opening (english_contained)
        "muslim:11a",
    ]
    assert page["truncated"] is True
    following = await _book_hadith(client, "muslim", "1", page=2, limit=8)
    assert [h["canonical_reference"] for h in following["items"][:2]] == ["muslim:11b", "muslim:12a"]


async def test_a_chapter_lists_its_own_hadith_in_order(client: httpx.AsyncClient) -> None:
    body = await execute(client, CHAPTER_HADITH, code="muslim", book="1", chapter="1", limit=10)
    hadiths = _collection(body)["book"]["chapter"]["hadiths"]
    assert [h["canonical_reference"] for h in hadiths["items"]] == ["muslim:8a", "muslim:8b", "muslim:8c", "muslim:8d"]
    assert hadiths["truncated"] is False


async def test_a_book_without_chapters_lists_no_chapter_and_still_its_hadith(client: httpx.AsyncClient) -> None:
    book = _collection(await execute(client, CHAPTERS, code="malik", book="1", limit=100))["book"]
    assert book["chapters"] == {"truncated": False, "items": []}
    page = await _book_hadith(client, "malik", "1", limit=50)
    assert len(page["items"]) == book["hadith_count"] > 0
    assert {h["chapter"] for h in page["items"]} == {None}


async def test_chapters_come_in_the_books_order(client: httpx.AsyncClient) -> None:
    book = _collection(await execute(client, CHAPTERS, code="bukhari", book="2", limit=5))["book"]
    assert [c["number"] for c in book["chapters"]["items"]] == ["2", "3", "4", "5", "6"]
    assert book["chapters"]["truncated"] is True


# --- neighbours, numbers, the hadith of the day -----------------------------------------------------------


async def test_a_hadith_has_its_neighbours_in_the_collections_order(client: httpx.AsyncClient) -> None:
    first = data_of(await execute(client, NEIGHBOURS, id=100001), "get_hadith")
    assert first == {
        "canonical_reference": "bukhari:1",
        "previous": None,
        "next": {"canonical_reference": "bukhari:2", "next": {"canonical_reference": "bukhari:3"}},
    }
    across = data_of(await execute(client, NEIGHBOURS, id=100007), "get_hadith")  # the last of book 1
    assert (across["previous"], across["next"]["canonical_reference"]) == (
        {"canonical_reference": "bukhari:6"},
        "bukhari:8",
    )
    last = data_of(await execute(client, NEIGHBOURS, id=1000040), "get_hadith")
    assert (last["canonical_reference"], last["next"]) == ("shahwaliullah40:40", None)


async def test_a_hadith_is_found_by_its_canonical_number_letters_included(client: httpx.AsyncClient) -> None:
    found = _collection(await execute(client, BY_NUMBER, code="muslim", number="8b"))["hadith"]
    assert found == {"hadith_id": 200093, "canonical_reference": "muslim:8b"}
    missing = await execute(client, BY_NUMBER, code="muslim", number="8")  # the 8a, 8b ... group is no number
    assert _error(missing) == ("NOT_FOUND", "not_found")


async def test_the_hadith_of_the_day_is_the_same_for_a_date_and_a_collection(client: httpx.AsyncClient) -> None:
    days = [f"2026-12-{day:02d}" for day in range(1, 11)]
    picks = [data_of(await execute(client, OF_THE_DAY, date=day), "random_hadith") for day in days]
    again = [data_of(await execute(client, OF_THE_DAY, date=day), "random_hadith") for day in days]
    assert picks == again
    assert len({pick["hadith_id"] for pick in picks}) > 5
    muslim = [data_of(await execute(client, OF_THE_DAY, date=day, collection_id=2), "random_hadith") for day in days]
    assert {pick["collection"]["code"] for pick in muslim} == {"muslim"}


@pytest.mark.parametrize(
    ("variables", "refusal"),
    [
        ({"date": "2026-12-01", "collection_id": 99}, ("NOT_FOUND", "not_found")),
        ({"date": "2026-12-01", "collection_id": 0}, ("INVALID_INPUT", "invalid_id")),
    ],
)
async def test_the_hadith_of_the_day_of_no_collection_is_refused(
    client: httpx.AsyncClient, variables: dict[str, Any], refusal: tuple[str, str]
) -> None:
    assert _error(await execute(client, OF_THE_DAY, **variables)) == refusal


# --- what does not exist, and the bounds --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "variables", "path"),
    [
        (CHAPTERS, {"code": "bukhari", "book": "98"}, ["collection", "book"]),
        (CHAPTER_HADITH, {"code": "bukhari", "book": "1", "chapter": "2"}, ["collection", "book", "chapter"]),
        (BY_NUMBER, {"code": "bukhari", "number": "8a"}, ["collection", "hadith"]),
    ],
)
async def test_a_book_chapter_or_number_that_does_not_exist_is_not_found(
    client: httpx.AsyncClient, document: str, variables: dict[str, Any], path: list[Any]
) -> None:
    body = await execute(client, document, **variables)
    assert _error(body) == ("NOT_FOUND", "not_found")
    assert body["errors"][0]["path"] == path


@pytest.mark.parametrize(
    ("document", "variables", "refusal"),
    [
        (BOOKS, {"code": "bukhari", "limit": 101}, ("LIMIT_EXCEEDED", "limit_exceeded")),
        (BOOKS, {"code": "bukhari", "limit": 0}, ("INVALID_INPUT", "invalid_input")),
        (CHAPTERS, {"code": "bukhari", "book": "2", "limit": 101}, ("LIMIT_EXCEEDED", "limit_exceeded")),
        (BOOK_HADITH, {"code": "bukhari", "book": "1", "limit": 51}, ("LIMIT_EXCEEDED", "limit_exceeded")),
        (BOOK_HADITH, {"code": "bukhari", "book": "1", "page": 0}, ("INVALID_INPUT", "invalid_page")),
        (BOOKS, {"code": "bukhari", "page": 100_001}, ("INVALID_INPUT", "invalid_page")),
        (
            CHAPTER_HADITH,
            {"code": "muslim", "book": "1", "chapter": "1", "limit": 51},
            ("LIMIT_EXCEEDED", "limit_exceeded"),
        ),
    ],
)
async def test_an_out_of_bounds_page_or_limit_is_refused(
    client: httpx.AsyncClient, document: str, variables: dict[str, Any], refusal: tuple[str, str]
) -> None:
    body = await execute(client, document, **variables)
    assert _error(body) == refusal
    assert body.get("data") is None or not body["data"]["collection"]


async def test_a_page_beyond_the_last_is_empty(client: httpx.AsyncClient) -> None:
    page = await _book_hadith(client, "bukhari", "1", page=3, limit=5)
    assert page == {"page": 3, "truncated": False, "items": []}


# --- statements ---------------------------------------------------------------------------------------------


async def _statements(client: httpx.AsyncClient, statements: list[str], document: str, **variables: Any) -> int:
    await execute(client, document, **variables)  # warms what is read once per process (the source catalog)
    statements.clear()
    body = await execute(client, document, **variables)
    assert "errors" not in body, body["errors"]
    return len(statements)


def _count(value: Any, key: str) -> int:
    """How many objects under `key` a response holds (to be sure that the larger page reached further)."""
    if isinstance(value, list):
        return sum(_count(item, key) for item in value)
    if isinstance(value, dict):
        return sum((1 if name == key and item else 0) + _count(item, key) for name, item in value.items())
    return 0


@pytest.mark.parametrize(
    ("document", "limits", "expected"),
    [
        # collection; books; chapters; the chapters' hadith pages; those hadith
        (BOOK_TREE, (1, 5), 5),
        # collection; book; the page; its hadith; their neighbours; the neighbours not on the page (the one
        # before muslim:8a, the introduction's last, on both)
        (NEIGHBOURS_OF_A_PAGE, (1, 20), 6),
    ],
)
async def test_the_statements_of_the_readers_lists_do_not_grow_with_the_page(
    client: httpx.AsyncClient, statements: list[str], document: str, limits: tuple[int, int], expected: int
) -> None:
    small, large = limits
    assert await _statements(client, statements, document, limit=small) == expected
    assert await _statements(client, statements, document, limit=large) == expected
    smaller, larger = [await execute(client, document, limit=n) for n in limits]
    assert 0 < _count(smaller, "canonical_reference") < _count(larger, "canonical_reference")


# --- the web's pages, persisted and read by GET -----------------------------------------------------------


def _web_ids() -> dict[str, str]:
    return {op.name: op.id for op in load_manifest(DEFAULT_DIR).values() if op.name.startswith("web_")}


async def _page(client: httpx.AsyncClient, name: str, **variables: Any) -> tuple[Any, int, int]:
    """The page's data by persisted GET, its SQL statements (Server-Timing) and its cost, once warm."""
    params = {"documentId": f"sha256:{_web_ids()[name]}", "variables": json.dumps(variables)}
    await client.get("/graphql", params=params)
    response = await client.get("/graphql", params=params)
    assert response.status_code == 200
    assert response.headers["cache-control"].startswith("public, max-age=")
    body = response.json()
    assert "errors" not in body, body["errors"]
    match = re.search(r'desc="(\d+) statements"', response.headers["server-timing"])
    assert match is not None
    cost = body["extensions"]["cost"]
    assert cost["requested"]["cost"] <= cost["maximum"]["cost"]
    assert cost["requested"]["nodes"] <= cost["maximum"]["nodes"]
    return body["data"], int(match[1]), cost["requested"]["cost"]


async def test_a_web_page_is_not_a_tool(client: httpx.AsyncClient) -> None:
    listed = (await client.get("/tools")).json()["tools"]
    assert [tool["name"] for tool in listed] == list(TOOLS)
    response = await client.post("/tools/web_home", json={"date": "2026-12-01"})
    assert (response.status_code, response.json()["error"]["code"]) == (404, "NOT_FOUND")


async def test_a_reader_walks_from_bukhari_to_a_chapters_hadith_and_the_next_by_get(client: httpx.AsyncClient) -> None:
    home, home_statements, home_cost = await _page(client, "web_home", date="2026-12-01")
    bukhari = next(c for c in home["collections"] if c["name"] == "Sahih al Bukhari")
    collection, collection_statements, collection_cost = await _page(client, "web_collection", code=bukhari["code"])
    first_book = collection["collection"]["books"]["items"][0]
    book, book_statements, book_cost = await _page(client, "web_book", code="bukhari", book=first_book["number"])
    first_chapter = book["collection"]["book"]["chapters"]["items"][0]
    chapter, chapter_statements, chapter_cost = await _page(
        client, "web_chapter", code="bukhari", book=first_book["number"], chapter=first_chapter["number"]
    )
    first_hadith = chapter["collection"]["book"]["chapter"]["hadiths"]["items"][0]
    hadith, hadith_statements, hadith_cost = await _page(client, "web_hadith", hadith_id=first_hadith["hadith_id"])
    following, next_statements, _ = await _page(
        client, "web_hadith", hadith_id=hadith["get_hadith"]["next"]["hadith_id"]
    )

    assert (first_book["number"], first_book["title_en"], first_chapter["number"]) == ("1", "Revelation", "1")
    assert first_hadith["canonical_reference"] == "bukhari:1"
    assert following["get_hadith"]["canonical_reference"] == "bukhari:2"
    assert following["get_hadith"]["previous"]["canonical_reference"] == "bukhari:1"
    statements = [home_statements, collection_statements, book_statements, chapter_statements, hadith_statements]
    assert [*statements, next_statements] == [4, 3, 5, 5, 3, 3]
    assert [home_cost, collection_cost, book_cost, chapter_cost, hadith_cost] == [126, 114, 128, 18, 19]
