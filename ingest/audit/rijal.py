"""The rijal measures: links per work, links a notice's denial refuses, Ibn Hajar's verdicts read
whole and their tiers, and link precision on the hand-checked samples of eval/rijal_links.jsonl."""

import json
from collections import Counter
from pathlib import Path

import asyncpg

from ingest.audit.section import Rows, Section, query
from ingest.link_evidence import denies
from ingest.narrators import head_tier, is_qualified, verdict_tier

SAMPLES = Path(__file__).resolve().parents[2] / "eval" / "rijal_links.jsonl"
VERDICTS = ("same man", "another man", "cannot tell")
WORK_OF_SOURCE = {"openiti-taqrib": "taqrib", "openiti-kashif": "kashif", "openiti-mughni": "mughni"}
STILL_LINKED = 50  # of each work's 55 sampled links, those the full import must keep LINKED

LINKS = query(
    """SELECT r.source_id AS work, l.status, l.method, count(*) AS links
         FROM narrator_notice_link l JOIN rijal_notice r USING (notice_id)
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"""
)

# Each link with its notice, the narrator's dataset name and the headword of his LINKED Taqrib notice.
_LINKS_WITH_NAMES = """
    SELECT r.source_id AS work, r.text, n.name_ar,
           (SELECT string_agg(t.headword, ' ') FROM narrator_notice_link tl
              JOIN rijal_notice t ON t.notice_id = tl.notice_id
             WHERE tl.narrator_id = l.narrator_id AND tl.status = 'LINKED'
               AND t.source_id = 'openiti-taqrib') AS taqrib_headword
      FROM narrator_notice_link l JOIN rijal_notice r USING (notice_id) JOIN narrator n USING (narrator_id)"""


async def _denial_links(conn: asyncpg.Connection) -> Rows:
    """Links, per work, whose notice denies the identity of the narrator (ingest.link_evidence.denies)."""
    checked: Counter[str] = Counter()
    denied: Counter[str] = Counter()
    for row in await conn.fetch(_LINKS_WITH_NAMES):
        checked[row["work"]] += 1
        denied[row["work"]] += denies(row["text"], [row["name_ar"] or "", row["taqrib_headword"] or ""])
    return [{"work": work, "links": checked[work], "denial_links": denied[work]} for work in sorted(checked)]


def _no_denial(rows: Rows) -> list[str]:
    return [f"{row['work']}: {row['denial_links']} links a notice denies" for row in rows if row["denial_links"]]


async def _verdicts(conn: asyncpg.Connection) -> Rows:
    """Taqrib notices with a verdict read whole, qualified or not, and without one; all and LINKED."""
    rows = await conn.fetch(
        """SELECT r.grade_term AS verdict,
                  EXISTS (SELECT 1 FROM narrator_notice_link l
                           WHERE l.notice_id = r.notice_id AND l.status = 'LINKED') AS linked
             FROM rijal_notice r WHERE r.source_id = 'openiti-taqrib'"""
    )
    measured = []
    for scope, kept in (("all notices", rows), ("LINKED notices", [row for row in rows if row["linked"]])):
        verdicts = [row["verdict"] for row in kept if row["verdict"]]
        measured.append(
            {
                "work": "openiti-taqrib",
                "scope": scope,
                "notices": len(kept),
                "verdicts": len(verdicts),
                "qualified": sum(map(is_qualified, verdicts)),
                "missing": len(kept) - len(verdicts),
            }
        )
    return measured


async def _tiers(conn: asyncpg.Connection) -> Rows:
    """Narrators per grade_tier, and how many of them a qualifier moved below their head tier."""
    rows = await conn.fetch(
        """SELECT n.grade_tier, a.value AS verdict FROM narrator n
             LEFT JOIN scholarly_assertion a ON a.narrator_id = n.narrator_id
              AND a.field = 'ibn_hajar_verdict' AND a.source_id = 'openiti-taqrib'
            WHERE n.grade_tier IS NOT NULL"""
    )
    tiers: Counter[str] = Counter(row["grade_tier"] for row in rows)
    moved: Counter[str] = Counter(
        row["grade_tier"]
        for row in rows
        if row["verdict"] and verdict_tier(row["verdict"]) != head_tier(row["verdict"])
    )
    return [
        {"grade_tier": tier, "narrators": count, "moved_by_a_qualifier": moved[tier]}
        for tier, count in sorted(tiers.items())
    ]


def _samples() -> list[dict[str, object]]:
    with SAMPLES.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


async def _precision(conn: asyncpg.Connection) -> Rows:
    """Per work: the sampled links, those still LINKED here, and the share of those judged the same man
    (a link judged 'cannot tell' counts against the precision)."""
    linked = {
        (WORK_OF_SOURCE[row["source_id"]], row["entry_id"], row["narrator_id"])
        for row in await conn.fetch(
            """SELECT r.source_id, r.entry_id, l.narrator_id FROM narrator_notice_link l
                 JOIN rijal_notice r USING (notice_id) WHERE l.status = 'LINKED'"""
        )
    }
    by_work: dict[str, Counter[str]] = {work: Counter() for work in WORK_OF_SOURCE.values()}
    for sample in _samples():
        work = str(sample["work"])
        by_work[work]["sampled"] += 1
        if (work, sample["entry_id"], sample["narrator_id"]) in linked:
            by_work[work]["still LINKED"] += 1
            by_work[work][str(sample["verdict"])] += 1
    return [
        {
            "work": work,
            "sampled": counts["sampled"],
            "still_linked": counts["still LINKED"],
            **{verdict.replace(" ", "_"): counts[verdict] for verdict in VERDICTS},
            "precision": f"{counts['same man'] / counts['still LINKED']:.1%}" if counts["still LINKED"] else "-",
        }
        for work, counts in by_work.items()
    ]


def precise(rows: Rows) -> list[str]:
    """The bar of the full import: each work keeps STILL_LINKED of its sampled links, every one the same man."""
    return [
        f"{row['work']}: {row['still_linked']} of {row['sampled']} sampled links LINKED, {row['same_man']} the same man"
        for row in rows
        if int(str(row["still_linked"])) < STILL_LINKED or row["same_man"] != row["still_linked"]
    ]


SECTIONS: tuple[Section, ...] = (
    Section(
        "Rijal links per work, status and method",
        LINKS,
        "LINKED needs the name and one independent piece of evidence, named after '+' (ingest/link_evidence.py).",
    ),
    Section(
        "Rijal links whose notice denies the identity (must be 0)",
        _denial_links,
        "A notice that says «وليس بـ...», «وليس هو ...», «وهو غير ...» of a word of the narrator's names.",
        _no_denial,
    ),
    Section(
        "Ibn Hajar's verdicts read whole (Taqrib)",
        _verdicts,
        "al-Kashif and al-Mughni: no verdict is read from their notices. 'qualified': اختلط، يدلس، ربما وهم ...",
    ),
    Section("Narrators per grade tier", _tiers, "From the whole verdict: ingest/narrators.py HEAD_WORDS, TIER_MOVES."),
    Section(
        "Rijal link precision on the hand-checked samples (eval/rijal_links.jsonl)",
        _precision,
        "precision = same man / sampled links still LINKED in this database; 'cannot tell' counts against it.",
        precise,
    ),
)
