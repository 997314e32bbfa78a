"""Every error each tool can raise, in the closed set with its contract alias (CONTRACT.md section C);
bad input of every kind never leaks SQL, a table or column name, a stack trace or a driver's name;
and the server keeps serving after errors."""

import json
import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from app.errors import ErrorCode
from app.limits import NARRATOR_HADITHS, SEARCH_HADITH
from migrations_readonly_check.live import documented_columns
from resolvers.arguments import MAX_PAGE, MAX_QUERY_LENGTH
from tests.conftest import REPO
from tests.graphql_client import call_tool, execute, tool_document

CLOSED_SET = {code.value for code in ErrorCode}
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
HADITH, NARRATOR, OTHER_NARRATOR = 100001, 13, 11062
NO_HADITH, NO_NARRATOR = 999999, 99999999

GOOD: dict[str, dict[str, Any]] = {
    "search_hadith": {"query": "إنما الأعمال بالنيات"},
    "get_hadith": {"hadith_id": HADITH},
    "get_hadith_chains": {"hadith_id": HADITH},
    "search_narrator": {"query": "Abu Hurairah"},
    "get_narrator_profile": {"narrator_id": NARRATOR},
    "get_narrator_hadiths": {"narrator_id": NARRATOR},
    "get_transmission_relation": {"narrator_a_id": NARRATOR, "narrator_b_id": OTHER_NARRATOR},
    "get_hadith_commentary": {"hadith_id": HADITH},
}


def _with(tool: str, **changes: Any) -> tuple[str, dict[str, Any]]:
    return tool, {**GOOD[tool], **changes}


def only_error(body: dict[str, Any]) -> dict[str, Any]:
    errors = body.get("errors") or []
    assert len(errors) == 1, errors
    error: dict[str, Any] = errors[0]
    return error


ERRORS: list[tuple[str, tuple[str, dict[str, Any]], str, str | None]] = [
    # (case, (tool, variables), code, alias)
    ("hadith_id 0", _with("get_hadith", hadith_id=0), "INVALID_INPUT", "invalid_id"),
    ("hadith_id -5", _with("get_hadith", hadith_id=-5), "INVALID_INPUT", "invalid_id"),
    ("chains hadith_id 0", _with("get_hadith_chains", hadith_id=0), "INVALID_INPUT", "invalid_id"),
    ("commentary hadith_id -1", _with("get_hadith_commentary", hadith_id=-1), "INVALID_INPUT", "invalid_id"),
    ("narrator_id 0", _with("get_narrator_profile", narrator_id=0), "INVALID_INPUT", "invalid_id"),
    ("hadiths narrator_id 0", _with("get_narrator_hadiths", narrator_id=0), "INVALID_INPUT", "invalid_id"),
    ("narrator_a_id 0", _with("get_transmission_relation", narrator_a_id=0), "INVALID_INPUT", "invalid_id"),
    ("narrator_b_id -2", _with("get_transmission_relation", narrator_b_id=-2), "INVALID_INPUT", "invalid_id"),
    ("collection_id 0", _with("search_hadith", collection_id=0), "INVALID_INPUT", "invalid_id"),
    ("hadith 999999", _with("get_hadith", hadith_id=NO_HADITH), "NOT_FOUND", "not_found"),
    ("chains of 999999", _with("get_hadith_chains", hadith_id=NO_HADITH), "NOT_FOUND", "not_found"),
    ("commentary of 999999", _with("get_hadith_commentary", hadith_id=NO_HADITH), "NOT_FOUND", "not_found"),
    ("narrator 99999999", _with("get_narrator_profile", narrator_id=NO_NARRATOR), "NOT_FOUND", "not_found"),
    ("hadiths of 99999999", _with("get_narrator_hadiths", narrator_id=NO_NARRATOR), "NOT_FOUND", "not_found"),
    ("relation a missing", _with("get_transmission_relation", narrator_a_id=NO_NARRATOR), "NOT_FOUND", "not_found"),
    ("relation b missing", _with("get_transmission_relation", narrator_b_id=NO_NARRATOR), "NOT_FOUND", "not_found"),
    (
        "same narrator",
        _with("get_transmission_relation", narrator_b_id=NARRATOR),
        "INVALID_INPUT",
        "same_narrator",
    ),
    ("page 0", _with("get_narrator_hadiths", page=0), "INVALID_INPUT", "invalid_page"),
    ("page -1", _with("get_narrator_hadiths", page=-1), "INVALID_INPUT", "invalid_page"),
    ("page over max", _with("get_narrator_hadiths", page=MAX_PAGE + 1), "INVALID_INPUT", "invalid_page"),
    ("hadith language de", _with("search_hadith", query_language="de"), "UNSUPPORTED_LANGUAGE", "unsupported_language"),
    (
        "narrator language xx",
        _with("search_narrator", query_language="xx"),
        "UNSUPPORTED_LANGUAGE",
        "unsupported_language",
    ),
    (
        "commentary language en",
        _with("get_hadith_commentary", language="en"),
        "UNSUPPORTED_LANGUAGE",
        "unsupported_language",
    ),
    ("hadith empty query", _with("search_hadith", query=""), "INVALID_INPUT", "invalid_input"),
    ("hadith blank query", _with("search_hadith", query=" \t\n "), "INVALID_INPUT", "invalid_input"),
    ("hadith long query", _with("search_hadith", query="x" * (MAX_QUERY_LENGTH + 1)), "INVALID_INPUT", "invalid_input"),
    ("narrator empty query", _with("search_narrator", query=""), "INVALID_INPUT", "invalid_input"),
    (
        "narrator long query",
        _with("search_narrator", query="ع" * (MAX_QUERY_LENGTH + 1)),
        "INVALID_INPUT",
        "invalid_input",
    ),
    *[
        (
            f"generation {value!r}",
            _with("search_narrator", filters={"generation": value}),
            "INVALID_INPUT",
            "invalid_input",
        )
        for value in ("0", "13", "abc", "-1", "1.5", "")
    ],
]


@pytest.mark.parametrize(("call", "code", "alias"), [case[1:] for case in ERRORS], ids=[case[0] for case in ERRORS])
async def test_each_tool_error_has_its_code_and_alias(
    client: httpx.AsyncClient, call: tuple[str, dict[str, Any]], code: str, alias: str | None
) -> None:
    tool, variables = call

    body = await call_tool(client, tool, **variables)

    error = only_error(body)
    assert error["extensions"] == {"code": code, "alias": alias}
    assert error["path"] == [tool]
    assert body["data"] is None


@pytest.mark.parametrize(
    "call",
    [
        _with("search_hadith", query="x" * MAX_QUERY_LENGTH),
        _with("search_narrator", query="ع" * MAX_QUERY_LENGTH),
        _with("search_narrator", filters={"generation": "1"}),
        _with("search_narrator", filters={"generation": "12"}),
        _with("get_narrator_hadiths", page=MAX_PAGE),
        _with("search_hadith", query_language=None),
        _with("get_hadith_commentary", language="ar"),
    ],
    ids=[
        "query at max length",
        "Arabic query at max length",
        "generation 1",
        "generation 12",
        "last page",
        "null language",
        "commentary ar",
    ],
)
async def test_the_edges_of_each_argument_are_accepted(
    client: httpx.AsyncClient, call: tuple[str, dict[str, Any]]
) -> None:
    tool, variables = call
    body = await call_tool(client, tool, **variables)
    assert "errors" not in body, body["errors"]


# Text that no column can hold (NUL) or no UTF-8 can encode (a lone surrogate): the API may refuse it as
# input (or, for a surrogate, refuse the body as JSON) or serve it by leaving the character out, never fail.
AS_INPUT, AS_INPUT_OR_BODY = {"INVALID_INPUT"}, {"INVALID_INPUT", "QUERY_REJECTED"}
MALFORMED_TEXT: list[tuple[str, tuple[str, dict[str, Any]], set[str]]] = [
    ("NUL in a Latin hadith query", _with("search_hadith", query="a\x00b"), AS_INPUT),
    ("NUL in an Arabic hadith query", _with("search_hadith", query="إنما\x00 الأعمال"), AS_INPUT),
    ("NUL in a narrator query", _with("search_narrator", query="a\x00b"), AS_INPUT),
    ("NUL in an Arabic narrator query", _with("search_narrator", query="أبو\x00 هريرة"), AS_INPUT),
    ("NUL in a region filter", _with("search_narrator", filters={"region": "a\x00"}), AS_INPUT),
    ("NUL in a grade_tier filter", _with("search_narrator", filters={"grade_tier": "a\x00"}), AS_INPUT),
    ("NUL in a commentary language", _with("get_hadith_commentary", language="ar\x00"), {"UNSUPPORTED_LANGUAGE"}),
    ("superscript generation", _with("search_narrator", filters={"generation": "²"}), AS_INPUT),
    ("lone surrogate in a hadith query", _with("search_hadith", query="\udfff abc"), AS_INPUT_OR_BODY),
    ("lone surrogate in a narrator query", _with("search_narrator", query="\ud800"), AS_INPUT_OR_BODY),
]


async def post_json(client: httpx.AsyncClient, document: str, variables: dict[str, Any]) -> httpx.Response:
    """Post with every non-ASCII character escaped, so that a lone surrogate travels as JSON allows."""
    payload = json.dumps({"query": document, "variables": variables})
    return await client.post("/graphql", content=payload.encode("ascii"), headers={"content-type": "application/json"})


@pytest.mark.parametrize(
    ("call", "codes"), [case[1:] for case in MALFORMED_TEXT], ids=[case[0] for case in MALFORMED_TEXT]
)
async def test_malformed_text_is_refused_or_served_never_an_internal_error(
    client: httpx.AsyncClient, call: tuple[str, dict[str, Any]], codes: set[str]
) -> None:
    tool, variables = call

    body = (await post_json(client, tool_document(tool), variables)).json()

    assert {error["extensions"]["code"] for error in body.get("errors") or ()} <= codes


@pytest.mark.parametrize("query", ["prophete", "Bukhari 1e9", "%_%", "priere du vendredi"])
async def test_a_latin_hadith_query_is_not_an_internal_error(client: httpx.AsyncClient, query: str) -> None:
    body = await call_tool(client, "search_hadith", query=query)
    assert "errors" not in body, body["errors"]


REJECTED_DOCUMENTS = {
    "syntax error": "{ get_hadith(hadith_id: 100001) { hadith_id ",
    "unknown field": "{ get_hadith(hadith_id: 100001) { hadith_id no_such_field } }",
    "unknown root field": "{ no_such_tool { x } }",
    "unknown argument": "{ get_hadith(hadith_id: 100001, nope: 1) { hadith_id } }",
    "missing argument": "{ get_hadith { hadith_id } }",
    "literal of the wrong type": '{ get_hadith(hadith_id: "1") { hadith_id } }',
    "literal over Int": "{ get_hadith(hadith_id: 2147483648) { hadith_id } }",
    "object without selection": "{ get_hadith(hadith_id: 100001) }",
    "mutation": "mutation { get_hadith(hadith_id: 100001) { hadith_id } }",
    "subscription": "subscription { get_hadith(hadith_id: 100001) { hadith_id } }",
    "unknown variable type": "query ($id: NoSuchType) { get_hadith(hadith_id: 1) { hadith_id } }",
    "undefined variable": "query { get_hadith(hadith_id: $id) { hadith_id } }",
}


@pytest.mark.parametrize("document", list(REJECTED_DOCUMENTS.values()), ids=list(REJECTED_DOCUMENTS))
async def test_an_invalid_document_is_query_rejected(client: httpx.AsyncClient, document: str) -> None:
    body = await execute(client, document)

    errors = body["errors"]
    assert errors
    assert [error["extensions"] for error in errors] == [{"code": "QUERY_REJECTED"}] * len(errors)
    assert body.get("data") is None


WRONG_VARIABLES: dict[str, tuple[str, dict[str, Any]]] = {
    "string for Int!": ("get_hadith", {"hadith_id": "abc"}),
    "numeric string for Int!": ("get_hadith", {"hadith_id": "100001"}),
    "float for Int!": ("get_hadith", {"hadith_id": 1.5}),
    "boolean for Int!": ("get_hadith", {"hadith_id": True}),
    "list for Int!": ("get_hadith", {"hadith_id": [HADITH]}),
    "null for Int!": ("get_hadith", {"hadith_id": None}),
    "missing Int!": ("get_hadith", {}),
    "Int overflow": ("get_hadith", {"hadith_id": INT_MAX + 1}),
    "string limit": ("get_hadith_chains", {"hadith_id": HADITH, "limit": "5"}),
    "object for String!": ("search_hadith", {"query": {"text": "x"}}),
    "number for String!": ("search_hadith", {"query": 5}),
    "string for filters": ("search_narrator", {"query": "Abu", "filters": "generation=1"}),
    "unknown filter": ("search_narrator", {"query": "Abu", "filters": {"city": "Kufa"}}),
    "string for Boolean": (
        "get_transmission_relation",
        {**GOOD["get_transmission_relation"], "include_chain_observations": "yes"},
    ),
}


@pytest.mark.parametrize("call", list(WRONG_VARIABLES.values()), ids=list(WRONG_VARIABLES))
async def test_a_variable_of_the_wrong_type_is_refused_as_input(
    client: httpx.AsyncClient, call: tuple[str, dict[str, Any]]
) -> None:
    tool, variables = call

    body = await call_tool(client, tool, **variables)

    error = only_error(body)
    assert error["extensions"] == {"code": "INVALID_INPUT", "alias": "invalid_input"}
    assert error["message"] != "Internal error."
    assert body.get("data") is None


# --- the leak scan -------------------------------------------------------------------------------

SQL_KEYWORDS = re.compile(r"\b(SELECT|FROM|WHERE|JOIN|INSERT|UPDATE|DELETE)\b")
INTERNALS = re.compile(r"Traceback|File \"|asyncpg|sqlalchemy|sqlalche\.me|psycopg|postgres|SQLSTATE", re.IGNORECASE)
DDL = (REPO / "ingest" / "schema.sql").read_text(encoding="utf-8")
INTROSPECT_NAMES = """
{ __schema { types { name fields { name args { name } } inputFields { name } enumValues { name } } } }"""


def ddl_names() -> set[str]:
    """Every table, view, column and index of ingest/schema.sql that is not a short common word."""
    names = set(documented_columns())
    for columns in documented_columns().values():
        names |= columns
    names |= set(re.findall(r"CREATE (?:UNIQUE )?INDEX (\w+)", DDL))
    return {name for name in names if "_" in name or len(name) > 6}


async def public_names(client: httpx.AsyncClient) -> set[str]:
    """Every name the API itself publishes (types, fields, arguments, enum values): not a leak."""
    body = await execute(client, INTROSPECT_NAMES)
    names: set[str] = set()
    for type_ in body["data"]["__schema"]["types"]:
        names.add(type_["name"])
        for field in type_["fields"] or ():
            names.add(field["name"])
            names |= {arg["name"] for arg in field["args"]}
        names |= {f["name"] for f in type_["inputFields"] or ()}
        names |= {v["name"] for v in type_["enumValues"] or ()}
    return names


def bad_inputs() -> list[tuple[str, dict[str, Any]]]:
    """Many malformed, out-of-range or hostile arguments for every tool."""
    ids: list[Any] = [0, -1, INT_MIN, INT_MAX, NO_NARRATOR, "abc", "1; DROP TABLE x", 1.5, None, [1], {"a": 1}]
    limits: list[Any] = [0, -1, NARRATOR_HADITHS.maximum + 1, INT_MAX, "x", 2.5]
    texts: list[Any] = [
        "",
        "   ",
        "x" * (MAX_QUERY_LENGTH + 1),
        "a\x00b",
        "\ud800",
        "' OR 1=1 --",
        "'; DROP TABLE x; --",
        "%_%\\",
        "bukhari:99999999999999999999",
        "صحيح البخاري ٩٩٩٩٩٩٩٩٩٩٩٩٩٩٩٩٩٩٩",
        "ـــّ",
        "\u202e\U0001f600",
        5,
        None,
    ]
    calls: list[tuple[str, dict[str, Any]]] = []
    for tool, argument in (
        ("get_hadith", "hadith_id"),
        ("get_hadith_chains", "hadith_id"),
        ("get_hadith_commentary", "hadith_id"),
        ("get_narrator_profile", "narrator_id"),
        ("get_narrator_hadiths", "narrator_id"),
        ("get_transmission_relation", "narrator_a_id"),
        ("get_transmission_relation", "narrator_b_id"),
        ("search_hadith", "collection_id"),
    ):
        calls += [_with(tool, **{argument: value}) for value in ids]
    for tool in GOOD:
        argument = "entry_limit" if tool == "get_narrator_profile" else "limit"
        if tool != "get_hadith":
            calls += [_with(tool, **{argument: value}) for value in limits]
    for tool in ("search_hadith", "search_narrator"):
        calls += [_with(tool, query=value) for value in texts]
        calls += [_with(tool, query_language=value) for value in ("de", "", "AR", "\x00", 7)]
    for filters in ("x", {"generation": "²"}, {"generation": "99"}, {"region": "\x00"}, {"grade_tier": "z" * 5000}):
        calls.append(_with("search_narrator", filters=filters))
    calls += [_with("get_narrator_hadiths", page=value) for value in (0, -1, MAX_PAGE + 1, INT_MAX, "x")]
    calls += [_with("get_hadith_commentary", language=value) for value in ("en", "", "FR", "\x00", 3)]
    calls += [_with("get_transmission_relation", include_chain_observations=value) for value in ("yes", 1)]
    return calls


async def _errors_of_both_surfaces(
    client: httpx.AsyncClient, tool: str, variables: dict[str, Any]
) -> list[dict[str, Any]]:
    """The errors of one call through /graphql and through the neutral surface POST /tools/<tool>."""
    graphql = (await post_json(client, tool_document(tool), variables)).json()
    content = json.dumps(variables).encode("ascii")
    rest = await client.post(f"/tools/{tool}", content=content, headers={"content-type": "application/json"})
    neutral = rest.json() if rest.status_code != 200 else {}
    errors = [{"message": e["message"], **e["extensions"]} for e in graphql.get("errors") or ()]
    return errors + ([neutral["error"]] if "error" in neutral else [])


async def test_no_error_leaks_sql_schema_names_or_internals(client: httpx.AsyncClient) -> None:
    forbidden = ddl_names() - await public_names(client)
    leaked_name = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(sorted(forbidden)) + r")(?![A-Za-z0-9_])")
    leaks = []
    for tool, variables in bad_inputs():
        errors = await _errors_of_both_surfaces(client, tool, variables)
        assert {error["code"] for error in errors} <= CLOSED_SET
        text = json.dumps(errors, ensure_ascii=False)
        for pattern in (SQL_KEYWORDS, INTERNALS, leaked_name):
            if found := pattern.search(text):
                leaks.append((tool, variables, found.group(0), text))
    assert leaks == []


async def test_the_scan_knows_the_schema_names(client: httpx.AsyncClient) -> None:
    forbidden = ddl_names() - await public_names(client)
    assert {"text_ar_normalized", "narrator_name_variant", "hadith_source_record", "rijal_notice"} <= forbidden
    assert "hadith_id" not in forbidden  # an argument of the contract, not a leak


# --- the server keeps serving ----------------------------------------------------------------------


async def test_after_errors_the_next_good_request_succeeds(client: httpx.AsyncClient, app: Starlette) -> None:
    pool = app.state.engine.pool
    for _case, (tool, variables), _code, _alias in ERRORS:
        await call_tool(client, tool, **variables)
        assert pool.checkedout() == 0
    for document in REJECTED_DOCUMENTS.values():
        await execute(client, document)
    for _ in range(3 * pool.size()):  # more failed requests than the pool has connections: none is kept
        await call_tool(client, "get_hadith", hadith_id=NO_HADITH)
    assert pool.checkedout() == 0

    for tool, variables in GOOD.items():
        body = await call_tool(client, tool, **variables)
        assert "errors" not in body, (tool, body["errors"])
        assert body["data"][tool] is not None


async def test_a_limit_error_does_not_stop_a_later_search(client: httpx.AsyncClient) -> None:
    refused = await call_tool(client, "search_hadith", query="حدثنا", limit=SEARCH_HADITH.maximum + 1)
    assert only_error(refused)["extensions"]["code"] == "LIMIT_EXCEEDED"
    body = await call_tool(client, "search_hadith", query="حدثنا", limit=SEARCH_HADITH.maximum)
    assert len(body["data"]["search_hadith"]["results"]) == SEARCH_HADITH.maximum
