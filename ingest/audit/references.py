"""The audit of canonical references (one hadith each, crosswalk numbers checked) and of the confidence of
commentary passages (docs/data-quality.md, "Canonical references and commentary alignment")."""

from ingest.audit.section import Section, query

SHARED = query(
    """
    SELECT count(*) AS shared_references, coalesce(sum(holders), 0) AS hadith_holding_them
      FROM (SELECT count(*) AS holders FROM hadith GROUP BY canonical_reference HAVING count(*) > 1) AS shared
    """
)

CROSSWALK = query(
    """
    SELECT c.code AS collection,
           count(r.hadith_id) AS kept,
           count(*) FILTER (WHERE h.numbering_refusal = 'no_kitab_to_compare') AS no_kitab_to_compare,
           count(*) FILTER (WHERE h.numbering_refusal = 'kitab_differs') AS kitab_differs,
           count(*) FILTER (WHERE h.numbering_refusal = 'arabic_differs') AS arabic_differs,
           count(*) FILTER (WHERE h.numbering_refusal = 'no_arabic_to_compare') AS no_arabic_to_compare,
           count(*) FILTER (WHERE h.numbering_refusal = 'number_taken') AS number_taken
      FROM hadith AS h
      JOIN collection AS c USING (collection_id)
      LEFT JOIN hadith_source_record AS r
        ON r.hadith_id = h.hadith_id AND r.role = 'numbering' AND r.source_id = 'fawaz-hadith'
     GROUP BY c.collection_id, c.code
    HAVING count(r.hadith_id) + count(h.numbering_refusal) > 0
     ORDER BY c.collection_id
    """
)

FRENCH_AND_GRADES = query(
    """
    SELECT c.code AS collection,
           count(*) AS hadith,
           count(*) FILTER (WHERE h.canonical_number IS NOT NULL) AS numbered,
           count(h.text_fr) AS with_french,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM hadith_grade AS g
                                           WHERE g.hadith_id = h.hadith_id AND g.source_id = 'hadith-api'))
               AS with_hadith_api_grades,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM hadith_grade AS g WHERE g.hadith_id = h.hadith_id))
               AS with_any_grade
      FROM hadith AS h
      JOIN collection AS c USING (collection_id)
     GROUP BY c.collection_id, c.code
     ORDER BY c.collection_id
    """
)

CONFIDENCE = query(
    """
    SELECT source_id AS work,
           count(*) AS verified,
           count(DISTINCT alignment_confidence) AS distinct_values,
           min(alignment_confidence) AS min,
           percentile_disc(0.1) WITHIN GROUP (ORDER BY alignment_confidence) AS p10,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY alignment_confidence) AS median,
           max(alignment_confidence) AS max,
           count(*) FILTER (WHERE alignment_confidence < 0.9) AS below_090,
           count(*) FILTER (WHERE alignment_confidence >= 0.99) AS from_099,
           count(*) FILTER (WHERE alignment_confidence >= 1) AS certain
      FROM commentary_passage
     WHERE alignment_status = 'lemma_verified'
     GROUP BY source_id
     ORDER BY source_id
    """
)

SECTIONS: tuple[Section, ...] = (
    Section(
        "Canonical references held by more than one hadith",
        SHARED,
        "Must be 0: the hadith table's unique constraint on canonical_reference enforces it.",
    ),
    Section(
        "Crosswalk numbers kept and refused, per collection",
        CROSSWALK,
        "A number is kept where the numbered record is in the hadith's kitab and its Arabic holds the hadith's"
        " (containment >= 0.8); a refused hadith keeps its in-book reference and takes no French or grades"
        " from the numbered record (ingest/numbering.py).",
    ),
    Section(
        "Hadith with French and with grades, per collection",
        FRENCH_AND_GRADES,
        "hadith-api French and grades come only through a kept number; LK grades are joined by Arabic.",
    ),
    Section(
        "Confidence of verified commentary passages, per work",
        CONFIDENCE,
        "A verified passage's confidence is 1 - the share of the collection's hadith whose Arabic holds its"
        " quotation (the longest run of its first 2-8 words that its hadith holds), rounded down.",
    ),
)
