"""The audit of hadith grades: how the wordings of each grader fall into the classes of ingest/grades.py, and
the wordings that stay unclassified."""

from ingest.audit.section import Section, query

BY_CLASS = """
SELECT c.grade_class, count(*) AS grades, count(DISTINCT c.hadith_id) AS hadith,
       (SELECT string_agg(grader || ' ' || n, ', ' ORDER BY n DESC, grader)
          FROM (SELECT grader, count(*) AS n FROM hadith_grade g WHERE g.grade_class = c.grade_class
                 GROUP BY grader) per_grader) AS by_grader
  FROM hadith_grade c GROUP BY c.grade_class ORDER BY grades DESC, c.grade_class
"""

BY_GRADER = """
SELECT grader, source_id, count(*) AS grades, count(DISTINCT grade) AS wordings,
       count(*) FILTER (WHERE grade_class NOT IN ('unclassified', 'no_grade', 'in_sahihayn')) AS classified,
       count(*) FILTER (WHERE grade_class = 'in_sahihayn') AS in_sahihayn,
       count(*) FILTER (WHERE grade_class = 'no_grade') AS no_grade,
       count(*) FILTER (WHERE grade_class = 'unclassified') AS unclassified,
       count(DISTINCT grade) FILTER (WHERE grade_class = 'unclassified') AS unclassified_wordings
  FROM hadith_grade GROUP BY grader, source_id ORDER BY grades DESC, grader
"""

UNCLASSIFIED = """
SELECT grade, string_agg(DISTINCT grader, ', ') AS graders, count(*) AS grades
  FROM hadith_grade WHERE grade_class = 'unclassified'
 GROUP BY grade ORDER BY grades DESC, grade LIMIT 20
"""

SECTIONS: tuple[Section, ...] = (
    Section(
        "Hadith grades by class",
        query(BY_CLASS),
        "Each grade's class is read from the table of its wording (ingest/grades.py); by_grader counts each "
        "grader's grades of the class. A class groups wordings, it is no verdict of this database.",
    ),
    Section(
        "Hadith grades by grader",
        query(BY_GRADER),
        "classified: a wording the table classes (a verdict, or a scope alone: mawquf ...); in_sahihayn: a bare "
        "reference to the two Sahihs; no_grade: the source's field holds '-'; unclassified: a wording the table "
        "does not hold.",
    ),
    Section(
        "Unclassified grade wordings, the most frequent",
        query(UNCLASSIFIED),
        "Kept verbatim and served as unclassified: a grade with a reservation on part of the text, several "
        "verdicts for several narrations, a verdict on the isnad with a takhrij.",
    ),
)
