"""ingest/reading_order.py: the counts of hadith of each collection, book and chapter, and the place of a book or
chapter in its collection's order, stored at import for the reader."""

from ingest.run import ImportReport
from tests.graphql_client import rows


async def test_the_import_counts_the_hadith_of_each_collection_book_and_chapter(
    imported: ImportReport, database_url: str
) -> None:
    counted = await rows(
        database_url,
        """SELECT (SELECT count(*) FROM collection WHERE hadith_count <> (SELECT count(*) FROM hadith h
                                                                     WHERE h.collection_id = collection.collection_id))
                + (SELECT count(*) FROM book WHERE hadith_count <> (SELECT count(*) FROM hadith h
                                                                  WHERE h.book_id = book.book_id))
                + (SELECT count(*) FROM chapter WHERE hadith_count <> (SELECT count(*) FROM hadith h
                                                                     WHERE h.chapter_id = chapter.chapter_id)) AS wrong,
                  (SELECT hadith_count FROM collection WHERE code = 'bukhari') AS bukhari""",
    )
    assert counted == [{"wrong": 0, "bukhari": 37}]


async def test_a_book_is_placed_by_its_first_hadith_not_by_its_number(
    imported: ImportReport, database_url: str
) -> None:
    found = await rows(
        database_url,
        "SELECT number, seq_in_collection FROM book WHERE collection_id = 1 ORDER BY seq_in_collection",
    )
    assert [(row["number"], row["seq_in_collection"]) for row in found] == [
        ("1", 1),
        ("2", 8),
        ("10", 681),
        ("14", 977),
        ("24", 1421),
        ("65", 4312),
    ]
