"""Rijal notices and what they say of the narrators: rijal_notice, narrator_notice_link,
scholarly_assertion, the rijal and isnad name variants, grade_tier and region, and the AR-Sanad relations.

Notices: the numbered entries of Taqrib al-Tahdhib (work 1), al-Kashif (2) and al-Mughni fi al-Du'afa (3);
a number repeated in an edition gets '#2', '#3' ... in its entry_id.

A link is LINKED only when the name and one independent piece of evidence agree (ingest.link_evidence:
tabaqa, death year, a teacher or student named in the notice, the books of the sigla), and nothing
contradicts it; the method names the evidence after '+' ('name3+tabaqa'). Where the notice contradicts
the record (tabaqa, a death year a generation apart) the link is CONFLICTED; on the name alone,
AMBIGUOUS. A notice that denies the identity («وليس باليمامي») is not linked at all.

- Taqrib: the candidates of the chain narrators (ingest.taqrib_candidates: the one notice of their
  name, or the one their generation singles out of its namesakes, 'name3_namesakes'), judged here on the
  evidence; for Companions, to whom Ibn Hajar gives no tabaqa, companionship is the evidence: the
  dataset's class and the notice both say Companion -> LINKED ('name3+companion'), only the notice ->
  CONFLICTED. A chain narrator without a candidate is matched to the Taqrib notices sharing his name key
  (first three name tokens): one notice is judged on the evidence, two to five are each AMBIGUOUS.
- al-Kashif and al-Mughni: matched by the same key only for a narrator whose LINKED Taqrib notice has
  that key: one notice and one such narrator are judged on the evidence (the sigla against those of
  his Taqrib notice), otherwise (up to five notices) AMBIGUOUS.
No link carries a confidence; the precision of LINKED per work is measured on hand-checked samples
(eval/rijal_links.jsonl, `isnad-graphql audit`).

From each LINKED Taqrib notice: Ibn Hajar's verdict read whole (ingest.verdicts) and his tabaqa as
assertions, the headword as a name variant, and the narrator's grade_tier (ingest.narrators).

AR-Sanad Lite narrators are bridged to dataset narrators through Taqrib: a Lite narrator linked to a notice
by his name and Ibn Hajar's rank or tabaqa (ingest.lite_links) and a dataset narrator LINKED to the same
notice, when that notice has exactly one of each. For bridged
narrators: the isnad forms that are name forms (ingest.variants), Ibn Hajar's and al-Dhahabi's ranks as
AR-Sanad gives them, the first living city as region, and the narrated_from / narrated_to pairs whose
both ends are bridged, as 'probable' relations (the identities are inferred, so never 'attested').
"""

import logging
from collections import Counter

from ingest.ar_sanad import _add_ar_sanad
from ingest.context import ImportContext
from ingest.narrators import (
    dedupe_table,
    number_relations,
)
from ingest.rijal_links import _add_candidate_links, _add_corroborated_links, _add_shared_key_links, _evidence
from ingest.rijal_notices import WORKS, Library, _read_work
from ingest.taqrib_evidence import _add_headword_variants, _add_taqrib_evidence

log = logging.getLogger(__name__)


def build(ctx: ImportContext) -> None:
    """Notices, links, assertions, rijal and isnad name variants, grade tiers, regions, AR-Sanad relations."""
    library = Library()
    for work in WORKS:
        _read_work(ctx, library, work)
    evidence = _evidence(ctx)
    _add_candidate_links(ctx, library, evidence)
    _add_shared_key_links(ctx, library, evidence)
    _add_corroborated_links(ctx, library, evidence)
    log.info("links refused because the notice denies the identity: %d", evidence.denied)
    dedupe_table(ctx, "narrator_notice_link", ("narrator_id", "notice_id"))
    _add_taqrib_evidence(ctx, library)
    _add_headword_variants(ctx, library)
    _add_ar_sanad(ctx, library)
    dedupe_table(ctx, "narrator_name_variant", ("narrator_id", "form", "source_id"))
    dedupe_table(ctx, "scholarly_assertion", ("narrator_id", "field", "source_id"))
    number_relations(ctx)
    log.info(
        "links: %s",
        Counter((link["source_id"], link["status"]) for link in ctx.tables["narrator_notice_link"]),
    )
