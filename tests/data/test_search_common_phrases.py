"""The exact tier reads a phrase of common pairs (search_common_pair) in key order, from the first rows, then
through its pairs' index when these hold fewer than its candidates: it answers as the index alone does, whether
the first rows are the whole subset or a fifth of it."""

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from app.data.search import common, wording
from app.text import arabic
from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA, api_settings, serving
from tests.graphql_client import rows, tool_data
from tests.live_views import live_views_but

# Each made of the subset's common words and pairs alone: formulas most texts hold, and one that hardly any does.
PHRASES = (
    "صلى الله عليه وسلم",
    "رسول الله صلى الله عليه وسلم",
    "رسول الله",
    "عن ابي",
    "الله",
    "صلى الله صلى الله",
)
SCOPES: tuple[dict[str, Any], ...] = ({}, {"collection": "muslim"})
INDEX_ALONE = "isnad_index_alone"  # the live schema's tables as views, but for no common pair
COMMON = "search_common_pair"


@pytest.fixture
async def index_alone(imported: ImportReport, database_url: str) -> AsyncIterator[str]:
    async with live_views_but(database_url, INDEX_ALONE, COMMON) as conn:
        await conn.execute(f"CREATE TABLE {INDEX_ALONE}.{COMMON} (LIKE {LIVE_SCHEMA}.{COMMON} INCLUDING ALL)")
        yield INDEX_ALONE


@pytest.fixture
def first_rows(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The rows read in key order, for statements built anew (the statements are built once per shape)."""
    monkeypatch.setattr(wording, "COMMON_PHRASE_ROWS", request.param)
    wording._wording_statement.cache_clear()
    yield request.param
    wording._wording_statement.cache_clear()


async def _answers(database_url: str, schema: str) -> list[Any]:
    async with serving(api_settings(database_url, db_schema=schema), database_url) as served:
        return [
            await tool_data(served.client, "search_hadith", query=phrase, limit=20, **scope)
            for phrase in PHRASES
            for scope in SCOPES
        ]


async def _holders(database_url: str, phrase: str) -> int:
    holding = "SELECT count(*) FROM hadith WHERE ' ' || text_ar_normalized || ' ' LIKE $1"
    return int((await rows(database_url, holding, f"% {arabic.normalize(phrase)} %"))[0]["count"])


@pytest.mark.parametrize("first_rows", [100, 1000], indirect=True)
async def test_a_phrase_of_common_pairs_read_in_key_order_answers_as_its_pairs_index_does(
    database_url: str, index_alone: str, first_rows: int
) -> None:
    common_pairs = {row["pair"] for row in await rows(database_url, f"SELECT pair FROM {COMMON}")}
    holders = [await _holders(database_url, phrase) for phrase in PHRASES]
    texts = (await rows(database_url, "SELECT count(*) FROM hadith"))[0]["count"]
    assert all(set(arabic.phrase_pairs(arabic.normalize(phrase))) <= common_pairs for phrase in PHRASES)
    assert max(holders) > common.CANDIDATES and min(holders) < 10  # candidates a prefix of the holders; a rare one
    assert (first_rows < texts) == (first_rows == 100)  # the index read after the first rows; or never

    in_key_order = await _answers(database_url, LIVE_SCHEMA)
    by_index = await _answers(database_url, index_alone)

    assert sum(len(answer["results"]) for answer in in_key_order) > 5 * len(PHRASES)
    assert in_key_order == by_index
