"""The search statements are built once per shape: two searches of the same shape send the same SQL,
whatever their words, so that PostgreSQL prepares it once per connection; a narrator search, all its
tiers included, is one statement."""

import httpx

from tests.graphql_client import execute

NARRATOR = "query ($query: String!) { search_narrator(query: $query) { results { narrator_id match_tier } } }"
HADITH = "query ($query: String!) { search_hadith(query: $query) { results { hadith_id match_method } } }"
# Names whose consonant skeletons have four letters at least: the same shape of statement.
NAMES = ("عبد الله بن عمر", "سفيان الثوري", "مالك بن أنس", "Sufyan ibn Uyaynah")
PHRASES = ("إنما الأعمال بالنيات", "الدين النصيحة")


async def _sent(client: httpx.AsyncClient, statements: list[str], document: str, query: str) -> list[str]:
    """The statements of one search, after the catalog read once per process was warmed."""
    await execute(client, document, query=query)
    statements.clear()
    body = await execute(client, document, query=query)
    assert "errors" not in body, body["errors"]
    return list(statements)


async def test_a_narrator_search_is_one_statement_the_same_for_every_name(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    sent = [await _sent(client, statements, NARRATOR, name) for name in NAMES]

    assert [len(each) for each in sent] == [1] * len(NAMES)
    assert len({each[0] for each in sent}) == 1


async def test_the_exact_tier_of_a_hadith_search_sends_the_same_statement_for_every_phrase(
    client: httpx.AsyncClient, statements: list[str]
) -> None:
    sent = [await _sent(client, statements, HADITH, phrase) for phrase in PHRASES]

    assert all(sent)
    assert len({each[0] for each in sent}) == 1
