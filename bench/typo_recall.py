"""Typo recall: phrases cut from hadith, with one letter dropped, doubled, or two letters swapped in one word.

    python -m bench.typo_recall [--phrases 300] [--seed 3]

On the database of ISNAD_DATABASE_URL, else the embedded PostgreSQL. Draws `phrases` phrases of
PHRASE_WORDS consecutive words from the second half of normalized hadith texts (the matn, mostly),
kept where at most MAX_HOLDING hadith hold them and one word has MIN_LETTERS letters; in one such
word (drawn), one letter is dropped, one doubled, and two swapped: three queries per phrase. A query
is found when a hadith holding the phrase is among the top TOP results of search_hadith. Prints, per
slip, how many were found. A script that prints figures, never a test.
"""

import argparse
import asyncio
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence

import asyncpg
import httpx
from rich.console import Console
from rich.table import Table

from app.asgi import create_app
from app.data.embedded import database_url
from app.settings import load_settings
from bench.search_eval import TOP, EvalQuery, answers

PHRASE_WORDS = 4
MAX_HOLDING = 4
MIN_LETTERS = 4
TEXTS = "SELECT text_ar_normalized FROM hadith WHERE text_ar_normalized IS NOT NULL ORDER BY hadith_id"
HOLDING = "SELECT canonical_reference FROM hadith WHERE ' ' || text_ar_normalized || ' ' LIKE $1"
Slip = Callable[[str, int], str]  # a word, a place in it (1 .. len - 2) -> the word slipped there
SLIPS: dict[str, Slip] = {
    "dropped": lambda word, at: word[:at] + word[at + 1 :],
    "doubled": lambda word, at: word[: at + 1] + word[at:],
    "swapped": lambda word, at: word[:at] + word[at + 1] + word[at] + word[at + 2 :],
}


def _phrase(text: str, rng: random.Random) -> str | None:
    words = text.split()
    if len(words) < 3 * PHRASE_WORDS:
        return None
    start = rng.randrange(len(words) // 2, len(words) - PHRASE_WORDS)
    return " ".join(words[start : start + PHRASE_WORDS])


def slipped(phrase: str, rng: random.Random) -> dict[str, str] | None:
    """The phrase with one long enough word slipped each way, at one place drawn; None without such a word."""
    words = phrase.split()
    long_enough = [place for place, word in enumerate(words) if len(word) >= MIN_LETTERS]
    if not long_enough:
        return None
    place = rng.choice(long_enough)
    at = rng.randrange(1, len(words[place]) - 1)
    return {
        name: " ".join([*words[:place], slip(words[place], at), *words[place + 1 :]]) for name, slip in SLIPS.items()
    }


async def draw(conn: asyncpg.Connection, count: int, seed: int) -> list[tuple[set[str], dict[str, str]]]:
    """`count` phrases: the hadith holding each, and its slipped forms."""
    rng = random.Random(seed)  # noqa: S311 (reproducible sampling, not cryptography)
    texts = [row[0] for row in await conn.fetch(TEXTS)]
    rng.shuffle(texts)
    drawn = []
    for text in texts:
        phrase = _phrase(text, rng)
        queries = slipped(phrase, rng) if phrase else None
        if phrase and queries:
            holding = {row[0] for row in await conn.fetch(HOLDING, f"% {phrase} %")}
            if len(holding) <= MAX_HOLDING:
                drawn.append((holding, queries))
        if len(drawn) == count:
            break
    return drawn


async def measure(count: int, seed: int) -> Counter[str]:
    settings = load_settings()
    found: Counter[str] = Counter()
    with database_url(settings.database_url, settings.embedded_pgdata) as url:
        conn = await asyncpg.connect(url, server_settings={"search_path": f"{settings.db_schema}, public"})
        try:
            phrases = await draw(conn, count, seed)
        finally:
            await conn.close()
        app = create_app(settings, url)
        try:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://typo") as client:
                for holding, queries in phrases:
                    for name, query in queries.items():
                        got = await answers(client, EvalQuery(name, "search_hadith", query, (), {}))
                        found[name] += bool(holding & set(got))
                        found["phrases"] += name == "dropped"
        finally:
            await app.state.engine.dispose()
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phrases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=3)
    options = parser.parse_args(argv)
    found = asyncio.run(measure(options.phrases, options.seed))
    table = Table(title=f"typo recall@{TOP}: a hadith holding the phrase among the results")
    for column in ("slip", "found", "of", "recall"):
        table.add_column(column, justify="left" if column == "slip" else "right")
    for name in SLIPS:
        table.add_row(name, str(found[name]), str(found["phrases"]), f"{found[name] / max(found['phrases'], 1):.3f}")
    Console(width=None if sys.stdout.isatty() else 120).print(table)


if __name__ == "__main__":
    main()
