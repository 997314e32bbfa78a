"""Search statements: hadith by citation, Arabic and French wording; narrators by any name form.

A citation is one statement. The wording tiers (HADITH_TIERS) run together: one statement holds the
tiers it is given, best first, each finding hadith that the earlier ones did not, in what they left of
`most`; a tier that the earlier ones filled is never read (PostgreSQL reads a CTE only as its rows are
pulled, and nothing under a limit of 0). Each tier reads a bounded number of rows (CANDIDATES,
FUZZY_CANDIDATES) before ranking them, whatever the query. The fuzzy tier needs the vocabulary first
(the query words' corrections): the statement of the exact and fulltext tiers can read it too, only when
they leave room (Arabic: then the fuzzy tier is a second statement), or it is read first (French, whose
fulltext tier needs to know which words are stop words: then every tier is the second statement). The
narrator tiers run as one statement: the four tiers of the name key together, then the fuzzy tier only
when they leave room; when it alone found anyone, or no one, the words of the query that no name holds are
read one letter off (two more statements: which words no name holds, then the names holding them so). The
resolvers choose the statements (resolvers/search_hadith.py, resolvers/search_narrator.py).

One module per idea: `citations`, `wording` (the hadith tiers), `vocabulary` (the fuzzy tier's corrections),
`names` (the narrator tiers), and `common` (what they share).

Every statement is built once per shape (the language, which filters and tiers it holds), with named
parameters, and runs through `Bound`: compiled once, then prepared once per connection, whatever the
query.

Scores, each in [0, 1] and comparable within its tier:
- hadith `reference`: 1.0, every hadith the citation can name;
- hadith `exact`: how much of the hadith the phrase covers (its characters over the normalized matn's,
  or the French text's);
- hadith `fulltext`: that coverage, how close together the words stand (ts_rank_cd) and whether they
  stand in the query's order; the best RERANKED are then averaged with the trigram word similarity
  of query and text;
- hadith `fuzzy`: the share of the query's words the text holds (rare words weigh more; a word one
  letter off counts FUZZY_WORD_CREDIT), averaged with the trigram word similarity; at least
  FUZZY_MIN_SCORE;
- narrator `exact`: 1.0; the other narrator tiers: NAME_MATCH_WEIGHT x how well the name form
  matches (share of it the query covers, trigram similarity, or share of its consonants) + the rest x
  the narrator's prior (how many chain nodes name him, on a log scale), so that the narrator named in
  more chains ranks first when names tie.
"""

from app.data.search.citations import hadith_by_citation
from app.data.search.common import HADITH_TIERS, FuzzyWord, HadithHits, HadithScope, Wording
from app.data.search.name_index import NameIndex
from app.data.search.names import NarratorScope, narrators_by_name
from app.data.search.vocabulary import fuzzy_words, known_words
from app.data.search.wording import hadith_by_fuzzy_words, hadith_by_wording, hadith_then_fuzzy_words

__all__ = [
    "HADITH_TIERS",
    "FuzzyWord",
    "HadithHits",
    "HadithScope",
    "NameIndex",
    "NarratorScope",
    "Wording",
    "fuzzy_words",
    "hadith_by_citation",
    "hadith_by_fuzzy_words",
    "hadith_by_wording",
    "hadith_then_fuzzy_words",
    "known_words",
    "narrators_by_name",
]
