"""Realistic arguments for the eight tools, picked from the database with a fixed random seed.

Every candidate list is read in a fixed order, so the same database and seed give the same arguments.
"""

import random
import re
from collections.abc import Sequence
from typing import Any

import asyncpg

PHRASE_WORDS = 4  # an Arabic phrase of this many consecutive words of a hadith's text
ARABIC_WORD = re.compile(r"[\u0621-\u065f\u0670-\u06d3]+")

Variables = dict[str, Any]

HADITH_WITH_CHAINS = "SELECT DISTINCT hadith_id FROM chain ORDER BY 1"
HADITH_WITH_COMMENTARY = (
    "SELECT DISTINCT hadith_id FROM public_commentary_passage WHERE hadith_id IS NOT NULL ORDER BY 1"
)
NARRATORS_IN_CHAINS = "SELECT DISTINCT narrator_id FROM chain_node WHERE narrator_id IS NOT NULL ORDER BY 1"
RELATED_PAIRS = "SELECT DISTINCT teacher_id, student_id FROM transmission_relation ORDER BY 1, 2"
CITATIONS = "SELECT canonical_reference FROM hadith WHERE canonical_reference LIKE '%:%' ORDER BY hadith_id"
TEXTS = "SELECT hadith_id, text_ar FROM hadith WHERE hadith_id = any($1::int[]) ORDER BY hadith_id"
NAMES = """
    SELECT n.narrator_id, n.canonical_display,
           array_agg(v.form ORDER BY v.form) FILTER (WHERE v.script = 'ar') AS arabic_forms
      FROM narrator n JOIN narrator_name_variant v USING (narrator_id)
     WHERE n.narrator_id = any($1::int[])
     GROUP BY n.narrator_id, n.canonical_display ORDER BY n.narrator_id
"""


async def _column(conn: asyncpg.Connection, query: str) -> list[Any]:
    return [row[0] for row in await conn.fetch(query)]


def _phrase(text: str | None, rng: random.Random) -> str | None:
    """Consecutive Arabic words from the second half of the text (the matn, after the isnad)."""
    words = [word for word in (text or "").split() if ARABIC_WORD.fullmatch(word)]
    if len(words) < 2 * PHRASE_WORDS:
        return None
    start = rng.randrange(len(words) // 2, len(words) - PHRASE_WORDS + 1)
    return " ".join(words[start : start + PHRASE_WORDS])


async def _search_hadith(conn: asyncpg.Connection, rng: random.Random, count: int) -> list[Variables]:
    """Half Arabic phrases copied from hadith texts, half citations ('bukhari:123'), interleaved."""
    ids = rng.sample(await _column(conn, HADITH_WITH_CHAINS), count)
    texts = await conn.fetch(TEXTS, ids)
    phrases = [p for p in (_phrase(row["text_ar"], rng) for row in texts) if p][: count - count // 2]
    citations = rng.sample(await _column(conn, CITATIONS), count - len(phrases))
    queries = phrases + citations
    rng.shuffle(queries)
    return [{"query": query} for query in queries]


async def _search_narrator(conn: asyncpg.Connection, narrators: Sequence[int], rng: random.Random) -> list[Variables]:
    """Names of narrators who occur in chains: the Latin display form or one of their Arabic forms."""
    queries = []
    for row in await conn.fetch(NAMES, list(narrators)):
        arabic = row["arabic_forms"] or []
        latin = row["canonical_display"]
        queries.append(rng.choice(arabic) if arabic and (not latin or rng.random() < 0.5) else latin)
    return [{"query": query} for query in queries if query]


def _pairs(pairs: Sequence[tuple[int, int]], rng: random.Random) -> list[Variables]:
    """Pairs with a recorded relation, asked in either order."""
    chosen = [(a, b) if rng.random() < 0.5 else (b, a) for a, b in pairs]
    return [{"narrator_a_id": a, "narrator_b_id": b} for a, b in chosen if a != b]


def _random(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 (reproducible sampling, not cryptography)


async def pick_hadith_with_chains(conn: asyncpg.Connection, seed: int, count: int) -> list[int]:
    """`count` hadith that have chains, drawn as `pick_arguments` draws its first (with the same seed, its
    `get_hadith` ids open this list)."""
    return _random(seed).sample(await _column(conn, HADITH_WITH_CHAINS), count)


async def pick_arguments(conn: asyncpg.Connection, seed: int, count: int) -> dict[str, list[Variables]]:
    """`count` argument sets (GraphQL variables) per tool."""
    rng = _random(seed)
    hadith = rng.sample(await _column(conn, HADITH_WITH_CHAINS), count)
    commented = rng.sample(await _column(conn, HADITH_WITH_COMMENTARY), count)
    narrators = rng.sample(await _column(conn, NARRATORS_IN_CHAINS), count)
    pairs = rng.sample([(row[0], row[1]) for row in await conn.fetch(RELATED_PAIRS)], count)
    return {
        "search_hadith": await _search_hadith(conn, rng, count),
        "get_hadith": [{"hadith_id": h} for h in hadith],
        "get_hadith_chains": [{"hadith_id": h} for h in hadith],
        "search_narrator": await _search_narrator(conn, narrators, rng),
        "get_narrator_profile": [{"narrator_id": n} for n in narrators],
        "get_narrator_hadiths": [{"narrator_id": n} for n in narrators],
        "get_transmission_relation": _pairs(pairs, rng),
        "get_hadith_commentary": [{"hadith_id": h} for h in commented],
    }
