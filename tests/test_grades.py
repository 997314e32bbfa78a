"""A hadith's grades on the web schema: each one as its source words it, with its grader, class, status and
record; bounded like every list; one statement per batch of hadith; and outside the persisted tool documents."""

from typing import Any

import httpx
import pytest

from app.limits import NAVIGATION
from app.persisted import DEFAULT_DIR, read_documents
from tests.graphql_client import data_of, execute, nfc, provenance, tool_data

GRADES = """query ($id: Int!, $limit: Int) { get_hadith(hadith_id: $id) { grades(limit: $limit) {
    items { grader grade grade_class evidence_status provenance { object_id object_type source_type source_id
    source_key source_title edition_id citation locator } } truncated } } }"""
ABUDAWUD_1 = 300001
NASAI_1 = 500001


def _api(hadith: int, edition: str, number: int, grader: str, grade: str, grade_class: str) -> dict[str, Any]:
    """A grade of a hadith-api record: the record names the grader, and is the hadith's by its number."""
    record = provenance(hadith, "hadith", "hadith-api", source_key=f"{edition}#{number}", edition_id=edition)
    return _grade(grader, grade, grade_class, "fact", record)


def _lk(hadith: int, row: str, grade: str, grade_class: str) -> dict[str, Any]:
    """The LK corpus grade of the row linked to the hadith by its Arabic text: an inference."""
    record = provenance(hadith, "hadith", "lk-corpus", source_key=row)
    return _grade("LK corpus annotation", grade, grade_class, "inference", record)


def _grade(grader: str, grade: str, grade_class: str, status: str, record: dict[str, Any]) -> dict[str, Any]:
    return {
        "grader": grader,
        "grade": grade,
        "grade_class": grade_class,
        "evidence_status": status,
        "provenance": [record],
    }


# ara-abudawud.jsonl.gz hadith_number 1 and AbuDaud.csv.gz Chapter1.csv#1 (Arabic_Grade), as they read.
ABUDAWUD_1_GRADES = [
    _api(ABUDAWUD_1, "ara-abudawud", 1, "Al-Albani", "Hasan Sahih", "hasan_sahih"),
    _api(ABUDAWUD_1, "ara-abudawud", 1, "Muhammad Muhyi Al-Din Abdul Hamid", "Hasan Sahih", "hasan_sahih"),
    _api(ABUDAWUD_1, "ara-abudawud", 1, "Shuaib Al Arnaut", "Sahih Lighairihi", "sahih_li_ghayrihi"),
    _api(ABUDAWUD_1, "ara-abudawud", 1, "Zubair Ali Zai", "Isnaad Hasan", "hasan_isnad"),
    _lk(ABUDAWUD_1, "AbuDaud/Chapter1.csv#1", "حسن صحيح", "hasan_sahih"),
]
# ara-nasai.jsonl.gz hadith_number 1: Zubair Ali Zai refers the hadith to Sahih Muslim.
NASAI_1_GRADES = [
    _api(NASAI_1, "ara-nasai", 1, "Abu Ghuddah", "Sahih", "sahih"),
    _api(NASAI_1, "ara-nasai", 1, "Al-Albani", "Sahih", "sahih"),
    _api(NASAI_1, "ara-nasai", 1, "Zubair Ali Zai", "Sahih Muslim", "in_sahihayn"),
    _lk(NASAI_1, "Nesai/Chapter1.csv#1", "صحيح", "sahih"),
]


async def _grades(client: httpx.AsyncClient, hadith: int, limit: int | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = data_of(await execute(client, GRADES, id=hadith, limit=limit), "get_hadith")["grades"]
    return answer


@pytest.mark.parametrize(("hadith", "expected"), [(ABUDAWUD_1, ABUDAWUD_1_GRADES), (NASAI_1, NASAI_1_GRADES)])
async def test_a_hadith_lists_each_grade_as_its_source_words_it(
    client: httpx.AsyncClient, hadith: int, expected: list[dict[str, Any]]
) -> None:
    grades = await _grades(client, hadith, NAVIGATION.maximum)

    assert nfc(grades) == nfc({"items": expected, "truncated": False})


async def test_the_default_limit_cuts_the_list_and_says_so(client: httpx.AsyncClient) -> None:
    assert nfc(await _grades(client, ABUDAWUD_1, 2)) == nfc({"items": ABUDAWUD_1_GRADES[:2], "truncated": True})
    assert len((await _grades(client, ABUDAWUD_1))["items"]) == NAVIGATION.default == len(ABUDAWUD_1_GRADES)


@pytest.mark.parametrize(("limit", "code"), [(NAVIGATION.maximum + 1, "LIMIT_EXCEEDED"), (0, "INVALID_INPUT")])
async def test_a_limit_out_of_bounds_is_refused_never_capped(client: httpx.AsyncClient, limit: int, code: str) -> None:
    body = await execute(client, GRADES, id=ABUDAWUD_1, limit=limit)

    assert [error["extensions"]["code"] for error in body["errors"]] == [code]
    assert (body.get("data") or {}).get("get_hadith") is None


ROOT_GRADES = "h%d: get_hadith(hadith_id: %d) { grades(limit: 20) { items { grader grade grade_class } } }"
SEARCH_GRADES = """query ($limit: Int) { search_hadith(query: "حدثنا", limit: $limit) {
    results { hadith { grades { items { grade grade_class } } } } } }"""


async def _statements(client: httpx.AsyncClient, statements: list[str], document: str, **variables: Any) -> int:
    """The statements of one request, after an identical request has warmed the source catalog."""
    await execute(client, document, **variables)
    statements.clear()
    body = await execute(client, document, **variables)
    assert "errors" not in body, body["errors"]
    return len(statements)


async def test_the_grades_of_one_or_five_hadith_are_one_statement(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    def document(ids: tuple[int, ...]) -> str:
        return "query { " + " ".join(ROOT_GRADES % (hadith, hadith) for hadith in ids) + " }"

    hadith = (300001, 300002, 400001, 500001, 600270)
    one = await _statements(client, statements, document(hadith[:1]))
    five = await _statements(client, statements, document(hadith))

    assert one == five == 2  # the hadith, then their grades
    assert sum("hadith_grade" in statement for statement in statements) == 1


async def test_the_grades_of_1_or_10_search_hits_cost_the_same(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    one = await _statements(client, statements, SEARCH_GRADES, limit=1)
    ten = await _statements(client, statements, SEARCH_GRADES, limit=10)

    assert one == ten
    assert sum("hadith_grade" in statement for statement in statements) == 1


async def test_the_persisted_tools_leave_grades_out(client: httpx.AsyncClient) -> None:
    assert [op.name for op in read_documents(DEFAULT_DIR) if "grades" in op.body] == []
    assert "grades" not in await tool_data(client, "get_hadith", hadith_id=ABUDAWUD_1)
