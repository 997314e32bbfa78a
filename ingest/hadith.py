"""Builds the corpus: edition, collection, book (kitab), chapter (bab), hadith, hadith_source_record
and hadith_grade.

The seven collections take one hadith row per hadith-json record (sunnah.com Arabic with isnad, and
English). The crosswalk to the hadith-api numbers, computed from the English of hadith-json and of
the fawaz edition (ingest/crosswalk.py), proposes the canonical number; where the numbered
record's kitab and Arabic agree (ingest/numbering.py), the number is kept, and through it the hadith-api
French and grades; a refused number is recorded with its reason, and the hadith keeps its in-book
reference. The LK corpus, joined by Arabic text containment (the LK crosswalk, computed from the Arabic of
both, ingest/lk_crosswalk.py), gives the bab, its
own grade annotation, and the length of its matn (isnad and matn split), which the search's scores
measure a hadith by. The three forties come from the hadith-api editions, with the hadith-json
English where its record of the same number has the same Arabic.
"""

from ingest import lk_crosswalk
from ingest.context import ImportContext
from ingest.forties import _Forty
from ingest.hadith_rows import _add_collection
from ingest.hadith_sources import FORTIES, SEVEN
from ingest.seven_collections import _Collection


def build(ctx: ImportContext) -> None:
    lk_links = lk_crosswalk.links(ctx)
    for code in SEVEN:
        _add_collection(ctx, code, code, hadith_json=True)
        _Collection(ctx, code, lk_links.get(code, {})).build()
    for code, api in FORTIES.items():
        _Forty(ctx, code, api).build()
