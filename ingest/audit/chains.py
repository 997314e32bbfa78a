"""The audit of the chains: node statuses, whether confirmed mentions name their narrators, failed checks."""

import asyncpg

from ingest.audit.section import Rows, Section, query
from ingest.narrator_names import NameForms, name_units

NODE_STATUSES = query(
    """SELECT c.origin, n.resolution_status, n.method, count(*) AS nodes, count(n.narrator_id) AS with_narrator
         FROM chain_node n JOIN chain c USING (chain_id)
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"""
)

CHECKS = query(
    """SELECT code, count(DISTINCT chain_id) AS chains, count(*) AS failures
         FROM chain_check GROUP BY code
       UNION ALL
       SELECT 'any check' AS code, count(DISTINCT chain_id), count(*) FROM chain_check
       UNION ALL
       SELECT 'dataset chains' AS code, count(*), NULL FROM chain WHERE origin = 'dataset'
        ORDER BY 2 DESC"""
)

OBSERVATIONS = query(
    """SELECT CASE WHEN chain_checks_passed THEN 'passes' ELSE 'fails a check' END AS chain, count(*) AS observations,
              count(*) FILTER (WHERE u.resolution_status = 'confirmed' AND l.resolution_status = 'confirmed')
                  AS both_nodes_confirmed
         FROM pair_observation o
         JOIN chain_node u ON u.node_id = o.upper_node_id
         JOIN chain_node l ON l.node_id = o.lower_node_id
        GROUP BY 1 ORDER BY 1 DESC"""
)

_FORMS = """SELECT narrator_id, name_ar AS form, true AS is_name FROM narrator WHERE name_ar IS NOT NULL
            UNION ALL
            SELECT narrator_id, form, false FROM narrator_name_variant WHERE script = 'ar'"""
_CONFIRMED = "SELECT narrator_id, mention_ar FROM chain_node WHERE resolution_status = 'confirmed'"


async def _confirmed_mentions(conn: asyncpg.Connection) -> Rows:
    """Each confirmed node's mention against its narrator's name forms: by the import's rule, and by the
    looser test of a shared name unit (a mention that shares no unit with any of his forms names another)."""
    forms = await conn.fetch(_FORMS)
    names = NameForms(
        [(r["narrator_id"], r["form"]) for r in forms if r["is_name"]],
        [(r["narrator_id"], r["form"]) for r in forms if not r["is_name"]],
    )
    units: dict[int, set[str]] = {}
    for record in forms:
        units.setdefault(record["narrator_id"], set()).update(name_units(record["form"]))
    nodes = await conn.fetch(_CONFIRMED)
    named = sum(names.names(r["mention_ar"] or "", r["narrator_id"]) for r in nodes)
    sharing = sum(bool(units.get(r["narrator_id"], set()) & set(name_units(r["mention_ar"] or ""))) for r in nodes)
    total = len(nodes)
    return [
        {"measure": "confirmed nodes", "nodes": total, "share": ""},
        {"measure": "mention names the narrator (the import's rule)", "nodes": named, "share": _share(named, total)},
        {"measure": "mention shares a name unit with him", "nodes": sharing, "share": _share(sharing, total)},
    ]


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f} %" if whole else "-"


SECTIONS: tuple[Section, ...] = (
    Section("Chain nodes per origin, status and method", NODE_STATUSES),
    Section(
        "Confirmed nodes whose mention names their narrator",
        _confirmed_mentions,
        "A confirmed node's mention must name its narrator (ingest/narrator_names.py); the looser test counts the "
        "mentions that share at least one name unit with one of his forms.",
    ),
    Section(
        "Dataset chains per failed integrity check",
        CHECKS,
        "A chain that fails any check is shown as insufficient_evidence, not fact (ingest/chain_checks.py).",
    ),
    Section("Chain observations: the chain's checks, the nodes' statuses", OBSERVATIONS),
)
