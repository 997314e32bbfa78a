"""What a reader of the books needs beyond the rows the sources give, filled by SQL once the rows are written
(with the other derived tables, ingest/derived.py).

Each collection, book and chapter gets its count of hadith rows; each book and chapter the `seq_in_collection`
of its first hadith, which is its place in the collection's order (the sources' own order: hadith-json is read
kitab by kitab; a kitab's number, text, does not sort it: '10' comes before '2'). `collection_source`
lists, per collection, the records its hadith rows come from, by role, with how many hadith each gives.
"""

COLLECTION_COUNTS = """
UPDATE collection c
   SET hadith_count = h.hadith
  FROM (SELECT collection_id, count(*) AS hadith FROM hadith GROUP BY collection_id) h
 WHERE h.collection_id = c.collection_id
"""


def _counted_in_order(table: str, key: str) -> str:
    """Each row of `table` gets the count of the hadith of its `key` and the first one's seq_in_collection."""
    return f"""
UPDATE {table} t
   SET hadith_count = h.hadith, seq_in_collection = h.first_seq
  FROM (SELECT {key}, count(*) AS hadith, min(seq_in_collection) AS first_seq
          FROM hadith WHERE {key} IS NOT NULL GROUP BY {key}) h
 WHERE h.{key} = t.{key}
"""


BOOK_ORDER = _counted_in_order("book", "book_id")
CHAPTER_ORDER = _counted_in_order("chapter", "chapter_id")

COLLECTION_SOURCE = """
INSERT INTO collection_source (collection_id, source_rank, role, source_id, edition_id, hadith_count)
SELECT collection_id, row_number() OVER (PARTITION BY collection_id ORDER BY role, source_id, edition_id),
       role, source_id, edition_id, hadith
  FROM (SELECT h.collection_id, r.role, r.source_id, r.edition_id, count(DISTINCT r.hadith_id) AS hadith
          FROM hadith_source_record r JOIN hadith h ON h.hadith_id = r.hadith_id
         GROUP BY h.collection_id, r.role, r.source_id, r.edition_id) s
 ORDER BY 1, 2
"""

READING_ORDER = (COLLECTION_COUNTS, BOOK_ORDER, CHAPTER_ORDER, COLLECTION_SOURCE)
