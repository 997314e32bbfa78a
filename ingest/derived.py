"""The tables derived from the imported ones, filled by SQL once the rows are written, before the swap.

Each holds a list that a narrator tool reads, in the order the tool lists it, with each row's rank in it: a
narrator's name forms and rijal entries (get_narrator_profile), its confirmed occurrences
(get_narrator_hadiths), the relations recorded between two narrators and where they stand adjacent in a chain
(get_transmission_relation). The first rows of a list, or a page of it, are then a range of its primary key,
read without sorting, whatever the list holds in all. The narrators' `occurrence_count` and
`distinct_hadith_count` are counted from those occurrences. The ranks are computed by the server the API reads,
text compared in its collation; where the tool's order leaves ties (a name form given by two sources), the
source settles them. The reader's counts and order of collections, books and chapters come last
(ingest/reading_order.py). The search vocabulary's keys (search_term_key) come first: by them the fuzzy search
finds the terms one letter off a query word; then the words and pairs of words most texts hold (search_common_pair),
and the words of the narrators' name keys under their own keys (search_name_word).
"""

import asyncpg

from ingest.reading_order import READING_ORDER

OBSERVABLE = "('confirmed', 'probable')"  # nodes whose narrator id the evidence supports
RELATION_ORDER = "ARRAY['attested', 'probable', 'ambiguous', 'unresolved']"  # strongest status first
LINK_ORDER = "ARRAY['LINKED', 'AMBIGUOUS', 'CONFLICTED']"

PROFILE_VARIANT = """
INSERT INTO profile_variant (narrator_id, variant_rank, form, script, kind, source_id, source_key)
SELECT narrator_id, row_number() OVER (PARTITION BY narrator_id ORDER BY kind, script, form, source_id),
       form, script, kind, source_id, source_key
  FROM narrator_name_variant
 ORDER BY 1, 2
"""

PROFILE_ENTRY = f"""
INSERT INTO profile_entry (narrator_id, entry_rank, notice_id, entry_id, text, page, work_source_id, status,
                           method, confidence, link_source_id)
SELECT l.narrator_id,
       row_number() OVER (PARTITION BY l.narrator_id
                          ORDER BY array_position({LINK_ORDER}, l.status), l.confidence DESC NULLS LAST, r.entry_id),
       l.notice_id, r.entry_id, r.text, r.page, r.source_id, l.status, l.method, l.confidence, l.source_id
  FROM narrator_notice_link l JOIN rijal_notice r ON r.notice_id = l.notice_id
 ORDER BY 1, 2
"""

NARRATOR_OCCURRENCE = """
INSERT INTO narrator_occurrence (narrator_id, occurrence_rank, hadith_id, canonical_reference, chain_id,
                                 chain_source_id, chain_source_key, node_id, position, node_source_key)
SELECT n.narrator_id,
       row_number() OVER (PARTITION BY n.narrator_id ORDER BY c.hadith_id, c.chain_number, n.position),
       c.hadith_id, h.canonical_reference, c.chain_id, c.source_id, c.source_key, n.node_id, n.position, n.source_key
  FROM chain_node n JOIN chain c ON c.chain_id = n.chain_id JOIN hadith h ON h.hadith_id = c.hadith_id
 WHERE n.resolution_status = 'confirmed'
 ORDER BY 1, 2
"""

NARRATOR_COUNTS = """
UPDATE narrator n
   SET occurrence_count = o.occurrences, distinct_hadith_count = o.hadith
  FROM (SELECT narrator_id, count(*) AS occurrences, count(DISTINCT hadith_id) AS hadith
          FROM narrator_occurrence GROUP BY narrator_id) o
 WHERE o.narrator_id = n.narrator_id
"""

PAIR_RELATION = f"""
WITH paired AS (
    SELECT least(teacher_id, student_id) AS least_narrator_id, greatest(teacher_id, student_id) AS greatest_narrator_id,
           relation_id, teacher_id, student_id, status, method, confidence, source_id, source_key
      FROM transmission_relation
     WHERE teacher_id <> student_id
)
INSERT INTO pair_relation (least_narrator_id, greatest_narrator_id, relation_rank, relation_id, teacher_id,
                           student_id, status, method, confidence, source_id, source_key)
SELECT least_narrator_id, greatest_narrator_id,
       row_number() OVER (PARTITION BY least_narrator_id, greatest_narrator_id
                          ORDER BY array_position({RELATION_ORDER}, status), source_id, teacher_id),
       relation_id, teacher_id, student_id, status, method, confidence, source_id, source_key
  FROM paired
 ORDER BY 1, 2, 3
"""

PAIR_OBSERVATION = f"""
WITH adjacent AS (
    SELECT least(lower_node.narrator_id, upper_node.narrator_id) AS least_narrator_id,
           greatest(lower_node.narrator_id, upper_node.narrator_id) AS greatest_narrator_id,
           c.hadith_id, h.canonical_reference, c.chain_id, c.source_id, c.source_key,
           upper_node.node_id AS upper_node_id, lower_node.node_id AS lower_node_id, lower_node.position,
           NOT EXISTS (SELECT 1 FROM chain_check k WHERE k.chain_id = c.chain_id) AS chain_checks_passed
      FROM chain_node lower_node
      JOIN chain_node upper_node
        ON upper_node.chain_id = lower_node.chain_id AND upper_node.position = lower_node.position + 1
      JOIN chain c ON c.chain_id = lower_node.chain_id
      JOIN hadith h ON h.hadith_id = c.hadith_id
     WHERE lower_node.narrator_id <> upper_node.narrator_id
       AND lower_node.resolution_status IN {OBSERVABLE} AND upper_node.resolution_status IN {OBSERVABLE}
)
INSERT INTO pair_observation (least_narrator_id, greatest_narrator_id, observation_rank, hadith_id,
                              canonical_reference, chain_id, chain_source_id, chain_source_key,
                              upper_node_id, lower_node_id, chain_checks_passed)
SELECT least_narrator_id, greatest_narrator_id,
       row_number() OVER (PARTITION BY least_narrator_id, greatest_narrator_id ORDER BY hadith_id, chain_id, position),
       hadith_id, canonical_reference, chain_id, source_id, source_key, upper_node_id, lower_node_id,
       chain_checks_passed
  FROM adjacent
 ORDER BY 1, 2, 3
"""

# A term is found by its keys: itself, and itself with any one letter deleted. Two words one letter apart (a
# letter dropped, added, changed, or two swapped) share a key, so a query word's keys (app/data/search/vocabulary.py)
# find, in one index-only scan, every term one letter off it, among a few others, with its document count and
# whether the fulltext tier's text search indexes it (the French configuration of the tier leaves stop words out).
SEARCH_TERM_KEY = """
WITH term AS (
    SELECT language, term, doc_count,
           language <> 'fr' OR length(to_tsvector('french_unaccent', term)) > 0 AS indexed
      FROM search_term
)
INSERT INTO search_term_key (language, key, term, doc_count, indexed)
SELECT language, term, term, doc_count, indexed FROM term
 UNION
SELECT language, left(term, i - 1) || substr(term, i + 1), term, doc_count, indexed
  FROM term, generate_series(1, char_length(term)) AS i
 ORDER BY 1, 2, 3
"""

# The words and pairs of words (hadith.text_ar_pairs) that at least COMMON_PAIR_SHARE of the texts hold: a phrase made
# of them alone («صلى الله عليه وسلم») is in most texts, and the exact tier reads the texts in key order for it
# instead of its pairs' index (app/data/search/wording.py).
COMMON_PAIR_SHARE = 0.3
SEARCH_COMMON_PAIR = f"""
INSERT INTO search_common_pair (pair, doc_count)
SELECT pair, count(*)
  FROM hadith, unnest(text_ar_pairs) AS pair
 GROUP BY pair
HAVING count(*) >= {COMMON_PAIR_SHARE} * (SELECT count(*) FROM hadith)
 ORDER BY 1
"""

# Every word of a name form's key, by script, under its keys as a search term is (SEARCH_TERM_KEY): whether a query's
# word is some name's is a read of the primary key (the word under itself; app/data/search/names.py), where the index
# of the forms' words lists every form holding it («بن»: 10,541); and a word no name holds finds, by its own keys,
# every name's word one letter off it.
SEARCH_NAME_WORD = """
WITH word AS (
    SELECT DISTINCT script, word FROM narrator_search_form, unnest(string_to_array(search_key, ' ')) AS word
)
INSERT INTO search_name_word (script, key, word)
SELECT script, word, word FROM word
 UNION
SELECT script, left(word, i - 1) || substr(word, i + 1), word
  FROM word, generate_series(1, char_length(word)) AS i
 ORDER BY 1, 2, 3
"""

DERIVED = (
    SEARCH_TERM_KEY,
    SEARCH_COMMON_PAIR,
    SEARCH_NAME_WORD,
    PROFILE_VARIANT,
    PROFILE_ENTRY,
    NARRATOR_OCCURRENCE,
    NARRATOR_COUNTS,
    PAIR_RELATION,
    PAIR_OBSERVATION,
    *READING_ORDER,
)


async def fill_derived_tables(conn: asyncpg.Connection) -> None:
    """Fill them from the written tables of the build schema (the search_path's first)."""
    for statement in DERIVED:
        await conn.execute(statement)
