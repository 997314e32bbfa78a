"""The links of narrators to rijal notices (ingest.rijal): the Taqrib candidates, the shared name key, and
al-Kashif and al-Mughni corroborated through Taqrib, each judged on the evidence (ingest.link_evidence).
"""

import itertools
import logging
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ingest.chain_alignment import alignment
from ingest.context import ImportContext, Row
from ingest.link_evidence import Record, agreement, contradiction, denies, short_name
from ingest.narrators import (
    NameKey,
    grade_tier,
    is_companion_label,
    name_key,
)
from ingest.rijal_notices import CORROBORATED_WORKS, TAQRIB, Library
from ingest.sigla import notice_collections
from ingest.taqrib_candidates import Candidate, taqrib_candidates

log = logging.getLogger(__name__)


SHARED_KEY_METHOD = "name3"
CORROBORATED_METHOD = "name3+taqrib_key"
MAX_CANDIDATES = 5


def _link(narrator: int, notice: int, status: str, method: str, source_id: str) -> Row:
    return {
        "narrator_id": narrator,
        "notice_id": notice,
        "status": status,
        "method": method,
        "confidence": None,
        "source_id": source_id,
    }


def _narrators(ctx: ImportContext) -> dict[int, Row]:
    return {row["narrator_id"]: row for row in ctx.tables["narrator"]}


@dataclass
class Evidence:
    """The narrators and what the import knows of each apart from the notices (link_evidence.Record)."""

    narrators: dict[int, Row]
    records: dict[int, Record]
    in_chains: set[int]
    denied: int = 0


def _add_link(ctx: ImportContext, evidence: Evidence, notice: Row, link: Row, *names: str) -> None:
    """Add a link, unless the notice denies being this narrator (by his dataset name or `names`)."""
    name = evidence.narrators[link["narrator_id"]]["name_ar"]
    if denies(notice["text"], [name or "", *names]):
        evidence.denied += 1
        return
    ctx.add("narrator_notice_link", link)


def _judged(notice: Row, record: Record, name_method: str) -> tuple[str, str]:
    """(status, method) of a name match that is the only one on both sides: LINKED with the evidence that
    corroborates it; CONFLICTED where the notice contradicts the record (a tabaqa always, a death year
    unless the tabaqa agrees: the dataset's years are sometimes another report, Khalid b. Hayyan's 161
    for Ibn Hajar's 191); AMBIGUOUS on the name alone."""
    found = agreement(notice["text"], notice["tabaqa"], record)
    against = contradiction(notice["text"], notice["tabaqa"], record)
    if against and found != "tabaqa":
        return "CONFLICTED", f"{name_method}({against}_mismatch)"
    return ("LINKED", f"{name_method}+{found}") if found else ("AMBIGUOUS", name_method)


def _candidate_status(candidate: Candidate, notice: Row, record: Record) -> tuple[str, str]:
    """(status, method) of a candidate link (ingest.taqrib_candidates), judged on the evidence (_judged), its
    method the candidate's name evidence ('name3', 'name2_namesakes' ...) and what agrees. Ibn Hajar gives
    Companions no tabaqa; there companionship is the evidence: both sources say Companion -> LINKED, only the
    notice does -> CONFLICTED."""
    if notice["tabaqa"] is not None or grade_tier(notice["grade_term"], None, notice["text"]) != "companion":
        return _judged(notice, record, candidate.method)
    if is_companion_label(candidate.label):
        return "LINKED", f"{candidate.method}+companion"
    return "CONFLICTED", f"{candidate.method}(companion_mismatch)"


def _add_candidate_links(ctx: ImportContext, library: Library, evidence: Evidence) -> None:
    """The candidates' links (ingest.taqrib_candidates); a narrator left out of this import (a damaged row) is a
    gap, not a bad row."""
    absent = 0
    for candidate in taqrib_candidates(ctx, library):
        if candidate.narrator not in evidence.narrators:
            absent += 1
            continue
        row, narrator = library.notices[candidate.notice], candidate.narrator
        status, method = _candidate_status(candidate, row, evidence.records[narrator])
        _add_link(ctx, evidence, row, _link(narrator, candidate.notice, status, method, TAQRIB.source_id))
    log.info("Taqrib candidates for narrators not imported: %d", absent)


def _evidence(ctx: ImportContext) -> Evidence:
    """Each narrator's record: generation and death year, the collections of his chains, and the short
    names of his teachers and students (the dataset's student lists and his neighbours in the chains)."""
    narrators = _narrators(ctx)
    collections: dict[int, set[str]] = defaultdict(set)
    related: dict[int, set[int]] = defaultdict(set)
    for chain in alignment(ctx):  # every chain, placed or not: its collection is its id's
        for narrator in chain.scholars:
            collections[narrator].add(chain.collection)
        for first, second in itertools.pairwise(chain.scholars):
            related[first].add(second)
            related[second].add(first)
    for relation in ctx.tables["transmission_relation"]:
        related[relation["teacher_id"]].add(relation["student_id"])
        related[relation["student_id"]].add(relation["teacher_id"])
    short = {narrator: short_name(row["name_ar"]) for narrator, row in narrators.items() if row["name_ar"]}
    records = {
        narrator: Record(
            name=row["name_ar"] or "",
            generation=row["generation"],
            death_year=row["death_year_hijri"],
            collections=frozenset(collections.get(narrator, ())),
            related_names=frozenset(name for other in related.get(narrator, ()) if (name := short.get(other))),
        )
        for narrator, row in narrators.items()
    }
    return Evidence(narrators, records, set(collections) & narrators.keys())


def _add_shared_key_links(ctx: ImportContext, library: Library, evidence: Evidence) -> None:
    """Links for chain narrators without a candidate to the Taqrib notices sharing their key: the one
    notice of that key judged on the evidence (_judged), AMBIGUOUS to each of two to five."""
    covered = {link["narrator_id"] for link in ctx.tables["narrator_notice_link"]}
    for narrator in sorted(evidence.in_chains - covered):
        name = evidence.narrators[narrator]["name_ar"]
        found = library.matches(TAQRIB, name_key(name)) if name else []
        for notice in found if len(found) <= MAX_CANDIDATES else []:
            row = library.notices[notice]
            status, method = (
                _judged(row, evidence.records[narrator], SHARED_KEY_METHOD)
                if len(found) == 1
                else ("AMBIGUOUS", SHARED_KEY_METHOD)
            )
            _add_link(ctx, evidence, row, _link(narrator, notice, status, method, TAQRIB.source_id))


def _linked(ctx: ImportContext, source_id: str) -> Iterator[Row]:
    notices = {row["notice_id"]: row["source_id"] for row in ctx.tables["rijal_notice"]}
    for link in ctx.tables["narrator_notice_link"]:
        if link["status"] == "LINKED" and notices[link["notice_id"]] == source_id:
            yield link


def _corroborated_keys(
    ctx: ImportContext, library: Library, evidence: Evidence
) -> dict[NameKey, list[tuple[int, int]]]:
    """Name key -> the narrators whose LINKED Taqrib notice has the same key as their own name, each with
    that notice."""
    groups: dict[NameKey, list[tuple[int, int]]] = defaultdict(list)
    for link in _linked(ctx, TAQRIB.source_id):
        name = evidence.narrators[link["narrator_id"]]["name_ar"]
        if name and name_key(name) == library.keys[link["notice_id"]]:
            groups[name_key(name)].append((link["narrator_id"], link["notice_id"]))
    return groups


def _as_taqrib_says(library: Library, record: Record, taqrib: int) -> Record:
    """The record with the books of Ibn Hajar's sigla in place of the collections of his chains: the
    books al-Kashif's or al-Mughni's sigla must share ('Amr b. Mansur al-Nasa'i is «س» in Taqrib; the
    al-Mughni «عمرو بن منصور عن الشعبي» is «د»)."""
    return replace(record, collections=notice_collections(library.notices[taqrib]["text"]))


def _add_corroborated_links(ctx: ImportContext, library: Library, evidence: Evidence) -> None:
    """al-Kashif and al-Mughni notices with the key of a narrator's LINKED Taqrib notice: one notice and
    one such narrator are judged on the evidence (_judged, the sigla against Taqrib's: _as_taqrib_says);
    otherwise (up to five notices) AMBIGUOUS."""
    groups = _corroborated_keys(ctx, library, evidence)
    for work in CORROBORATED_WORKS:
        for key, narrators in groups.items():
            found = library.matches(work, key)
            if len(found) > MAX_CANDIDATES:
                continue
            unique = len(found) == 1 and len(narrators) == 1
            for narrator, taqrib in narrators:
                record = _as_taqrib_says(library, evidence.records[narrator], taqrib)
                for notice in found:
                    row = library.notices[notice]
                    status, method = (
                        _judged(row, record, CORROBORATED_METHOD) if unique else ("AMBIGUOUS", CORROBORATED_METHOD)
                    )
                    link = _link(narrator, notice, status, method, work.source_id)
                    _add_link(ctx, evidence, row, link, library.headwords.get(taqrib, ""))
