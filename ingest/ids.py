"""Stable ids, derived deterministically from source keys (the rule is documented in docs/data.md).

Importing the same data twice gives the same ids. Narrator ids are the dataset's scholar_indx and
need no rule.
"""

COLLECTIONS: dict[str, int] = {
    "bukhari": 1,
    "muslim": 2,
    "abudawud": 3,
    "tirmidhi": 4,
    "nasai": 5,
    "ibnmajah": 6,
    "malik": 7,
    "nawawi40": 8,
    "qudsi40": 9,
    "shahwaliullah40": 10,
}

PARSED_CHAIN_BASE = 1_000_000


def hadith_id(collection_code: str, seq_in_collection: int) -> int:
    """collection id x 100,000 + the row's sequence in its source collection."""
    return COLLECTIONS[collection_code] * 100_000 + seq_in_collection


def book_id(collection_code: str, kitab_number: int) -> int:
    """collection id x 1,000 + the kitab number (0 = introduction)."""
    return COLLECTIONS[collection_code] * 1_000 + kitab_number


def chapter_id(book: int, section_number: int) -> int:
    """book id x 10,000 + the bab number of the LK corpus."""
    return book * 10_000 + section_number


def dataset_chain_id(kaggle_row: int) -> int:
    """The chain's row in the dataset's chain file, plus one."""
    return kaggle_row + 1


def parsed_chain_id(hadith: int) -> int:
    """One chain read from a hadith's own isnad: 1,000,000 + the hadith id."""
    return PARSED_CHAIN_BASE + hadith


def node_id(chain: int, position: int) -> int:
    """chain id x 100 + the node's position (chains are shorter than 100 nodes)."""
    return chain * 100 + position


def notice_id(work_number: int, place: int) -> int:
    """work number x 100,000 + the notice's place among the notices of its work's text (from 1)."""
    return work_number * 100_000 + place


def passage_id(work_number: int, seq: int) -> int:
    """work number x 100,000 + the passage's place in its commentary's text (from 1)."""
    return work_number * 100_000 + seq
