"""Search quality on the test subset can only go up: recall@5 and MRR per query type of
eval/search_queries_subset.jsonl, against floors set from what was measured when the search was built.

The subset file is the evaluation set's recipe applied to the subset's hadith (phrases cut from them,
then varied; citations of them; famous sayings they hold), with the same narrator queries (the subset
keeps every narrator) and queries that must return nothing. `python -m bench.search_eval` prints the
same figures for the full database from eval/search_queries.jsonl. Raise a floor when the search gets
better; never lower one to make a change pass.
"""

from pathlib import Path

import httpx
import pytest

from bench.search_eval import TOP, Metrics, evaluate, read_queries
from tests.graphql_client import tool_data

SUBSET_QUERIES = Path(__file__).resolve().parents[2] / "eval" / "search_queries_subset.jsonl"

# query type -> (recall@5, MRR) floors, as measured on the subset; "all" is every query together.
FLOORS: dict[str, tuple[float, float]] = {
    "all": (0.973, 0.956),
    "ar_exact_diacritics": (1.0, 1.0),
    "ar_exact_plain": (1.0, 1.0),
    "ar_famous": (1.0, 1.0),
    "ar_half_remembered": (1.0, 1.0),
    "ar_prefix": (1.0, 1.0),
    "ar_typo": (1.0, 1.0),
    "citation": (1.0, 1.0),
    "fr_famous": (0.833, 0.833),  # a paraphrase of Bukhari 10's French shares too few of its words
    "fr_phrase": (1.0, 1.0),
    "fr_reworded": (1.0, 1.0),
    "fr_typo": (1.0, 1.0),
    "narrator_ar": (0.965, 0.916),
    "narrator_latin": (0.939, 0.918),  # Latin names the dataset transliterates otherwise (Imam Maalik, ibn Umar)
    "nothing": (1.0, 1.0),
}


@pytest.fixture(scope="module")
async def measured(client: httpx.AsyncClient) -> dict[str, Metrics]:
    metrics, _ = await evaluate(client, read_queries(SUBSET_QUERIES))
    return metrics


def test_the_subset_evaluation_set_covers_every_query_type() -> None:
    types = {query.type for query in read_queries(SUBSET_QUERIES)}
    assert types == set(FLOORS) - {"all"}


@pytest.mark.parametrize("query_type", sorted(FLOORS))
def test_recall_and_mrr_stay_at_or_above_their_floor(measured: dict[str, Metrics], query_type: str) -> None:
    recall_floor, mrr_floor = FLOORS[query_type]
    metrics = measured[query_type]

    assert metrics.recall(TOP) >= recall_floor, f"{query_type}: recall@{TOP} {metrics.recall(TOP):.3f}"
    assert metrics.mrr >= mrr_floor, f"{query_type}: MRR {metrics.mrr:.3f}"


@pytest.mark.parametrize(
    ("tool", "query", "first", "tier"),
    [
        ("search_hadith", "إنما الأعمال بالنيات", "bukhari:1", "exact"),
        ("search_hadith", "الاعمال بالنيات", "bukhari:1", "exact"),
        ("search_hadith", "Bukhari 1", "bukhari:1", "reference"),
        ("search_narrator", "الزهري", 11013, "exact"),
        ("search_narrator", "az-Zuhri", 11013, "exact"),
        ("search_narrator", "Abu Hurairah", 13, "exact"),
        ("search_narrator", "abou hourayra", 13, "exact"),
    ],
)
async def test_what_the_issue_must_show_comes_first(
    client: httpx.AsyncClient, tool: str, query: str, first: object, tier: str
) -> None:
    answer = await tool_data(client, tool, query=query)

    hit = answer["results"][0]
    key, method = ("canonical_reference", "match_method") if tool == "search_hadith" else ("narrator_id", "match_tier")
    assert (hit[key], hit[method]) == (first, tier)
