"""The corrections of a query word (app/data/search/vocabulary.py) are the same in every process: the order of
terms found as often, which decides the likeliest reading and the fuzzy tier's arguments, never comes from a set's
order, which each Python process draws from its own string hashes."""

import os
import subprocess
import sys

from app.data.search.vocabulary import corrections

# A word and the terms one letter off it that the vocabulary holds, many of them found in as many texts.
WORD = "قتل"
TERMS = {"قال": 40, "قبل": 40, "قلل": 40, "قيل": 40, "قتال": 40, "فتل": 7, "قتلى": 7, "مقتل": 7, "قتلت": 7, "تقتل": 7}
PRINT_CORRECTIONS = (
    "from app.data.search.vocabulary import corrections; from tests.data.test_search_vocabulary import wanted, rows;"
    " print(corrections(wanted(), rows()))"
)


def wanted() -> dict[str, set[str]]:
    return {WORD: set(TERMS)}


def rows() -> list[dict[str, object]]:
    return [{"term": term, "doc_count": count, "indexed": True} for term, count in TERMS.items()]


def test_terms_found_as_often_come_in_the_order_of_their_letters() -> None:
    [word] = corrections(wanted(), rows())

    assert word.terms == ("قال", "قبل", "قتال", "قلل", "قيل", "تقتل", "فتل", "قتلت", "قتلى", "مقتل")


def test_every_process_finds_the_same_corrections_whatever_its_string_hashes() -> None:
    printed = {
        subprocess.run(  # noqa: S603 - our own interpreter and a fixed line of code
            [sys.executable, "-c", PRINT_CORRECTIONS],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(6)
    }

    assert len(printed) == 1 and "FuzzyWord" in printed.pop()
