"""Typo recall of search_narrator: the evaluation set's names with one letter dropped, doubled, or two letters
swapped in one word.

    python -m bench.name_typo_recall [--queries eval/search_queries.jsonl] [--misses]

On the database of ISNAD_DATABASE_URL, else the embedded PostgreSQL. Each search_narrator query of the set that
expects an answer and has a word of bench.typo_recall's MIN_LETTERS letters or more is slipped in one such word
(drawn, seed SEED), at one place drawn, in each of bench.typo_recall's three ways: three queries per name, scored
as bench.search_eval scores the set (recall@1, recall@5, MRR), per query type and slip. A script that prints
figures, never a test.
"""

import asyncio
import random
import sys
from collections.abc import Sequence
from dataclasses import replace

from rich.console import Console

from bench.search_eval import QUERIES, EvalQuery, arguments, print_misses, read_queries, run, table
from bench.typo_recall import slipped

SEED = 3


def slipped_names(queries: Sequence[EvalQuery]) -> list[EvalQuery]:
    """Each name query that expects an answer, slipped each way in one of its long enough words; its type
    becomes '<type> <slip>'."""
    rng = random.Random(SEED)  # noqa: S311 (reproducible sampling, not cryptography)
    out: list[EvalQuery] = []
    for query in queries:
        if query.tool == "search_narrator" and query.expected:
            slips = slipped(query.query, rng) or {}
            out.extend(replace(query, type=f"{query.type} {slip}", query=text) for slip, text in slips.items())
    return out


def main(argv: Sequence[str] | None = None) -> None:
    options = arguments(__doc__, QUERIES, argv)
    console = Console(width=None if sys.stdout.isatty() else 160)
    metrics, misses = asyncio.run(run(slipped_names(read_queries(options.queries))))
    console.print(table(metrics))
    if options.misses:
        print_misses(console, misses)


if __name__ == "__main__":
    main()
