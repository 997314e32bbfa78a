"""Rijal notices and what they say of the narrators: rijal_notice, narrator_notice_link,
scholarly_assertion, the rijal and isnad name variants, grade_tier and region, and the AR-Sanad relations.

Notices: the numbered entries of Taqrib al-Tahdhib (work 1), al-Kashif (2) and al-Mughni fi al-Du'afa (3);
a number repeated in an edition gets '#2', '#3' ... in its entry_id.

A link is LINKED only when the name and one independent piece of evidence agree (ingest.link_evidence:
tabaqa, death year, a teacher or student named in the notice, the books of the sigla), and nothing
contradicts it; the method names the evidence after '+' ('name3+tabaqa'). Where the notice contradicts
the record (tabaqa, a death year a generation apart) the link is CONFLICTED; on the name alone,
AMBIGUOUS. A notice that denies the identity («وليس باليمامي») is not linked at all.

- Taqrib: the candidate file's pairs (its name match, judged here on the evidence); for Companions,
  to whom Ibn Hajar gives no tabaqa, companionship is the evidence: the dataset's class and the notice
  both say Companion -> LINKED ('name3+companion'), only the notice -> CONFLICTED. A chain narrator that
  the file does not cover is matched to the Taqrib notices sharing his name key (first three name
  tokens): one notice is judged on the evidence, two to five are each AMBIGUOUS.
- al-Kashif and al-Mughni: matched by the same key only for a narrator whose LINKED Taqrib notice has
  that key: one notice and one such narrator are judged on the evidence (the sigla against those of
  his Taqrib notice), otherwise (up to five notices) AMBIGUOUS.
No link carries a confidence; the precision of LINKED per work is measured on hand-checked samples
(eval/rijal_links.jsonl, `isnad-graphql audit`).

From each LINKED Taqrib notice: Ibn Hajar's verdict read whole (ingest.verdicts) and his tabaqa as
assertions, the headword as a name variant, and the narrator's grade_tier (ingest.narrators).

AR-Sanad Lite narrators are bridged to dataset narrators through Taqrib: a Lite narrator and a dataset
narrator linked (LINKED) to the same notice, when that notice has exactly one of each. For bridged
narrators: the isnad forms that are name forms (ingest.variants), Ibn Hajar's and al-Dhahabi's ranks as
AR-Sanad gives them, the first living city as region, and the narrated_from / narrated_to pairs whose
both ends are bridged, as 'probable' relations (the identities are inferred, so never 'attested').
"""

import ast
import itertools
import logging
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from app.text.arabic import normalize
from ingest.context import ImportContext, Row
from ingest.ids import notice_id
from ingest.link_evidence import Record, agreement, contradiction, denies, short_name
from ingest.narrators import (
    NAME_KEY_TOKENS,
    NameKey,
    dedupe_table,
    grade_tier,
    is_companion_label,
    name_key,
    number_relations,
)
from ingest.sigla import LEADING_SIGLA, notice_collections
from ingest.variants import common_words, is_name_form
from ingest.verdicts import read_verdict, stated_tabaqa

log = logging.getLogger(__name__)

CANDIDATES_FILE = "narrators/kaggle_muslimscholars/narrator_to_taqrib_candidates.jsonl.gz"
CHAINS_FILE = "narrators/kaggle_muslimscholars/kaggle_chains_aligned.csv.gz"
LITE_LINKS_FILE = "narrators/ar_sanad_lite/lite_to_taqrib_links.jsonl.gz"
LITE_FILE = "narrators/ar_sanad_lite/narrators_lite.csv.gz"


@dataclass(frozen=True)
class Work:
    number: int
    prefix: str
    path: str
    source_id: str


WORKS = (
    Work(1, "taqrib", "rijal/taqrib_entries.jsonl.gz", "openiti-taqrib"),
    Work(2, "kashif", "rijal/kashif_entries.jsonl.gz", "openiti-kashif"),
    Work(3, "mughni", "rijal/mughni_duafa_entries.jsonl.gz", "openiti-mughni"),
)
TAQRIB = WORKS[0]
CORROBORATED_WORKS = WORKS[1:]

CANDIDATE_METHODS = frozenset(
    {"name3+tabaqa", "name2+tabaqa", "name3(tabaqa_mismatch)", "name2(tabaqa_mismatch)", "name3", "name2"}
)
SHARED_KEY_METHOD = "name3"
CORROBORATED_METHOD = "name3+taqrib_key"
MAX_CANDIDATES = 5
UNNUMBERED_PAGE = "PageV00P000"

IBN_HAJAR = "Ibn Hajar al-Asqalani"
DHAHABI = "al-Dhahabi"
SCHOLAR_OF_FIELD = {"ibn_hajar_verdict": IBN_HAJAR, "ibn_hajar_tabaqa": IBN_HAJAR, "dhahabi_verdict": DHAHABI}
LITE_RANKS = (("ibn_hajar_verdict", "Ibnhajar_rank"), ("dhahabi_verdict", "zahabi_rank"))
LITE_NONE = "-"

_HEADWORD_END = frozenset({"عن", "وعنه", "عنه"})
_HEADWORD_TOKENS = range(2, 9)
_CITY_SEPARATORS = re.compile("[،,:؛]")


@dataclass
class Library:
    """The notices of the three works, indexed by number and by name key."""

    notices: dict[int, Row] = field(default_factory=dict)
    keys: dict[int, NameKey] = field(default_factory=dict)
    headwords: dict[int, str] = field(default_factory=dict)
    by_number: dict[tuple[str, int], list[int]] = field(default_factory=lambda: defaultdict(list))
    by_key: dict[tuple[str, NameKey], list[int]] = field(default_factory=lambda: defaultdict(list))

    def matches(self, work: Work, key: NameKey) -> list[int]:
        return self.by_key.get((work.source_id, key), []) if len(key) == NAME_KEY_TOKENS else []

    def resolve(self, number: Any, text: Any) -> int | None:
        """The Taqrib notice with this number whose text starts as the link file quotes it."""
        if not isinstance(number, int) or not isinstance(text, str):
            return None
        found = [n for n in self.by_number.get((TAQRIB.source_id, number), []) if self._starts(n, text)]
        return found[0] if len(found) == 1 else None

    def _starts(self, notice: int, text: str) -> bool:
        return bool(self.notices[notice]["text"].startswith(text[:40]))


def _name_line(text: str) -> str:
    """The first line of a notice after the sigla printed before the name."""
    return LEADING_SIGLA.sub("", text).strip().split("\n", 1)[0]


def _simple_headword(text: str) -> str | None:
    """The words before the first «عن» / «وعنه» of a notice, when that is a short name."""
    words = _name_line(text).split()
    ends = [i for i, word in enumerate(words) if normalize(word) in _HEADWORD_END]
    return " ".join(words[: ends[0]]) if ends and ends[0] in _HEADWORD_TOKENS else None


def _page(milestone: Any) -> str | None:
    """The page milestone; the editions' unnumbered pages are all marked 'PageV00P000', kept as null."""
    return milestone if isinstance(milestone, str) and milestone != UNNUMBERED_PAGE else None


def _notice_row(work: Work, line: int, entry_id: str, entry: dict[str, Any]) -> Row:
    """A notice; for Taqrib, Ibn Hajar's verdict read whole and the tabaqa, as the derived file gives
    it or as the notice states it in words («من رؤوس الطبقة السابعة»)."""
    name, text = entry.get("name_ar"), entry["text"]
    taqrib = work == TAQRIB
    tabaqa = entry.get("tabaqa") if isinstance(entry.get("tabaqa"), int) else stated_tabaqa(text)
    return {
        "notice_id": notice_id(work.number, line),
        "entry_id": entry_id,
        "source_id": work.source_id,
        "entry_number": str(entry["entry_no"]),
        "page": _page(entry.get("page_start")),
        "headword": name if isinstance(name, str) and name.strip() else None,
        "text": text,
        "grade_term": read_verdict(text) if taqrib else None,
        "tabaqa": tabaqa if taqrib else None,
    }


def _shelve(library: Library, work: Work, row: Row) -> None:
    number = row["notice_id"]
    headword = row["headword"] or _simple_headword(row["text"])
    library.notices[number] = row
    library.keys[number] = name_key(row["headword"] or _name_line(row["text"]))
    if headword:
        library.headwords[number] = headword
    library.by_number[(work.source_id, int(row["entry_number"]))].append(number)
    library.by_key[(work.source_id, library.keys[number])].append(number)


def _read_work(ctx: ImportContext, library: Library, work: Work) -> None:
    repeats: Counter[int] = Counter()
    for line, entry in ctx.jsonl(work.path, f"{work.prefix} notices", work.source_id, derived=True):
        number, text = entry.get("entry_no"), entry.get("text")
        if not isinstance(number, int) or not isinstance(text, str) or not text.strip():
            ctx.skip(work.path, line, "entry_no or text missing")
            continue
        repeats[number] += 1
        suffix = f"#{repeats[number]}" if repeats[number] > 1 else ""
        row = _notice_row(work, line, f"{work.prefix}:{number}{suffix}", entry)
        ctx.add("rijal_notice", row)
        _shelve(library, work, row)


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


def _candidate_status(candidate: dict[str, Any], notice: Row, record: Record) -> tuple[str, str]:
    """(status, method) of a candidate link, judged here on the evidence (_judged): the file's own
    tabaqa test read the derived tabaqa, which misses «من رؤوس الطبقة السابعة» (al-Thawri). Ibn Hajar
    gives Companions no tabaqa; there companionship is the evidence: both sources say Companion ->
    LINKED, only the notice does -> CONFLICTED."""
    name_method = candidate["method"].split("(", 1)[0].split("+", 1)[0]
    if notice["tabaqa"] is not None or grade_tier(notice["grade_term"], None, notice["text"]) != "companion":
        return _judged(notice, record, name_method)
    if is_companion_label(str(candidate.get("grade_kaggle", ""))):
        return "LINKED", f"{name_method}+companion"
    return "CONFLICTED", f"{name_method}(companion_mismatch)"


def _add_candidate_links(ctx: ImportContext, library: Library, evidence: Evidence) -> None:
    """The candidate file's links; a narrator left out of this import is a gap, not a bad row."""
    absent = 0
    links = ctx.jsonl(CANDIDATES_FILE, "narrator -> Taqrib links", "rijal-links", derived=True)
    for line, candidate in links:
        notice = library.resolve(candidate.get("taqrib_entry_no"), candidate.get("taqrib_text"))
        if candidate.get("method") not in CANDIDATE_METHODS or notice is None:
            ctx.skip(CANDIDATES_FILE, line, "unknown method, or no Taqrib notice with that number and text")
        elif candidate.get("scholar_indx") not in evidence.narrators:
            absent += 1
        else:
            row, narrator = library.notices[notice], candidate["scholar_indx"]
            status, method = _candidate_status(candidate, row, evidence.records[narrator])
            _add_link(ctx, evidence, row, _link(narrator, notice, status, method, "rijal-links"))
    log.info("Taqrib candidates for narrators not imported: %d", absent)


def _evidence(ctx: ImportContext) -> Evidence:
    """Each narrator's record: generation and death year, the collections of his chains, and the short
    names of his teachers and students (the dataset's student lists and his neighbours in the chains)."""
    narrators = _narrators(ctx)
    collections: dict[int, set[str]] = defaultdict(set)
    related: dict[int, set[int]] = defaultdict(set)
    for _, chain in ctx.csv(CHAINS_FILE, "narrators that occur in chains", "muslimscholars-derived", derived=True):
        ids = [int(part) for part in chain["chain_indx"].split(";") if part.isdigit()]
        for narrator in ids:
            collections[narrator].add(chain["collection"])
        for first, second in itertools.pairwise(ids):
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


def _assertion(narrator: int, field_name: str, value: str, **where: Any) -> Row:
    row: Row = {"narrator_id": narrator, "field": field_name, "value": value.strip(), "notice_id": None}
    row.update(scholar=SCHOLAR_OF_FIELD[field_name], locator=None)
    row.update(where)
    return row


def _add_taqrib_evidence(ctx: ImportContext, library: Library) -> None:
    """Assertions and grade_tier from each LINKED Taqrib notice."""
    narrators = _narrators(ctx)
    for link in _linked(ctx, TAQRIB.source_id):
        notice = library.notices[link["notice_id"]]
        narrator = narrators[link["narrator_id"]]
        where = {
            "source_id": TAQRIB.source_id,
            "notice_id": notice["notice_id"],
            "locator": ", ".join(part for part in (notice["entry_id"], notice["page"]) if part),
            "source_key": notice["entry_id"],
        }
        for field_name, value in (
            ("ibn_hajar_verdict", notice["grade_term"]),
            ("ibn_hajar_tabaqa", notice["tabaqa"]),
        ):
            if value is not None:
                ctx.add(
                    "scholarly_assertion",
                    _assertion(narrator["narrator_id"], field_name, str(value), **where),
                )
        narrator["grade_tier"] = narrator["grade_tier"] or grade_tier(
            notice["grade_term"], notice["tabaqa"], notice["text"]
        )


def _ar_variant(narrator: int, form: str, kind: str, source_id: str, source_key: str) -> Row:
    return {
        "narrator_id": narrator,
        "form": form,
        "form_normalized": normalize(form),
        "script": "ar",
        "kind": kind,
        "source_id": source_id,
        "source_key": source_key,
    }


def _add_headword_variants(ctx: ImportContext, library: Library) -> None:
    for work in WORKS:
        for link in _linked(ctx, work.source_id):
            headword = library.headwords.get(link["notice_id"])
            if headword and normalize(headword):
                entry_id = library.notices[link["notice_id"]]["entry_id"]
                ctx.add(
                    "narrator_name_variant",
                    _ar_variant(link["narrator_id"], headword, "rijal_headword", work.source_id, entry_id),
                )


def _bridge(ctx: ImportContext, library: Library) -> dict[int, int]:
    """Lite id -> narrator id, through a Taqrib notice with one LINKED narrator and one Lite narrator."""
    lites: dict[int, set[int]] = defaultdict(set)
    for line, link in ctx.jsonl(LITE_LINKS_FILE, "AR-Sanad Lite -> Taqrib links", "rijal-links", derived=True):
        notice = library.resolve(link.get("taqrib_entry_no"), link.get("taqrib_text"))
        if notice is None or not isinstance(link.get("lite_id"), int):
            ctx.skip(LITE_LINKS_FILE, line, "unknown notice or lite_id")
            continue
        lites[notice].add(link["lite_id"])
    narrators: dict[int, set[int]] = defaultdict(set)
    for link in _linked(ctx, TAQRIB.source_id):
        narrators[link["notice_id"]].add(link["narrator_id"])
    return {
        min(lite_ids): min(narrators[notice])
        for notice, lite_ids in lites.items()
        if len(lite_ids) == 1 and len(narrators.get(notice, ())) == 1
    }


def _literal_list(text: str, item: type) -> list[Any] | None:
    """A Python list literal whose items are all of one type; None for anything else."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, list) and all(isinstance(v, item) for v in value) else None


def _relation(teacher: int, student: int, source_key: str) -> Row:
    return {
        "teacher_id": teacher,
        "student_id": student,
        "status": "probable",
        "method": "ar_sanad_via_taqrib_bridge",
        "confidence": None,
        "source_id": "ar-sanad-lite",
        "source_key": source_key,
    }


def _lite_relations(narrator: int, record: dict[str, str], bridge: dict[int, int], key: str) -> list[Row] | None:
    teachers, students = _literal_list(record["narrated_from"], int), _literal_list(record["narrated_to"], int)
    if teachers is None or students is None:
        return None
    pairs = [(bridge.get(t), narrator) for t in teachers] + [(narrator, bridge.get(s)) for s in students]
    return [_relation(t, s, key) for t, s in pairs if t is not None and s is not None and t != s]


def _lite_forms(narrator: Row, record: dict[str, str], key: str, common: frozenset[str]) -> list[Row] | None:
    """The isnad forms of one bridged Lite narrator that are name forms (ingest.variants); None when
    namings is not a list."""
    namings = _literal_list(record["namings"], str)
    if namings is None:
        return None
    return [
        _ar_variant(narrator["narrator_id"], form.strip(), "isnad_form", "ar-sanad-lite", key)
        for form in namings
        if is_name_form(form, narrator["name_ar"], common)
    ]


def _lite_ranks(narrator: int, record: dict[str, str], key: str) -> list[Row]:
    return [
        _assertion(narrator, field_name, record[column], source_id="ar-sanad-lite", source_key=key)
        for field_name, column in LITE_RANKS
        if record[column].strip() not in ("", LITE_NONE)
    ]


def _first_city(living_city: str) -> str | None:
    city = _CITY_SEPARATORS.split(living_city, maxsplit=1)[0].strip(" .")
    return None if city in ("", LITE_NONE) else city


def _add_ar_sanad(ctx: ImportContext, library: Library) -> None:
    bridge = _bridge(ctx, library)
    narrators = _narrators(ctx)
    common = common_words(row["name_ar"] for row in narrators.values() if row["name_ar"])
    for line, record in ctx.csv(LITE_FILE, "AR-Sanad Lite narrators", "ar-sanad-lite"):
        narrator = bridge.get(int(record["id"])) if record["id"].isdigit() else None
        if narrator is None:
            continue
        key = f"narrators_lite.csv#id={record['id']}"
        forms = _lite_forms(narrators[narrator], record, key, common)
        relations = _lite_relations(narrator, record, bridge, key)
        if forms is None or relations is None:
            ctx.skip(LITE_FILE, line, "namings, narrated_from or narrated_to is not a list")
            continue
        for table, rows in (
            ("narrator_name_variant", forms),
            ("scholarly_assertion", _lite_ranks(narrator, record, key)),
            ("transmission_relation", relations),
        ):
            for row in rows:
                ctx.add(table, row)
        narrators[narrator]["region"] = _first_city(record["living_city"])
    log.info("AR-Sanad bridge: %d Lite narrators bridged", len(bridge))


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
