"""The tables the importer derives from the imported ones (ingest/derived.py), the public commentary view, and
the indexes as the import leaves them: checked on the real subset."""

from collections import Counter
from dataclasses import dataclass

import pytest

from app.data.search.vocabulary import word_keys
from app.text import arabic
from ingest.derived import COMMON_PAIR_SHARE
from ingest.run import ImportReport
from ingest.writer import SCANNED_IN_KEY_ORDER
from tests.conftest import LIVE_SCHEMA
from tests.dbquery import fetch, live_count


@dataclass(frozen=True)
class Derived:
    """A table of ingest/derived.py: the rows it must hold (their rank aside), keyed by `key`, ranked by `rank`
    from 1 in the order of `order`: an expression of a row `{r}`, whose other columns `joined` reaches."""

    table: str
    source: str
    key: str
    rank: str
    order: str
    joined: str = ""


PAIR = "least(teacher_id, student_id), greatest(teacher_id, student_id)"
ADJACENT = """FROM chain_node l JOIN chain_node u ON u.chain_id = l.chain_id AND u.position = l.position + 1
              JOIN chain c ON c.chain_id = l.chain_id JOIN hadith h ON h.hadith_id = c.hadith_id
             WHERE l.narrator_id <> u.narrator_id
               AND l.resolution_status IN ('confirmed', 'probable')
               AND u.resolution_status IN ('confirmed', 'probable')"""
DERIVED = (
    Derived(
        "profile_variant",
        "SELECT narrator_id, form, script, kind, source_id, source_key FROM narrator_name_variant",
        "narrator_id",
        "variant_rank",
        "({r}.kind, {r}.script, {r}.form, {r}.source_id)",
    ),
    Derived(
        "profile_entry",
        """SELECT l.narrator_id, l.notice_id, n.entry_id, n.text, n.page, n.source_id, l.status, l.method, l.confidence,
                  l.source_id FROM narrator_notice_link l JOIN rijal_notice n USING (notice_id)""",
        "narrator_id",
        "entry_rank",
        "(array_position(ARRAY['LINKED', 'AMBIGUOUS', 'CONFLICTED'], {r}.status), {r}.confidence IS NULL,"
        " coalesce(-{r}.confidence, 0), {r}.entry_id)",
    ),
    Derived(
        "narrator_occurrence",
        """SELECT n.narrator_id, c.hadith_id, h.canonical_reference, c.chain_id, c.source_id, c.source_key, n.node_id,
                  n.position, n.source_key
             FROM chain_node n JOIN chain c USING (chain_id) JOIN hadith h USING (hadith_id)
            WHERE n.resolution_status = 'confirmed'""",
        "narrator_id",
        "occurrence_rank",
        "({r}.hadith_id, {r}_chain.chain_number, {r}.position)",
        "JOIN chain {r}_chain ON {r}_chain.chain_id = {r}.chain_id",
    ),
    Derived(
        "pair_relation",
        f"""SELECT {PAIR}, relation_id, teacher_id, student_id, status, method, confidence, source_id, source_key
              FROM transmission_relation""",
        "least_narrator_id, greatest_narrator_id",
        "relation_rank",
        "(array_position(ARRAY['attested', 'probable', 'ambiguous', 'unresolved'], {r}.status), {r}.source_id,"
        " {r}.teacher_id)",
    ),
    Derived(
        "pair_observation",
        f"""SELECT least(l.narrator_id, u.narrator_id), greatest(l.narrator_id, u.narrator_id), c.hadith_id,
                   h.canonical_reference, c.chain_id, c.source_id, c.source_key, u.node_id, l.node_id,
                   NOT EXISTS (SELECT 1 FROM chain_check k WHERE k.chain_id = c.chain_id) {ADJACENT}""",
        "least_narrator_id, greatest_narrator_id",
        "observation_rank",
        "({r}.hadith_id, {r}.chain_id, {r}_lower.position)",
        "JOIN chain_node {r}_lower ON {r}_lower.node_id = {r}.lower_node_id",
    ),
)


def _columns_but_rank(url: str, derived: Derived) -> str:
    names = fetch(
        url,
        LIVE_SCHEMA,
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_schema = $1 AND table_name = $2 AND column_name <> $3 ORDER BY ordinal_position",
        LIVE_SCHEMA,
        derived.table,
        derived.rank,
    )
    return ", ".join(row["column_name"] for row in names)


@pytest.mark.parametrize("derived", DERIVED, ids=lambda derived: derived.table)
def test_a_derived_table_holds_its_source_rows_ranked_from_1_in_the_tools_order(
    imported: ImportReport, database_url: str, derived: Derived
) -> None:
    held = f"SELECT {_columns_but_rank(database_url, derived)} FROM {derived.table}"
    differing = f"(({held} EXCEPT ALL {derived.source}) UNION ALL ({derived.source} EXCEPT ALL {held})) AS d"
    assert live_count(database_url, f"SELECT count(*) FROM ({derived.source}) AS s") > 0
    assert live_count(database_url, f"SELECT count(*) FROM {differing}") == 0

    ranks = f"SELECT count(*) AS n, min({derived.rank}) AS low, max({derived.rank}) AS high FROM {derived.table}"
    keys = f"({ranks} GROUP BY {derived.key}) AS k"
    assert live_count(database_url, f"SELECT count(*) FROM {keys} WHERE (low, high) <> (1, n)") == 0

    this, then = (derived.order.format(r=row) for row in ("r", "f"))
    steps = f"""SELECT count(*) FROM {derived.table} r {derived.joined.format(r="r")}
                  JOIN {derived.table} f USING ({derived.key}) {derived.joined.format(r="f")}
                 WHERE f.{derived.rank} = r.{derived.rank} + 1 AND NOT {this} < {then}"""
    assert live_count(database_url, steps) == 0


def test_the_public_commentary_view_shows_only_published_validated_passages(
    imported: ImportReport, database_url: str
) -> None:
    public = live_count(database_url, "SELECT count(*) FROM public_commentary_passage")
    published = live_count(
        database_url,
        "SELECT count(*) FROM commentary_passage"
        " WHERE publication_status = 'PUBLISHED' AND validation_status = 'VALIDATED'",
    )
    assert public == published > 0
    assert live_count(database_url, "SELECT count(*) FROM commentary_passage") > public


def test_each_search_term_is_found_by_itself_and_by_itself_with_one_letter_deleted(
    imported: ImportReport, database_url: str
) -> None:
    terms = fetch(database_url, LIVE_SCHEMA, "SELECT language, term, doc_count FROM search_term")
    keys = fetch(database_url, LIVE_SCHEMA, "SELECT language, key, term, doc_count, indexed FROM search_term_key")
    expected = {
        (row["language"], key, row["term"], row["doc_count"])
        for row in terms
        for key in {row["term"]} | {row["term"][:i] + row["term"][i + 1 :] for i in range(len(row["term"]))}
    }
    unindexed = {(row["language"], row["term"]) for row in keys if not row["indexed"]}

    assert len(terms) > 1000
    assert {(row["language"], row["key"], row["term"], row["doc_count"]) for row in keys} == expected
    assert len(keys) == len(expected)
    assert {("fr", "le"), ("fr", "de")} <= unindexed  # French stop words
    assert {language for language, _ in unindexed} == {"fr"}


def test_the_common_pairs_are_the_words_and_pairs_of_words_that_a_share_of_the_texts_hold(
    imported: ImportReport, database_url: str
) -> None:
    texts = fetch(database_url, LIVE_SCHEMA, "SELECT text_ar_normalized FROM hadith")
    held = Counter(pair for row in texts for pair in arabic.word_pairs(row["text_ar_normalized"] or ""))
    common = fetch(database_url, LIVE_SCHEMA, "SELECT pair, doc_count FROM search_common_pair")

    assert {"صلي الله", "عليه وسلم"} <= {row["pair"] for row in common}
    assert {row["pair"]: row["doc_count"] for row in common} == {
        pair: count for pair, count in held.items() if count >= COMMON_PAIR_SHARE * len(texts)
    }


def test_the_name_words_are_every_word_of_a_name_forms_key_in_its_script_under_its_keys(
    imported: ImportReport, database_url: str
) -> None:
    forms = fetch(database_url, LIVE_SCHEMA, "SELECT script, search_key FROM narrator_search_form")
    keyed = fetch(database_url, LIVE_SCHEMA, "SELECT script, key, word FROM search_name_word")
    words = {(row["script"], word) for row in forms for word in row["search_key"].split(" ")}

    assert {("latin", "ibn"), ("ar", "بن")} <= words
    assert {("latin", "bn", "ibn"), ("latin", "ibn", "ibn"), ("ar", "ب", "بن")} <= {tuple(row) for row in keyed}
    # the keys the API reads them by (a word no name holds finds the names' words one letter off it)
    assert {tuple(row) for row in keyed} == {(script, key, word) for script, word in words for key in word_keys(word)}


def test_every_gin_index_is_merged_when_the_import_ends(imported: ImportReport, database_url: str) -> None:
    # The server runs no autovacuum here: a pending list the import left would still be there.
    fetch(database_url, "public", "CREATE EXTENSION IF NOT EXISTS pgstattuple SCHEMA public")
    gin = fetch(
        database_url,
        LIVE_SCHEMA,
        "SELECT c.relname, (public.pgstatginindex(c.oid)).pending_pages, (public.pgstatginindex(c.oid)).pending_tuples"
        " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam"
        " WHERE n.nspname = $1 AND a.amname = 'gin' ORDER BY c.relname",
        LIVE_SCHEMA,
    )
    assert {"hadith_text_ar_pairs_idx", "search_form_words_idx"} <= {row["relname"] for row in gin}
    assert [(row["relname"], row["pending_pages"], row["pending_tuples"]) for row in gin] == [
        (row["relname"], 0, 0) for row in gin
    ]


@pytest.mark.parametrize("table", SCANNED_IN_KEY_ORDER)
def test_the_tables_a_search_scans_are_stored_in_the_order_of_their_key(
    imported: ImportReport, database_url: str, table: str
) -> None:
    """Rewritten by CLUSTER on the primary key, as the key orders them: the rows out of place are none."""
    [key] = fetch(
        database_url,
        LIVE_SCHEMA,
        "SELECT i.indisclustered, string_agg(quote_ident(a.attname), ', ' ORDER BY k.place) AS columns"
        " FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
        " CROSS JOIN unnest(i.indkey) WITH ORDINALITY AS k(attnum, place)"
        " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
        " WHERE n.nspname = $1 AND c.relname = $2 AND i.indisprimary GROUP BY i.indisclustered",
        LIVE_SCHEMA,
        table,
    )
    [order] = fetch(
        database_url,
        LIVE_SCHEMA,
        f"SELECT count(*) AS rows, count(*) FILTER (WHERE stored <> keyed) AS out_of_place FROM ("
        f"SELECT row_number() OVER (ORDER BY ctid) AS stored, row_number() OVER (ORDER BY {key['columns']}) AS keyed"
        f" FROM {table}) AS placed",
    )
    assert key["indisclustered"]
    assert order["rows"] > 100 and order["out_of_place"] == 0
