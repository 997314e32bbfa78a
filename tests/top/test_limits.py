"""Every list bound (contract section D), read from app/limits.py: a null limit takes the default, a
limit below 1 is INVALID_INPUT, the hard max is accepted, and above it LIMIT_EXCEEDED (never a
silent cap). The richest cases of the imported subset are found by SQL, so the default is seen to cut."""

from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from app import limits
from app.limits import ListBound
from ingest.run import ImportReport
from tests.graphql_client import execute, rows, tool_document

INT_MAX = 2**31 - 1

# The contract's table (CONTRACT.md, "The eight root fields"), plus the navigation lists.
CONTRACT = {
    "search_hadith": (5, 20),
    "get_hadith_chains": (5, 20),
    "search_narrator": (5, 20),
    "get_narrator_profile": (10, 20),
    "get_narrator_hadiths": (10, 50),
    "get_transmission_relation": (10, 20),
    "get_hadith_commentary": (5, 20),
    "Hadith.chains": (5, 20),
    "NarratorSummary.hadiths": (5, 20),
    "NarratorProfile.teachers": (10, 50),
    "NarratorProfile.students": (10, 50),
    "Collection.books": (20, 100),
    "Book.chapters": (20, 100),
    "Book.hadiths": (10, 50),
    "Chapter.hadiths": (10, 50),
}
BOUNDS: dict[str, ListBound] = {
    "search_hadith": limits.SEARCH_HADITH,
    "get_hadith_chains": limits.HADITH_CHAINS,
    "search_narrator": limits.SEARCH_NARRATOR,
    "get_narrator_profile": limits.NARRATOR_ENTRIES,
    "get_narrator_hadiths": limits.NARRATOR_HADITHS,
    "get_transmission_relation": limits.TRANSMISSION_RELATION,
    "get_hadith_commentary": limits.HADITH_COMMENTARY,
    "Hadith.chains": limits.HADITH_CHAINS,
    "NarratorSummary.hadiths": limits.NAVIGATION,
    "NarratorProfile.teachers": limits.NARRATOR_RELATIONS,
    "NarratorProfile.students": limits.NARRATOR_RELATIONS,
    "Collection.books": limits.READING_LIST,
    "Book.chapters": limits.READING_LIST,
    "Book.hadiths": limits.READING_HADITH,
    "Chapter.hadiths": limits.READING_HADITH,
}
# Where the subset holds more items than the default, so that a null limit is seen to cut.
CUT_BY_DEFAULT = {
    "search_hadith",
    "search_narrator",
    "get_narrator_profile",
    "get_narrator_hadiths",
    "NarratorSummary.hadiths",
    "NarratorProfile.teachers",
    "NarratorProfile.students",
    "Book.chapters",
    "Book.hadiths",
    "Chapter.hadiths",
}

HADITH_CHAINS_DOCUMENT = """
query hadith_chains($hadith_id: Int!, $limit: Int) {
  get_hadith(hadith_id: $hadith_id) { chains(limit: $limit) { chains { chain_id } truncated } }
}"""
NARRATOR_HADITHS_DOCUMENT = """
query narrator_hadiths($narrator_a_id: Int!, $narrator_b_id: Int!, $limit: Int) {
  get_transmission_relation(
    narrator_a_id: $narrator_a_id, narrator_b_id: $narrator_b_id, include_chain_observations: false
  ) { relations { student { narrator_id hadiths(limit: $limit) { items { hadith_id } truncated } } } }
}"""
TEACHING_DOCUMENT = """
query teaching($narrator_id: Int!, $limit: Int) {
  get_narrator_profile(narrator_id: $narrator_id) { %s(limit: $limit) { count items { teacher_id } truncated } }
}"""
# The narrator with the most teachers (as the student) or students (as the teacher).
MOST_RELATIONS = (
    "SELECT {his} AS id, count(*) AS n FROM transmission_relation WHERE teacher_id <> student_id"
    " GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1"
)
# The reader's lists, each asked where SQL finds the most items.
BOOK = "$code: String!, $book: String!, $limit: Int"
READER_LISTS = {
    "Collection.books": ("$code: String!, $limit: Int", "books(limit: $limit) { items { id } truncated }"),
    "Book.chapters": (BOOK, "book(number: $book) { chapters(limit: $limit) { items { id } truncated } }"),
    "Book.hadiths": (BOOK, "book(number: $book) { hadiths(limit: $limit) { items { hadith_id } truncated } }"),
    "Chapter.hadiths": (
        BOOK + ", $chapter: String!",
        "book(number: $book) { chapter(number: $chapter) {"
        " hadiths(limit: $limit) { items { hadith_id } truncated } } }",
    ),
}

MOST_CHAINS = "SELECT hadith_id AS id, count(*) AS n FROM chain GROUP BY hadith_id ORDER BY n DESC, id LIMIT 1"
MOST_ENTRIES = (
    "SELECT l.narrator_id AS id, count(*) AS n FROM narrator_notice_link l"
    " WHERE (SELECT count(*) FROM narrator_name_variant v WHERE v.narrator_id = l.narrator_id) <= $1"
    " GROUP BY l.narrator_id ORDER BY n DESC, id LIMIT 1"
)
MOST_OCCURRENCES = (
    "SELECT narrator_id AS id, count(*) AS n FROM chain_node WHERE resolution_status = 'confirmed'"
    " GROUP BY narrator_id ORDER BY n DESC, id LIMIT 1"
)
MOST_PASSAGES = (
    "SELECT hadith_id AS id, count(*) AS n FROM public_commentary_passage WHERE hadith_id IS NOT NULL"
    " GROUP BY hadith_id ORDER BY n DESC, id LIMIT 1"
)
MOST_ADJACENT_PAIR = (
    "SELECT least(l.narrator_id, u.narrator_id) AS a, greatest(l.narrator_id, u.narrator_id) AS b"
    " FROM chain_node l JOIN chain_node u ON u.chain_id = l.chain_id AND u.position = l.position + 1"
    " WHERE l.narrator_id <> u.narrator_id GROUP BY 1, 2 ORDER BY count(*) DESC, a, b LIMIT 1"
)
# The reader's richest collection (books), book (chapters, hadith) and chapter (hadith), with the counts of each.
MOST_BOOKS = (
    "SELECT c.code, count(*) AS n FROM book b JOIN collection c USING (collection_id)"
    " GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1"
)
MOST_CHAPTERS = (
    "SELECT c.code, b.number, count(*) AS n FROM chapter ch JOIN book b USING (book_id) JOIN collection c"
    " USING (collection_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 1"
)
MOST_BOOK_HADITH = (
    "SELECT c.code, b.number, b.hadith_count AS n FROM book b JOIN collection c USING (collection_id)"
    " ORDER BY 3 DESC, 1, 2 LIMIT 1"
)
MOST_CHAPTER_HADITH = (
    "SELECT c.code, b.number AS book, ch.number, ch.hadith_count AS n FROM chapter ch JOIN book b USING (book_id)"
    " JOIN collection c USING (collection_id) ORDER BY 4 DESC, 1, 2, 3 LIMIT 1"
)
# A teacher/student pair recorded once, whose student occurs confirmed in the most hadith.
PROLIFIC_STUDENT = """
WITH single AS (
  SELECT min(teacher_id) AS teacher_id, min(student_id) AS student_id FROM transmission_relation
  GROUP BY least(teacher_id, student_id), greatest(teacher_id, student_id) HAVING count(*) = 1),
hadiths AS (
  SELECT n.narrator_id, count(DISTINCT c.hadith_id) AS n FROM chain_node n JOIN chain c USING (chain_id)
  WHERE n.resolution_status = 'confirmed' GROUP BY n.narrator_id)
SELECT s.teacher_id, s.student_id, h.n FROM single s JOIN hadiths h ON h.narrator_id = s.student_id
ORDER BY h.n DESC, s.teacher_id, s.student_id LIMIT 1"""


@dataclass(frozen=True)
class Case:
    document: str
    variables: dict[str, Any]
    owner: tuple[str | int, ...]  # the field that takes the limit (an error's path)
    lists: tuple[str, ...]  # the lists it bounds, under the owner ("" = the owner is the list)
    total: int | None = None  # how many items exist, where one list is bounded and SQL counts them

    def items(self, data: Any) -> list[list[Any]]:
        owner = value_at(data, self.owner)
        return [owner if name == "" else owner[name] for name in self.lists]


def value_at(data: Any, path: tuple[str | int, ...]) -> Any:
    """The value at `path`, or None where the path meets a null."""
    for step in path:
        if data is None:
            return None
        data = data[step]
    return data


@pytest.fixture(scope="session")
async def cases(imported: ImportReport, database_url: str) -> dict[str, Case]:
    (chains,) = await rows(database_url, MOST_CHAINS)
    (entries,) = await rows(database_url, MOST_ENTRIES, limits.NAME_VARIANTS_MAX)
    (occurrences,) = await rows(database_url, MOST_OCCURRENCES)
    (passages,) = await rows(database_url, MOST_PASSAGES)
    (pair,) = await rows(database_url, MOST_ADJACENT_PAIR)
    (student,) = await rows(database_url, PROLIFIC_STUDENT)
    relation = student["teacher_id"], student["student_id"]
    return {
        **await _reader_cases(database_url),
        **await _teaching_cases(database_url),
        "search_hadith": Case(tool_document("search_hadith"), {"query": "حدثنا"}, ("search_hadith",), ("results",)),
        "search_narrator": Case(tool_document("search_narrator"), {"query": "Abu"}, ("search_narrator",), ("results",)),
        "get_hadith_chains": Case(
            tool_document("get_hadith_chains"),
            {"hadith_id": chains["id"]},
            ("get_hadith_chains",),
            ("chains",),
            chains["n"],
        ),
        "get_narrator_profile": Case(
            tool_document("get_narrator_profile"),
            {"narrator_id": entries["id"]},
            ("get_narrator_profile",),
            ("source_entries",),
            entries["n"],
        ),
        "get_narrator_hadiths": Case(
            tool_document("get_narrator_hadiths"),
            {"narrator_id": occurrences["id"]},
            ("get_narrator_hadiths",),
            ("items",),
            occurrences["n"],
        ),
        "get_transmission_relation": Case(
            tool_document("get_transmission_relation"),
            {"narrator_a_id": pair["a"], "narrator_b_id": pair["b"], "include_chain_observations": True},
            ("get_transmission_relation",),
            ("relations", "chain_observations"),
        ),
        "get_hadith_commentary": Case(
            tool_document("get_hadith_commentary"),
            {"hadith_id": passages["id"]},
            ("get_hadith_commentary",),
            ("passages",),
            passages["n"],
        ),
        "Hadith.chains": Case(
            HADITH_CHAINS_DOCUMENT, {"hadith_id": chains["id"]}, ("get_hadith", "chains"), ("chains",), chains["n"]
        ),
        "NarratorSummary.hadiths": Case(
            NARRATOR_HADITHS_DOCUMENT,
            {"narrator_a_id": relation[0], "narrator_b_id": relation[1]},
            ("get_transmission_relation", "relations", 0, "student", "hadiths"),
            ("items",),
            student["n"],
        ),
    }


def _reader_case(name: str, owner: tuple[str, ...], variables: dict[str, Any], total: int) -> Case:
    declared, selection = READER_LISTS[name]
    document = f"query reader({declared}) {{ collection(code: $code) {{ {selection} }} }}"
    return Case(document, variables, ("collection", *owner), ("items",), total)


async def _teaching_cases(database_url: str) -> dict[str, Case]:
    found = {}
    for side, his in (("teachers", "student_id"), ("students", "teacher_id")):
        (most,) = await rows(database_url, MOST_RELATIONS.format(his=his))
        document = TEACHING_DOCUMENT % side
        owner = ("get_narrator_profile", side)
        found[f"NarratorProfile.{side}"] = Case(document, {"narrator_id": most["id"]}, owner, ("items",), most["n"])
    return found


async def _reader_cases(database_url: str) -> dict[str, Case]:
    (books,) = await rows(database_url, MOST_BOOKS)
    (chapters,) = await rows(database_url, MOST_CHAPTERS)
    (book,) = await rows(database_url, MOST_BOOK_HADITH)
    (chapter,) = await rows(database_url, MOST_CHAPTER_HADITH)
    return {
        "Collection.books": _reader_case("Collection.books", ("books",), {"code": books["code"]}, books["n"]),
        "Book.chapters": _reader_case(
            "Book.chapters", ("book", "chapters"), {"code": chapters["code"], "book": chapters["number"]}, chapters["n"]
        ),
        "Book.hadiths": _reader_case(
            "Book.hadiths", ("book", "hadiths"), {"code": book["code"], "book": book["number"]}, book["n"]
        ),
        "Chapter.hadiths": _reader_case(
            "Chapter.hadiths",
            ("book", "chapter", "hadiths"),
            {"code": chapter["code"], "book": chapter["book"], "chapter": chapter["number"]},
            chapter["n"],
        ),
    }


async def _send(client: httpx.AsyncClient, name: str, case: Case, limit: int | None) -> dict[str, Any]:
    return await execute(client, case.document, **case.variables, **{BOUNDS[name].argument: limit})


def _only_error(body: dict[str, Any]) -> dict[str, Any]:
    errors = body.get("errors") or []
    assert len(errors) == 1, errors
    error: dict[str, Any] = errors[0]
    return error


def test_the_bounds_are_the_contracts() -> None:
    assert {name: (bound.default, bound.maximum) for name, bound in BOUNDS.items()} == CONTRACT


def test_every_bound_of_app_limits_is_tested_here() -> None:
    declared = {name for name, value in vars(limits).items() if isinstance(value, ListBound)}
    tested = {name for name, value in vars(limits).items() if any(value is bound for bound in BOUNDS.values())}
    assert declared == tested


@pytest.mark.parametrize("name", sorted(BOUNDS))
async def test_a_null_limit_takes_the_default(client: httpx.AsyncClient, cases: dict[str, Case], name: str) -> None:
    bound, case = BOUNDS[name], cases[name]
    at_max = await _send(client, name, case, bound.maximum)
    assert "errors" not in at_max, at_max["errors"]
    available = [len(items) for items in case.items(at_max["data"])]

    body = await _send(client, name, case, None)

    assert "errors" not in body, body["errors"]
    assert [len(items) for items in case.items(body["data"])] == [min(n, bound.default) for n in available]
    owner = value_at(body["data"], case.owner)
    if isinstance(owner, dict) and "truncated" in owner:
        assert owner["truncated"] is any(n > bound.default for n in available)
    if name in CUT_BY_DEFAULT:
        assert max(available) > bound.default, "the subset no longer has more items than the default here"


@pytest.mark.parametrize("name", sorted(BOUNDS))
async def test_a_left_out_limit_is_a_null_limit(client: httpx.AsyncClient, cases: dict[str, Case], name: str) -> None:
    case = cases[name]
    left_out = await execute(client, case.document, **case.variables)
    null = await _send(client, name, case, None)
    assert left_out == null


@pytest.mark.parametrize("name", sorted(BOUNDS))
async def test_the_hard_max_is_accepted(client: httpx.AsyncClient, cases: dict[str, Case], name: str) -> None:
    bound, case = BOUNDS[name], cases[name]

    body = await _send(client, name, case, bound.maximum)

    assert "errors" not in body, body["errors"]
    counts = [len(items) for items in case.items(body["data"])]
    assert all(count <= bound.maximum for count in counts)
    if case.total is not None:
        assert counts == [min(case.total, bound.maximum)]


@pytest.mark.parametrize("name", sorted(BOUNDS))
@pytest.mark.parametrize("limit", [0, -1])
async def test_a_limit_below_one_is_invalid_input(
    client: httpx.AsyncClient, cases: dict[str, Case], name: str, limit: int
) -> None:
    case = cases[name]

    body = await _send(client, name, case, limit)

    error = _only_error(body)
    assert error["extensions"] == {"code": "INVALID_INPUT", "alias": "invalid_input"}
    assert BOUNDS[name].argument in error["message"]
    assert value_at(body.get("data"), case.owner) is None
    if "path" in error:
        assert tuple(error["path"]) == case.owner


@pytest.mark.parametrize("name", sorted(BOUNDS))
@pytest.mark.parametrize("over", ["max+1", "int max"])
async def test_a_limit_over_the_max_is_refused_never_capped(
    client: httpx.AsyncClient, cases: dict[str, Case], name: str, over: str
) -> None:
    bound, case = BOUNDS[name], cases[name]
    limit = bound.maximum + 1 if over == "max+1" else INT_MAX

    body = await _send(client, name, case, limit)

    error = _only_error(body)
    assert error["extensions"] == {"code": "LIMIT_EXCEEDED", "alias": "limit_exceeded"}
    assert str(bound.maximum) in error["message"]
    assert value_at(body.get("data"), case.owner) is None
    if "path" in error:
        assert tuple(error["path"]) == case.owner


INTROSPECT_BOUNDED = """
{ __schema { types { name fields { name args { name } type { kind name ofType { kind name ofType { kind name
  ofType { kind name } } } } } } } }"""


def _named(type_ref: dict[str, Any]) -> tuple[str, bool]:
    """The named type under NON_NULL/LIST wrappers, and whether a LIST wraps it."""
    is_list = False
    while type_ref["name"] is None:
        is_list = is_list or type_ref["kind"] == "LIST"
        type_ref = type_ref["ofType"]
    return type_ref["name"], is_list


async def test_every_bounded_list_says_when_it_is_cut(client: httpx.AsyncClient) -> None:
    """Contract D: a result cut by its limit carries `truncated`; a bare list cannot say it was cut."""
    body = await execute(client, INTROSPECT_BOUNDED)
    types = {t["name"]: t for t in body["data"]["__schema"]["types"]}
    bounded = {bound.argument for bound in BOUNDS.values()}
    silent = []
    for type_ in types.values():
        for field in type_["fields"] or ():
            if not bounded & {arg["name"] for arg in field["args"]}:
                continue
            named, is_list = _named(field["type"])
            fields = {f["name"] for f in types[named]["fields"] or ()}
            if is_list or "truncated" not in fields:
                silent.append(f"{type_['name']}.{field['name']}")
    assert silent == []
