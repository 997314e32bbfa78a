"""One call of each of the eight tools, that the /tools and MCP tests both send."""

from typing import Any

CALLS: dict[str, dict[str, Any]] = {
    "search_hadith": {"query": "إنما الأعمال بالنيات", "query_language": "ar", "limit": 3},
    "get_hadith": {"hadith_id": 100001},
    "get_hadith_chains": {"hadith_id": 100001, "limit": 3},
    "search_narrator": {"query": "Abu Hurairah", "query_language": "latin", "limit": 3},
    "get_narrator_profile": {"narrator_id": 11062, "entry_limit": 5},
    "get_narrator_hadiths": {"narrator_id": 11062, "page": 1, "limit": 5},
    "get_transmission_relation": {"narrator_a_id": 11042, "narrator_b_id": 11213, "include_chain_observations": True},
    "get_hadith_commentary": {"hadith_id": 500001, "limit": 2},
}
