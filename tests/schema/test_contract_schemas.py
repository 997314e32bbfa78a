"""The contract's JSON Schemas (schema/contract) against the API: every response of every tool, through its
persisted document, validates against the tool's output schema, for a spread of real arguments (and those
arguments validate against its input schema). tests/schema/test_contract_schema_files.py checks the files
themselves against the persisted documents and the GraphQL schema.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from schema.contract import TOOLS, input_schema, output_schema
from tests.conftest import LIVE_SCHEMA
from tests.dbquery import fetch
from tests.graphql_client import call_tool

Json = dict[str, Any]
Check = Callable[[Json], bool]


# ---- (a) responses ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cases:
    """Real arguments per tool, picked from the imported subset so that each names the case it claims."""

    calls: dict[str, list[Json]]


def _first(url: str, sql: str) -> Any:
    rows = fetch(url, LIVE_SCHEMA, sql)
    assert rows and rows[0][0] is not None, f"the subset has no case for: {sql}"
    return rows[0][0]


def _pair(url: str, sql: str) -> tuple[int, int]:
    rows = fetch(url, LIVE_SCHEMA, sql)
    assert rows, f"the subset has no case for: {sql}"
    return int(rows[0][0]), int(rows[0][1])


# Two narrators adjacent in an observed chain, as get_transmission_relation reports them.
ADJACENT = """
    WITH adjacent AS (
        SELECT upper.narrator_id AS upper_id, lower.narrator_id AS lower_id,
               bool_and(upper.resolution_status = 'confirmed' AND lower.resolution_status = 'confirmed') AS confirmed
          FROM chain_node upper
          JOIN chain_node lower ON lower.chain_id = upper.chain_id AND lower.position = upper.position - 1
         WHERE upper.resolution_status IN ('confirmed', 'probable')
           AND lower.resolution_status IN ('confirmed', 'probable')
           AND upper.narrator_id <> lower.narrator_id
         GROUP BY 1, 2)
"""
RELATED = "EXISTS (SELECT 1 FROM transmission_relation r WHERE r.teacher_id = a.upper_id AND r.student_id = a.lower_id"


def _hadith_calls(url: str) -> tuple[list[int], list[int], list[int]]:
    """Hadith ids for get_hadith, get_hadith_chains and get_hadith_commentary."""
    first_of_each_collection = [
        int(r[0])
        for r in fetch(url, LIVE_SCHEMA, "SELECT min(hadith_id) FROM hadith GROUP BY collection_id ORDER BY 1")
    ]
    without_chapter = _first(url, "SELECT hadith_id FROM hadith WHERE chapter_id IS NULL ORDER BY 1 LIMIT 1")
    with_chapter = _first(url, "SELECT hadith_id FROM hadith WHERE chapter_id IS NOT NULL ORDER BY 1 DESC LIMIT 1")
    without_arabic = _first(url, "SELECT hadith_id FROM hadith WHERE text_ar IS NULL ORDER BY 1 LIMIT 1")
    without_french = _first(url, "SELECT hadith_id FROM hadith WHERE text_fr IS NULL ORDER BY 1 LIMIT 1")
    most_chains = _first(url, "SELECT hadith_id FROM chain GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
    no_chain = _first(
        url,
        "SELECT hadith_id FROM hadith h WHERE NOT EXISTS (SELECT 1 FROM chain c WHERE c.hadith_id = h.hadith_id)"
        " ORDER BY 1 LIMIT 1",
    )
    parsed_chain = _first(url, "SELECT hadith_id FROM chain WHERE origin = 'parsed_isnad' ORDER BY 1 LIMIT 1")
    most_passages = _first(
        url, "SELECT hadith_id FROM public_commentary_passage GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    )
    no_passage = _first(
        url,
        "SELECT hadith_id FROM hadith h WHERE NOT EXISTS"
        " (SELECT 1 FROM public_commentary_passage p WHERE p.hadith_id = h.hadith_id) ORDER BY 1 LIMIT 1",
    )
    hadith = [*first_of_each_collection, without_chapter, with_chapter, without_arabic, without_french]
    return hadith, [most_chains, no_chain, parsed_chain, without_arabic], [most_passages, no_passage]


def _narrator_ids(url: str) -> dict[str, int]:
    return {
        "most_occurrences": _first(
            url,
            "SELECT narrator_id FROM chain_node WHERE resolution_status = 'confirmed'"
            " GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1",
        ),
        "no_occurrence": _first(
            url,
            "SELECT narrator_id FROM narrator n WHERE NOT EXISTS (SELECT 1 FROM chain_node c"
            " WHERE c.narrator_id = n.narrator_id AND c.resolution_status = 'confirmed') ORDER BY 1 LIMIT 1",
        ),
        "most_notices": _first(
            url, "SELECT narrator_id FROM narrator_notice_link GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
        ),
        "conflicted": _first(
            url, "SELECT narrator_id FROM narrator_notice_link WHERE status = 'CONFLICTED' ORDER BY 1 LIMIT 1"
        ),
        "no_notice_no_assertion": _first(
            url,
            "SELECT narrator_id FROM narrator n"
            " WHERE NOT EXISTS (SELECT 1 FROM narrator_notice_link l WHERE l.narrator_id = n.narrator_id)"
            " AND NOT EXISTS (SELECT 1 FROM scholarly_assertion s WHERE s.narrator_id = n.narrator_id)"
            " ORDER BY 1 LIMIT 1",
        ),
        "most_variants": _first(
            url, "SELECT narrator_id FROM narrator_name_variant GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
        ),
    }


PAIRS = (
    # attested, with observations whose nodes are all confirmed
    ADJACENT + f"SELECT upper_id, lower_id FROM adjacent a WHERE confirmed AND {RELATED}"
    " AND r.status = 'attested') ORDER BY 1, 2 LIMIT 1",
    # attested, with observations of which one node is only probable
    ADJACENT + f"SELECT upper_id, lower_id FROM adjacent a WHERE NOT confirmed AND {RELATED}"
    " AND r.status = 'attested') ORDER BY 1, 2 LIMIT 1",
    # probable, with observations
    ADJACENT
    + f"SELECT upper_id, lower_id FROM adjacent a WHERE {RELATED} AND r.status = 'probable') ORDER BY 1, 2 LIMIT 1",
    # observations, and no relation in either direction
    ADJACENT + "SELECT upper_id, lower_id FROM adjacent a WHERE NOT EXISTS (SELECT 1 FROM transmission_relation r"
    " WHERE (r.teacher_id, r.student_id) IN ((a.upper_id, a.lower_id), (a.lower_id, a.upper_id)))"
    " ORDER BY 1, 2 LIMIT 1",
    # relations in both directions
    "SELECT a.teacher_id, a.student_id FROM transmission_relation a JOIN transmission_relation b"
    " ON a.teacher_id = b.student_id AND a.student_id = b.teacher_id ORDER BY 1, 2 LIMIT 1",
    # the same relation from two sources
    "SELECT teacher_id, student_id FROM transmission_relation GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 1, 2 LIMIT 1",
    # neither relation nor chain: nothing at all
    "SELECT min(narrator_id), max(narrator_id) FROM (SELECT narrator_id FROM narrator n WHERE NOT EXISTS"
    " (SELECT 1 FROM transmission_relation r WHERE n.narrator_id IN (r.teacher_id, r.student_id))"
    " AND NOT EXISTS (SELECT 1 FROM chain_node c WHERE c.narrator_id = n.narrator_id) ORDER BY 1 LIMIT 2) unrelated",
)


SEARCH_HADITH: list[Json] = [
    {"query": "bukhari:1"},
    {"query": "Sahih Muslim 8"},
    {"query": "صحيح البخاري ١"},
    {"query": "إنما الأعمال بالنيات"},
    {"query": "انما الاعمال بالنيه", "query_language": "ar"},
    {"query": "الأعمال بالنيات", "collection_id": 1, "limit": 1},
    {"query": "حدثنا", "limit": 20},
    {"query": "قال رسول الله", "query_language": "auto", "limit": None},
    {"query": "intentions", "query_language": "fr"},
    {"query": "prière", "query_language": "fr", "limit": 20},
    {"query": "zzqx wvvy", "query_language": "fr"},
    {"query": "ققققق ثثثثث"},
]
SEARCH_NARRATOR: list[Json] = [
    {"query": "Abu Hurairah"},
    {"query": "abu hurayra", "query_language": "latin"},
    {"query": "أبو هريرة", "query_language": "ar"},
    {"query": "الزهري"},
    {"query": "al-Zuhri", "limit": 1},
    {"query": "Muhammad", "limit": 20},
    {"query": "محمد", "limit": 20, "filters": {"generation": "1"}},
    {"query": "ibn", "filters": {"grade_tier": "companion"}},
    {"query": "عمر", "filters": {"region": "المدينة", "grade_tier": None, "generation": None}},
    {"query": "Shu'bah"},
    {"query": "qqqxzzz"},
]


@pytest.fixture(scope="session")
def cases(imported: object, database_url: str) -> Cases:
    hadith, chains, commentary = _hadith_calls(database_url)
    narrators = _narrator_ids(database_url)
    pairs = [_pair(database_url, sql) for sql in PAIRS]
    busiest = narrators["most_occurrences"]
    return Cases(
        calls={
            "search_hadith": SEARCH_HADITH,
            "get_hadith": [{"hadith_id": h} for h in hadith],
            "get_hadith_chains": [
                *({"hadith_id": h} for h in chains),
                {"hadith_id": chains[0], "limit": 1},
                {"hadith_id": chains[0], "limit": 20},
            ],
            "search_narrator": SEARCH_NARRATOR,
            "get_narrator_profile": [
                *({"narrator_id": n} for n in narrators.values()),
                {"narrator_id": narrators["most_notices"], "entry_limit": 1},
                {"narrator_id": narrators["most_notices"], "entry_limit": 20},
            ],
            "get_narrator_hadiths": [
                {"narrator_id": busiest},
                {"narrator_id": busiest, "page": 2},
                {"narrator_id": busiest, "page": 2, "limit": 3},
                {"narrator_id": busiest, "limit": 50},
                {"narrator_id": busiest, "page": 1000},
                {"narrator_id": narrators["no_occurrence"], "page": None, "limit": None},
            ],
            "get_transmission_relation": [
                *({"narrator_a_id": a, "narrator_b_id": b} for a, b in pairs),
                *({"narrator_a_id": b, "narrator_b_id": a, "include_chain_observations": False} for a, b in pairs),
                *(
                    {"narrator_a_id": a, "narrator_b_id": b, "include_chain_observations": None, "limit": 1}
                    for a, b in pairs
                ),
                *(
                    {"narrator_a_id": a, "narrator_b_id": b, "include_chain_observations": True, "limit": 20}
                    for a, b in pairs
                ),
            ],
            "get_hadith_commentary": [
                *({"hadith_id": h} for h in commentary),
                {"hadith_id": commentary[0], "language": "ar", "limit": 1},
                {"hadith_id": commentary[0], "language": None, "limit": 20},
                {"hadith_id": commentary[0], "language": "fr"},
            ],
        }
    )


def _nodes(data: Json) -> Iterator[Json]:
    for chain in data["chains"]:
        yield from chain["nodes"]


# What the spread must have met at least once, per tool, so that every shape of response is validated.
SEEN: dict[str, dict[str, Check]] = {
    "search_hadith": {
        "no result, with a capability_note": lambda d: not d["results"] and d["capability_note"] is not None,
        "a truncated list": lambda d: bool(d["truncated"]),
        "a reference match": lambda d: any(r["match_method"] == "reference" for r in d["results"]),
        "a match on the Arabic text": lambda d: any(r["match_method"] in ("exact", "fulltext") for r in d["results"]),
        "a French text": lambda d: any(r["text_fr"] is not None for r in d["results"]),
    },
    "get_hadith": {
        "a chapter": lambda d: d["chapter"] is not None,
        "no chapter": lambda d: d["chapter"] is None,
        "no Arabic text": lambda d: d["text_ar"] is None,
        "no French text": lambda d: d["text_fr"] is None,
    },
    "get_hadith_chains": {
        "no chain": lambda d: not d["chains"],
        "a truncated list": lambda d: bool(d["truncated"]),
        "a node without narrator": lambda d: any(n["narrator_id"] is None for n in _nodes(d)),
        "a confirmed node": lambda d: any(n["resolution_status"] == "confirmed" for n in _nodes(d)),
    },
    "search_narrator": {
        "no result": lambda d: not d["results"],
        "a truncated list": lambda d: bool(d["truncated"]),
    },
    "get_narrator_profile": {
        "a truncated list of entries": lambda d: bool(d["truncated"]) and len(d["source_entries"]) == 1,
        "a CONFLICTED entry": lambda d: any(e["resolution_status"] == "CONFLICTED" for e in d["source_entries"]),
        "a legacy field without value": lambda d: any(f["value"] is None for f in d["legacy_scholarly_data"]),
        "an assertion": lambda d: bool(d["canonical_assertions"]),
        "no entry": lambda d: not d["source_entries"],
    },
    "get_narrator_hadiths": {
        "an empty page": lambda d: not d["items"],
        "a truncated page": lambda d: bool(d["truncated"]),
        "a page beyond the first": lambda d: d["page"] > 1 and bool(d["items"]),
    },
    "get_transmission_relation": {
        "an attested relation": lambda d: any(r["relation_status"] == "attested" for r in d["relations"]),
        "a probable relation": lambda d: any(r["relation_status"] == "probable" for r in d["relations"]),
        "no relation": lambda d: not d["relations"],
        "chain observations": lambda d: bool(d["chain_observations"]),
        "an inferred observation": lambda d: any(o["evidence_status"] == "inference" for o in d["chain_observations"]),
        "a truncated list": lambda d: bool(d["truncated"]),
    },
    "get_hadith_commentary": {
        "passages": lambda d: bool(d["passages"]),
        "no passage": lambda d: not d["passages"],
        "a truncated list": lambda d: bool(d["truncated"]),
    },
}


def _errors(validator: Any, instance: object) -> list[str]:
    found = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
    return [f"/{'/'.join(str(p) for p in e.absolute_path)}: {e.message[:300]}" for e in found]


@pytest.mark.parametrize("tool", TOOLS)
async def test_every_response_validates_against_the_output_schema(
    client: httpx.AsyncClient, cases: Cases, tool: str
) -> None:
    inputs = Draft202012Validator(input_schema(tool))
    outputs = Draft202012Validator(output_schema(tool))
    failures: list[str] = []
    seen: set[str] = set()
    for variables in cases.calls[tool]:
        assert not _errors(inputs, variables), f"{tool}({variables}) is not a contract input"
        body = await call_tool(client, tool, **variables)
        if "errors" in body:
            failures.append(f"{tool}({variables}) answered errors: {body['errors']}")
            continue
        data = body["data"][tool]
        failures += [f"{tool}({variables}) at {error}" for error in _errors(outputs, data)]
        seen |= {label for label, check in SEEN[tool].items() if check(data)}
    unmet = sorted(set(SEEN[tool]) - seen)
    if unmet:
        failures.append(f"the spread of {tool} never met: {unmet}")
    assert not failures, "\n".join(failures)
