"""The figures an import ends with: rows per table and the coverage of what the tools can answer."""

import asyncpg

from ingest.reporter import Reporter
from ingest.writer import table_order

COVERAGE: tuple[tuple[str, str], ...] = (
    (
        "Hadith per collection",
        """SELECT c.code AS collection, count(*) AS hadith,
                  count(h.canonical_number) AS canonically_numbered,
                  count(h.text_fr) AS with_french,
                  count(*) FILTER (WHERE EXISTS (SELECT 1 FROM chain ch WHERE ch.hadith_id = h.hadith_id))
                      AS with_chain,
                  count(h.chapter_id) AS with_chapter
             FROM hadith h JOIN collection c USING (collection_id)
            GROUP BY c.collection_id, c.code ORDER BY c.collection_id""",
    ),
    (
        "Chain nodes per status",
        """SELECT ch.origin, n.resolution_status, count(*) AS nodes,
                  count(n.narrator_id) AS with_narrator
             FROM chain_node n JOIN chain ch USING (chain_id)
            GROUP BY ch.origin, n.resolution_status ORDER BY 1, 2""",
    ),
    (
        "Rijal notices and links",
        """SELECT s.title AS work, count(DISTINCT r.notice_id) AS notices,
                  count(l.narrator_id) FILTER (WHERE l.status = 'LINKED') AS linked,
                  count(l.narrator_id) FILTER (WHERE l.status = 'AMBIGUOUS') AS ambiguous,
                  count(l.narrator_id) FILTER (WHERE l.status = 'CONFLICTED') AS conflicted
             FROM rijal_notice r JOIN source s USING (source_id)
             LEFT JOIN narrator_notice_link l USING (notice_id)
            GROUP BY s.title ORDER BY 1""",
    ),
    (
        "Narrators",
        """SELECT count(*) AS narrators,
                  count(*) FILTER (WHERE chain_node_count > 0) AS in_chains,
                  count(*) FILTER (WHERE EXISTS (SELECT 1 FROM narrator_notice_link l
                                   WHERE l.narrator_id = n.narrator_id AND l.status = 'LINKED'))
                      AS with_linked_notice
             FROM narrator n""",
    ),
    (
        "Relations per source",
        """SELECT source_id, status, count(*) AS relations
             FROM transmission_relation GROUP BY 1, 2 ORDER BY 1, 2""",
    ),
    (
        "Commentary passages per work",
        """SELECT s.title AS work, count(*) AS passages,
                  count(*) FILTER (WHERE p.validation_status = 'VALIDATED') AS validated,
                  count(*) FILTER (WHERE p.publication_status = 'PUBLISHED') AS published
             FROM commentary_passage p JOIN source s USING (source_id)
            GROUP BY s.title ORDER BY 1""",
    ),
)


async def table_counts(conn: asyncpg.Connection) -> dict[str, int]:
    return {table: await conn.fetchval(f"SELECT count(*) FROM {table}") for table in table_order()}


async def print_summary(conn: asyncpg.Connection, reporter: Reporter) -> dict[str, int]:
    """Print rows per table, then each coverage table (the search_path names the schema); return the rows."""
    counts = await table_counts(conn)
    reporter.table("Rows per table", [{"table": table, "rows": count} for table, count in counts.items()])
    for title, sql in COVERAGE:
        reporter.table(title, [dict(record) for record in await conn.fetch(sql)])
    return counts
