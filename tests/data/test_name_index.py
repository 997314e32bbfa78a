"""The name keys held in memory give the narrator search the answers the trigram index gives.

pg_trgm's trigrams as app/data/search/trigrams.py computes them are `show_trgm`'s, for every key of the database;
the keys the index hands over for a query hold every key PostgreSQL's own tests keep, and none whose similarity
PostgreSQL finds under the threshold; and the search answers the same, hit for hit, through either path, for the
evaluation set's narrator queries and each of them slipped one letter. Keys of another import are not used, and
the keys are read again when the served import changes."""

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from starlette.applications import Starlette

from app.data import search
from app.data.data_version import ServedVersion
from app.data.database import FUZZY_NAME_THRESHOLD, RequestDatabase
from app.data.search.name_index import READ_THE_INDEX, NameIndex, NameKeys, Similar
from app.data.search.trigrams import shown, trigrams
from app.data.sessions import NAME_WORD_SIMILARITY
from app.text import arabic, latin
from tests.conftest import api_settings


class _Handing(NameIndex):
    """A name index that hands over the same keys for every query, and reads none as written."""

    def __init__(self, handed: Similar) -> None:
        super().__init__(NAME_WORD_SIMILARITY, FUZZY_NAME_THRESHOLD)
        self.handed = handed

    def similar(self, query: str, script: str) -> Similar:
        return self.handed

    def as_written(self, query: str, script: str) -> bool:
        return False


QUERIES = Path(__file__).resolve().parents[2] / "eval" / "search_queries_subset.jsonl"
PASSING = text(
    "SELECT DISTINCT search_key FROM narrator_search_form"
    " WHERE script = :script AND :query <% search_key AND similarity(search_key, :query) >= :threshold"
)
SIMILARITY = text(
    "SELECT similarity(search_key, :query) AS s FROM unnest(CAST(:keys AS text[])) WITH ORDINALITY AS k(search_key, at)"
    " ORDER BY at"
)
# How many forms the trigram branch keeps for a query: those whose key holds it and is similar enough
KEPT_FORMS = text(
    "SELECT count(*) FROM narrator_search_form WHERE script = :script AND :query <% search_key"
    " AND similarity(search_key, :query) >= :threshold"
)


def _slipped(key: str) -> list[str]:
    """The key with one letter of its longest word dropped, doubled, and swapped with the next."""
    word = max(key.split(), key=len)
    at = len(word) // 2
    slips = [word[:at] + word[at + 1 :], word[:at] + word[at] + word[at:], word[:at] + word[at + 1 : at + 2] + word[at]]
    return [key.replace(word, slip, 1) for slip in slips if len(word) > 2 and slip != word]


def _queries() -> list[tuple[str, str]]:
    """(script, key) of the evaluation set's narrator queries and their slips."""
    found = []
    for line in QUERIES.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["tool"] == "search_narrator":
            script = "ar" if arabic.is_arabic(entry["query"]) else "latin"
            key = (arabic if script == "ar" else latin).name_key(entry["query"])
            found += [(script, query) for query in (key, *_slipped(key)) if query]
    return sorted(set(found))


@pytest.fixture(scope="module")
async def database(app: Starlette) -> AsyncIterator[RequestDatabase]:
    db = RequestDatabase(app.state.engine)
    yield db
    await db.close()


async def test_trigrams_are_pg_trgms_for_every_key(database: RequestDatabase) -> None:
    rows = await database.fetch(
        text("SELECT DISTINCT search_key, show_trgm(search_key) AS t FROM narrator_search_form")
    )
    assert len(rows) > 1000
    differing = [
        row["search_key"] for row in rows if {shown(g) for g in trigrams(row["search_key"]) or {0}} != set(row["t"])
    ]
    assert differing == []


async def test_the_keys_handed_over_are_those_postgresql_keeps(app: Starlette, database: RequestDatabase) -> None:
    """Every key PostgreSQL's tests keep, the most similar first, each with the similarity PostgreSQL computes."""
    names: NameIndex = app.state.names
    kept_in_all = 0
    for script, query in _queries():
        handed = names.similar(query, script)
        params = {"script": script, "query": query, "threshold": FUZZY_NAME_THRESHOLD}
        kept = {row["search_key"] for row in await database.fetch(PASSING.bindparams(**params))}
        assert kept <= set(handed.keys), query
        similarities = await database.fetch(SIMILARITY.bindparams(query=query, keys=handed.keys))
        assert [row["s"] for row in similarities] == handed.similarities, query
        assert handed.similarities == sorted(handed.similarities, reverse=True), query
        assert all(s >= FUZZY_NAME_THRESHOLD - 1e-6 for s in handed.similarities), query
        kept_in_all += len(kept)
    assert kept_in_all > 100  # the queries reach the trigram branch


@pytest.mark.parametrize(("most", "grade_tier"), [(6, None), (21, None), (6, "thiqa")])
async def test_the_search_answers_the_same_either_way(app: Starlette, most: int, grade_tier: str | None) -> None:
    """Through the keys, the words no name holds are read from them too: fewer statements, the same answers, with a
    filter too."""
    names: NameIndex = app.state.names
    assert names.current is not None
    differing, statements = [], {"keys": 0, "index": 0}
    for script, query in _queries():
        skeleton = (arabic if script == "ar" else latin).skeleton(query)
        scope = search.NarratorScope(script, grade_tier, None, None, most)
        found = {}
        for path, index in (("keys", names), ("index", _Handing(READ_THE_INDEX))):
            db = RequestDatabase(app.state.engine)
            found[path] = await search.narrators_by_name(db, query, skeleton, scope, index)
            statements[path] += db.statements
            await db.close()
        if found["keys"] != found["index"]:
            differing.append(query)
    assert differing == []
    assert statements["keys"] < statements["index"] - 10, statements


@pytest.mark.parametrize("most_similar", [1, 3, 10])
async def test_the_most_similar_forms_are_those_of_the_first_keys(
    app: Starlette, database: RequestDatabase, monkeypatch: pytest.MonkeyPatch, most_similar: int
) -> None:
    """The branch reads the keys handed over in order of similarity and stops after the FUZZY_FORMS-th form and
    those as similar as it: with a bound far below the forms many queries keep, the answers are still the trigram
    index's, which sorts every form."""
    monkeypatch.setattr(search.names, "FUZZY_FORMS", most_similar)
    search.names._name_statement.cache_clear()
    names: NameIndex = app.state.names
    differing, beyond = [], 0
    try:
        for script, query in _queries():
            skeleton = (arabic if script == "ar" else latin).skeleton(query)
            scope = search.NarratorScope(script, None, None, None, 21)
            params = {"script": script, "query": query, "threshold": FUZZY_NAME_THRESHOLD}
            beyond += (await database.fetch(KEPT_FORMS.bindparams(**params)))[0]["count"] > most_similar
            by_keys = await search.narrators_by_name(database, query, skeleton, scope, names)
            if by_keys != await search.narrators_by_name(database, query, skeleton, scope, _Handing(READ_THE_INDEX)):
                differing.append(query)
    finally:
        search.names._name_statement.cache_clear()
    assert differing == []
    assert beyond > 20  # queries whose forms are more than the bound


async def test_keys_of_another_import_are_not_used(app: Starlette, database: RequestDatabase) -> None:
    """Keys under another checksum leave the answer the trigram index's; under the live one, they are what the
    branch reads (none handed over: the answers lose the hits only that branch found)."""
    names: NameIndex = app.state.names
    stale_differing, emptied_differing = [], []
    for script, query in _queries()[::4]:
        skeleton = (arabic if script == "ar" else latin).skeleton(query)
        scope = search.NarratorScope(script, None, None, None, 6)
        similar = names.similar(query, script)
        read = await search.narrators_by_name(database, query, skeleton, scope, _Handing(READ_THE_INDEX))
        stale = _Handing(dataclasses.replace(similar, checksum="another"))
        emptied = _Handing(Similar(similar.checksum, []))
        if await search.narrators_by_name(database, query, skeleton, scope, stale) != read:
            stale_differing.append(query)
        if await search.narrators_by_name(database, query, skeleton, scope, emptied) != read:
            emptied_differing.append(query)
    assert stale_differing == []
    assert len(emptied_differing) > 5


async def test_a_name_as_written_is_told_by_the_keys(app: Starlette) -> None:
    """`as_written`: some key is the query or starts with its words (then, with no filter, no key is handed over:
    the branch does not run), checked against every key read one by one."""
    names: NameIndex = app.state.names
    assert names.current is not None
    keys = names.current.scripts["ar"].keys
    queries = {q for key in keys[::500] for q in (key, key.split()[0], key[:-1], f"{key}ي", f"{key.split()[0]} ")}
    told = {query: names.as_written(query, "ar") for query in sorted(queries)}
    read = {query: any(k == query or k.startswith(f"{query} ") for k in keys) for query in sorted(queries)}
    assert told == read
    assert 0 < sum(told.values()) < len(told)


async def test_a_name_no_key_may_hold_is_held_by_no_key(app: Starlette) -> None:
    """`may_hold` False (the key tiers after the exact one are not read): no key holds the query, as LIKE '%query%'
    reads it or word for word, checked against every key; the keys' words slipped and cut short at either end."""
    names: NameIndex = app.state.names
    assert names.current is not None
    told_apart = 0
    for script, of_script in names.current.scripts.items():
        keys = of_script.keys
        queries = {q for key in keys[::250] for q in (*_slipped(key), key[1:], key[:-1], key.partition(" ")[2]) if q}
        told = {query: of_script.may_hold(query) for query in sorted(queries)}
        held = [q for q, may in told.items() if not may and any(q in k or _all_words(q, k) for k in keys)]
        assert held == [], script
        told_apart += sum(not may for may in told.values())
    assert told_apart > 50


def _all_words(query: str, key: str) -> bool:
    return set(query.split()) <= set(key.split(" "))


async def test_the_keys_are_read_again_when_the_import_changes(app: Starlette, database_url: str) -> None:
    served = ServedVersion(api_settings(database_url), database_url, 5.0)
    assert await served.refresh() is not None
    names = NameIndex(NAME_WORD_SIMILARITY, FUZZY_NAME_THRESHOLD)
    async with names.following(app.state.engine, served, 0.01):
        first = await _read(names, None)
        assert served.current is not None and first.checksum == served.current.content_checksum
        served.current = dataclasses.replace(served.current, content_checksum="another import")
        again = await _read(names, first)
    assert again is not first and again.checksum == first.checksum  # what the database holds, read again


async def _read(names: NameIndex, since: NameKeys | None) -> NameKeys:
    """The keys `names` reads next after `since`."""
    for _ in range(1000):
        if names.current is not None and names.current is not since:
            return names.current
        await asyncio.sleep(0.01)
    raise AssertionError("the keys were not read")
