"""A hadith's grades on the web schema: each one as its source words it, with its grader, class, status and
record; bounded like every list; one statement per batch of hadith; and outside the persisted tool documents."""

from typing import Any

import httpx
import pytest

from app.execution.persisted import DEFAULT_DIR, read_documents
from app.limits import NAVIGATION
from schema.contract import TOOLS
from tests.graphql_client import data_of, execute, nfc, provenance, rows, tool_data

GRADES = """query ($id: Int!, $limit: Int) { get_hadith(hadith_id: $id) { grades(limit: $limit) {
    items { grader grade grade_class evidence_status provenance { object_id object_type source_type source_id
    source_key source_title edition_id citation locator } } truncated } } }"""
ABUDAWUD_1 = 300001
NASAI_1 = 500001
NASAI_331 = 500332  # the crosswalk found its English more than once (english_exact_ambiguous)
NUMBERING = "SELECT source_key FROM hadith_source_record WHERE hadith_id = $1 AND role = 'numbering'"
Grade = tuple[str, str, str, str]  # status, grader, grade, class
Expected = tuple[str, int, list[Grade], str, list[Grade]]  # edition, number, its grades; LK row, its grades

# ara-<code>.jsonl.gz `grades` of the hadith_number, and the LK corpus row's Arabic_Grade, as they read.
EXPECTED: dict[int, Expected] = {
    ABUDAWUD_1: (
        "ara-abudawud",
        1,
        [
            ("fact", "Al-Albani", "Hasan Sahih", "hasan_sahih"),
            ("fact", "Muhammad Muhyi Al-Din Abdul Hamid", "Hasan Sahih", "hasan_sahih"),
            ("fact", "Shuaib Al Arnaut", "Sahih Lighairihi", "sahih_li_ghayrihi"),
            ("fact", "Zubair Ali Zai", "Isnaad Hasan", "hasan_isnad"),
        ],
        "AbuDaud/Chapter1.csv#1",
        [("inference", "LK corpus annotation", "حسن صحيح", "hasan_sahih")],
    ),
    NASAI_1: (  # Zubair Ali Zai refers the hadith to Sahih Muslim
        "ara-nasai",
        1,
        [
            ("fact", "Abu Ghuddah", "Sahih", "sahih"),
            ("fact", "Al-Albani", "Sahih", "sahih"),
            ("fact", "Zubair Ali Zai", "Sahih Muslim", "in_sahihayn"),
        ],
        "Nesai/Chapter1.csv#1",
        [("inference", "LK corpus annotation", "صحيح", "sahih")],
    ),
    NASAI_331: (  # linked by an English text found more than once: an inference
        "ara-nasai",
        331,
        [
            ("inference", "Abu Ghuddah", "Sahih", "sahih"),
            ("inference", "Al-Albani", "Sahih", "sahih"),
            ("inference", "Zubair Ali Zai", "Sahih", "sahih"),
        ],
        "Nesai/Chapter2.csv#332",
        [("inference", "LK corpus annotation", "صحيح", "sahih")],
    ),
}


def _grade(grade: Grade, records: list[dict[str, Any]]) -> dict[str, Any]:
    status, grader, wording, grade_class = grade
    return {
        "grader": grader,
        "grade": wording,
        "grade_class": grade_class,
        "evidence_status": status,
        "provenance": records,
    }


async def _expected(database_url: str, hadith: int) -> list[dict[str, Any]]:
    """The hadith's grades: each hadith-api one cited with its record and the fawaz English record that the
    crosswalk paired with the hadith (the same number), each LK one with its row."""
    edition, number, api_grades, lk_row, lk_grades = EXPECTED[hadith]
    (numbering,) = await rows(database_url, NUMBERING, hadith)
    assert numbering["source_key"] == f"eng-{edition.removeprefix('ara-')}#{number}"
    api = provenance(hadith, "hadith", "hadith-api", source_key=f"{edition}#{number}", edition_id=edition)
    crosswalk = provenance(hadith, "hadith", "fawaz-hadith", source_key=numbering["source_key"])
    lk = provenance(hadith, "hadith", "lk-corpus", source_key=lk_row)
    return [_grade(grade, [api, crosswalk]) for grade in api_grades] + [_grade(grade, [lk]) for grade in lk_grades]


async def _grades(client: httpx.AsyncClient, hadith: int, limit: int | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = data_of(await execute(client, GRADES, id=hadith, limit=limit), "get_hadith")["grades"]
    return answer


@pytest.mark.parametrize("hadith", sorted(EXPECTED))
async def test_a_hadith_lists_each_grade_as_its_source_words_it(
    client: httpx.AsyncClient, database_url: str, hadith: int
) -> None:
    expected = await _expected(database_url, hadith)

    assert nfc(await _grades(client, hadith, NAVIGATION.maximum)) == nfc({"items": expected, "truncated": False})


async def test_the_default_limit_holds_all_five_grades_and_two_cut_the_list(
    client: httpx.AsyncClient, database_url: str
) -> None:
    expected = await _expected(database_url, ABUDAWUD_1)

    assert nfc(await _grades(client, ABUDAWUD_1)) == nfc({"items": expected, "truncated": False})
    assert nfc(await _grades(client, ABUDAWUD_1, 2)) == nfc({"items": expected[:2], "truncated": True})
    assert len(expected) == NAVIGATION.default


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
    assert [op.name for op in read_documents(DEFAULT_DIR) if op.name in TOOLS and "grades" in op.body] == []
    assert "grades" not in await tool_data(client, "get_hadith", hadith_id=ABUDAWUD_1)
