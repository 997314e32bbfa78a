"""The search statements are built once per shape: two searches of the same shape send the same SQL,
whatever their words, so that PostgreSQL prepares it once per connection; a narrator search, all its
tiers included, is one statement; a hadith search, two at most, whichever tiers it reaches."""

import json
import re
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy import text
from starlette.applications import Starlette

from app.data.database import Bound, RequestDatabase
from app.data.search.name_index import NameIndex
from bench.search_profile import explained_as_run
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, api_settings, recording, serving
from tests.graphql_client import execute

NARRATOR = "query ($query: String!) { search_narrator(query: $query) { results { narrator_id match_tier } } }"
NARRATOR_LIMIT = (
    "query ($query: String!, $limit: Int) { search_narrator(query: $query, limit: $limit) { results { match_tier } } }"
)
# The Arabic name key that most narrators hold as one of their forms (two at least), on the imported data.
SHARED_KEY = (
    "SELECT search_key FROM narrator_search_form WHERE script = 'ar' GROUP BY search_key HAVING count(*) > 1"
    " ORDER BY count(*) DESC, search_key LIMIT 1"
)
HADITH = "query ($query: String!) { search_hadith(query: $query) { results { hadith_id match_method } } }"
PLANS = text("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE :narrator")
# A tsquery built from a parameter's text, as a plan node writes it (`to_tsquery('simple'::regconfig, ($11)::text)`).
QUERY_OF_PARAMETER = re.compile(r"to_tsquery\([^()]*\(\$\d+\)")
# What a plan node computes for each row it reads (EXPLAIN VERBOSE), where an index condition is computed once.
PER_ROW = ("Recheck Cond", "Filter", "Join Filter", "Output", "Sort Key")
HADITH_LIMIT = (
    "query ($query: String!, $limit: Int) { search_hadith(query: $query, limit: $limit) { results { match_method } } }"
)
# Names whose consonant skeletons have four letters at least: the same shape of statement.
NAMES = ("عبد الله بن عمر", "سفيان الثوري", "مالك بن أنس", "Sufyan ibn Uyaynah")
PHRASES = ("إنما الأعمال بالنيات", "الدين النصيحة")
# Real queries (most from eval/search_queries_subset.jsonl), a limit, the tiers their hits come from on the test
# subset, and the statements sent: an Arabic search reads exact and fulltext in one statement (with the
# vocabulary when they leave room), then the fuzzy tier; a French search reads the vocabulary, then every tier.
TIER_PATHS = [
    ("حدثنا", 3, ["exact"], 1),
    ("الحر فأبردوا عن الصلاة قال", 3, ["exact", "fulltext"], 1),
    ("وَتَحْرِيمُهَا التَّكْبِيرُ وَتَحْلِيلُهَا التَّسْلِيمُ قَالَ أَبُو", 5, ["exact", "fulltext", "fuzzy"], 2),
    ("اغسلني من خطاياى الثلج الماء", 5, ["fulltext", "fuzzy"], 2),
    ("انما الاعمال بالنيه", 5, ["fuzzy"], 2),
    ("récompense des actions dépend des intentions", 5, ["exact"], 2),
    ("Messager d’Allah ﷺ faisait la prière", 5, ["exact", "fulltext"], 2),
    ("Muhammad, informe-moi sur l’islam. Le Messager d’Allah (ﷺ)", 5, ["exact", "fulltext", "fuzzy"], 2),
    ("allah n’accepte aucune priere purification sans et il", 5, ["fulltext", "fuzzy"], 2),
    ("ton meesager est venu chez nous et nous", 5, ["fuzzy"], 2),
]


async def _sent(
    client: httpx.AsyncClient, statements: list[str], document: str, **variables: Any
) -> tuple[list[str], dict[str, Any]]:
    """The statements of one search, after the catalog read once per process was warmed, and its answer."""
    await execute(client, document, **variables)
    statements.clear()
    body = await execute(client, document, **variables)
    assert "errors" not in body, body["errors"]
    return list(statements), body["data"]


async def test_a_narrator_search_is_one_statement_the_same_for_every_name(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    sent = [(await _sent(client, statements, NARRATOR, query=name))[0] for name in NAMES]

    assert [len(each) for each in sent] == [1] * len(NAMES)
    assert len({each[0] for each in sent}) == 1


@asynccontextmanager
async def _connected(database_url: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection of the test's own on the live schema, planning prepared statements generically as the API's."""
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(f"SET search_path TO {LIVE_SCHEMA}, public; SET plan_cache_mode = force_generic_plan")
        yield conn
    finally:
        await conn.close()


async def _generic_plan(database_url: str, sql: str) -> list[str]:
    """The plan PostgreSQL makes for `sql` without its parameters' values: the generic plan, which it may keep for a
    prepared statement it runs often (plan_cache_mode `auto`)."""
    parameters = max(int(number) for number in re.findall(r"\$(\d+)", sql))
    async with _connected(database_url) as conn:
        await conn.execute(f"PREPARE searched AS {sql}")
        plan = await conn.fetch(f"EXPLAIN (COSTS OFF) EXECUTE searched({', '.join(['NULL'] * parameters)})")
        return [row[0] for row in plan]


async def test_the_narrator_statement_reads_every_name_form_through_an_index_whatever_its_parameters(
    client: httpx.AsyncClient, statements: list[str], database_url: str
) -> None:
    # A branch that scanned every name form in the generic plan would cost each search some ten milliseconds more.
    sent, _ = await _sent(client, statements, NARRATOR, query=NAMES[0])
    plan = await _generic_plan(database_url, sent[0])

    assert any("Index Scan on search_form_skeleton_idx" in line for line in plan), plan  # the consonant branch
    assert any("search_form_key_idx" in line for line in plan), plan  # the exact tier (an index or a bitmap scan)
    assert not [line for line in plan if "Seq Scan on narrator_search_form" in line], plan


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


async def _executed(
    database_url: str, sql: str, arguments: Sequence[Any], options: str = "ANALYZE, FORMAT JSON"
) -> list[dict[str, Any]]:
    """The nodes of the plan of `sql` as it ran with `arguments`, generic as the API's (EXPLAIN `options`)."""
    async with _connected(database_url) as conn:
        rows = await explained_as_run(conn, sql, arguments, options)
        return list(_nodes(json.loads(rows[0][0])[0]["Plan"]))


async def test_a_name_that_fills_the_limit_with_exact_hits_reads_no_other_name_form(
    client: httpx.AsyncClient, database_url: str
) -> None:
    # The other key tiers read every form that holds the query (thousands for a common name), then keep none.
    async with _connected(database_url) as conn:
        key = str(await conn.fetchval(SHARED_KEY))
    arguments: list[Sequence[Any]] = []
    with recording(arguments) as sent:
        body = await execute(client, NARRATOR_LIMIT, query=key, limit=1)
    nodes = await _executed(database_url, sent[0], arguments[0])
    by_index = {(node.get("Index Name"), node.get("Index Cond", "")): node["Actual Loops"] for node in nodes}

    assert [hit["match_tier"] for hit in body["data"]["search_narrator"]["results"]] == ["exact"]
    exact = [
        loops
        for (index, cond), loops in by_index.items()
        if index == "search_form_key_idx" and "search_key = ($" in cond
    ]
    assert exact == [1]
    assert [loops for (index, cond), loops in by_index.items() if index == "search_form_key_trgm_idx" and "~~" in cond]
    assert all(node["Actual Loops"] == 0 for node in nodes if _trigram_branch(node))
    assert all(loops == 0 for (index, _), loops in by_index.items() if index == "search_form_key_trgm_idx")


def _trigram_branch(node: dict[str, Any]) -> str | None:
    """Which scan of the fuzzy tier's trigram branch a plan node is: the keys the name index handed over
    (app/data/search/name_index.py), each tested by `word_similarity_op`, or the trigram index for `query <% key`;
    None for another."""
    if "word_similarity_op" in node.get("Filter", ""):
        return "handed"
    return "scanned" if "%>" in node.get("Index Cond", "") else None


async def _similarity_scans(client: httpx.AsyncClient, database_url: str, query: str) -> dict[str, int]:
    """How many times the scans of each way of the fuzzy tier's trigram branch ran, for `query` at limit 20 (the keys
    handed over are read once, and again past the most similar forms only when these fill the branch)."""
    arguments: list[Sequence[Any]] = []
    with recording(arguments) as sent:
        await execute(client, NARRATOR_LIMIT, query=query, limit=20)
    scans: Counter[str] = Counter()
    for node in await _executed(database_url, sent[0], arguments[0]):
        if branch := _trigram_branch(node):
            scans[branch] += node["Actual Loops"]
    return dict(scans)


async def test_the_trigram_branch_reads_a_name_that_no_form_holds_as_written_and_no_other(
    client: httpx.AsyncClient, database_url: str
) -> None:
    # Every form that holds most of a name's trigrams is read and compared with it (thousands for a common name);
    # a name that some form is, or starts with, is no misspelling, and those forms are other names.
    # A name as written (the name index tells so) is searched by a statement without the branch; a misspelt one by a
    # statement with two scans, one of which runs: the keys handed over (the name index is read), not the trigram index.
    assert await _similarity_scans(client, database_url, "Anas ibn Malik") == {}  # exact
    assert await _similarity_scans(client, database_url, "Anas ibn") == {}  # prefix
    assert await _similarity_scans(client, database_url, "Anas ibn Mlik") == {"handed": 1, "scanned": 0}


@asynccontextmanager
async def _names_unread(app: Starlette) -> AsyncIterator[None]:
    """The block's requests meet the name index unread, as before a worker has read it."""
    names: NameIndex = app.state.names
    read, names.current = names.current, None
    try:
        yield
    finally:
        names.current = read


async def _slipped_name(client: httpx.AsyncClient) -> tuple[list[str], list[Sequence[Any]], dict[str, Any]]:
    """The statements «Anas ibn Mlik» sends (the catalog read before, once per process), their arguments, its answer."""
    await execute(client, NARRATOR_LIMIT, query="Anas ibn Mlik", limit=5)
    arguments: list[Sequence[Any]] = []
    with recording(arguments) as sent:
        body = await execute(client, NARRATOR_LIMIT, query="Anas ibn Mlik", limit=5)
    return sent, arguments, body


async def test_which_words_of_a_name_no_form_holds_is_read_from_the_words_of_the_keys_not_from_the_forms(
    app: Starlette, client: httpx.AsyncClient, database_url: str
) -> None:
    # The index of the forms' words lists every form that holds a word before one of them is enough: «ibn» is in
    # thousands. The words of the keys, by script, answer by their primary key. The name index holds them too: read,
    # it names the slips, and the first statement reads the names holding them (when the index is of the live import).
    async with _names_unread(app):
        sent, arguments, body = await _slipped_name(client)
    nodes = await _executed(database_url, sent[1], arguments[1])
    held_sent, _, held_body = await _slipped_name(client)

    assert len(sent) == 3  # the tiers, which words no name holds, the names holding those words slipped
    assert {node["Relation Name"] for node in nodes if "Relation Name" in node} == {"search_name_word"}
    assert {node["Index Name"] for node in nodes if "Index Name" in node} == {"search_name_word_pkey"}
    assert body["data"]["search_narrator"]["results"]
    assert len(held_sent) == 1 and held_body == body


async def test_a_word_no_name_holds_is_read_one_letter_off_by_the_names_words_its_keys_find(
    app: Starlette, client: httpx.AsyncClient, database_url: str
) -> None:
    # A word of four letters has some 230 strings one letter off it, which the index of the forms' words looked up
    # one by one; the names' words that its keys find (search_name_word) leave the few some name holds.
    async with _names_unread(app):
        _, arguments, body = await _slipped_name(client)
    async with _connected(database_url) as conn:
        held = await conn.fetch("SELECT word FROM search_name_word WHERE script = 'latin' AND key = word")
    words = [value for value in arguments[2] if isinstance(value, list) and value and isinstance(value[0], str)]

    assert ["anas", "ibn"] in words  # the words of the query some name holds
    assert "malik" in set().union(*words)  # «mlik», a letter dropped
    assert set().union(*words) <= {row["word"] for row in held}
    assert body["data"]["search_narrator"]["results"][0]["match_tier"] == "fuzzy"


async def test_the_key_tiers_read_the_trigram_index_by_the_query_words_alone_then_compare_the_form(
    client: httpx.AsyncClient, database_url: str
) -> None:
    # The trigrams of a particle («  ب», « بن», «بن ») are in nearly every form: the index reads the other words in
    # order (`%عبد%الله%عمر%`), and the whole query is compared with each form it finds, outside the index.
    arguments: list[Sequence[Any]] = []
    with recording(arguments) as sent:
        await execute(client, NARRATOR, query=NAMES[0])
    number = {value: index + 1 for index, value in enumerate(arguments[0]) if isinstance(value, str)}
    nodes = await _executed(database_url, sent[0], arguments[0])
    liked = [node["Index Cond"] for node in nodes if "~~" in node.get("Index Cond", "")]
    compared = [node["Filter"] for node in nodes if "textlike" in node.get("Filter", "")]

    assert liked == [f"(search_key ~~ like_escape((${number['%عبد%الله%عمر%']})::text, '/'::text))"]
    assert len(compared) == 1 and f"like_escape((${number['%عبد الله بن عمر%']})::text" in compared[0]


async def test_a_statement_is_planned_once_on_its_connection_not_for_each_search(
    imported: ImportReport, database_url: str
) -> None:
    # Left to choose, PostgreSQL plans a statement for its values on its first five executions at least, and on
    # every one for the narrator search on the full database, where planning cost a third of each search.
    async with serving(api_settings(database_url, pool_size=1), database_url) as served:
        for name in NAMES:
            await execute(served.client, NARRATOR, query=name)
        db = RequestDatabase(served.app.state.engine)
        try:
            plans = await db.fetch(Bound(PLANS, {"narrator": "%key_hits%"}))
        finally:
            await db.close()

    assert [(row["generic_plans"], row["custom_plans"]) for row in plans] == [(len(NAMES), 0)]


async def test_an_arabic_hadith_search_sends_the_same_first_statement_for_every_phrase(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    sent = [(await _sent(client, statements, HADITH, query=phrase))[0] for phrase in PHRASES]

    assert all(sent)
    assert len({each[0] for each in sent}) == 1


@pytest.mark.parametrize(("query", "limit", "tiers", "count"), TIER_PATHS)
async def test_a_hadith_search_sends_two_statements_at_most_whichever_tiers_it_reaches(
    client: httpx.AsyncClient, statements: list[str], query: str, limit: int, tiers: list[str], count: int
) -> None:
    sent, data = await _sent(client, statements, HADITH_LIMIT, query=query, limit=limit)

    methods = [hit["match_method"] for hit in data["search_hadith"]["results"]]
    assert list(dict.fromkeys(methods)) == tiers
    assert len(sent) == count <= 2


def _computed_once(node: dict[str, Any]) -> bool:
    """An InitPlan's result: computed from the parameters alone, once per statement."""
    return node.get("Parent Relationship") == "InitPlan" and node["Node Type"] == "Result"


@pytest.mark.parametrize(
    "query", [query for query, _, tiers, _ in TIER_PATHS if tiers == ["exact", "fulltext", "fuzzy"]]
)
async def test_a_hadith_search_parses_each_of_its_queries_once_not_for_each_text_it_compares(
    client: httpx.AsyncClient, database_url: str, query: str
) -> None:
    # In a generic plan, `text @@ to_tsquery(config, $1)` parses `$1` again for every text rechecked: a candidate
    # group of the fuzzy tier rechecked 126 texts in 2.4 ms, 0.65 ms with its tsquery parsed once.
    await execute(client, HADITH_LIMIT, query=query, limit=5)  # the catalog, read once per process
    arguments: list[Sequence[Any]] = []
    with recording(arguments) as sent:
        await execute(client, HADITH_LIMIT, query=query, limit=5)
    per_row = [
        condition
        for sql, values in zip(sent, arguments, strict=True)
        for node in await _executed(database_url, sql, values, "ANALYZE, VERBOSE, FORMAT JSON")
        if not _computed_once(node)
        for key in PER_ROW
        for condition in (node[key] if isinstance(node.get(key), list) else [node.get(key, "")])
        if QUERY_OF_PARAMETER.search(condition)
    ]

    assert len(sent) == 2
    assert per_row == []
