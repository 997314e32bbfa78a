"""The importer, run for real on a real subset: counts, stable ids, atomicity, bad input."""

import asyncio
import csv
import gzip
import io
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest
from rich.console import Console

from app.text.arabic import normalize
from ingest import steps
from ingest.checksums import TableChecksum, table_checksums
from ingest.context import ImportContext
from ingest.errors import BuildRefused, TooManyBadRows, UnreadableRecord
from ingest.run import ImportReport, run_import
from ingest.verification import DataNotVerified
from tests.conftest import LIVE_SCHEMA, quiet_console
from tests.dbquery import fetch, id_fingerprint, scalar, schema_exists, snapshot

SEVEN = ("bukhari", "muslim", "abudawud", "tirmidhi", "nasai", "ibnmajah", "malik")
FORTIES = {"ara-nawawi": "nawawi40", "ara-qudsi": "qudsi40", "ara-dehlawi": "shahwaliullah40"}


def _lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line for line in f if line.strip()]


def _csv_rows(path: Path) -> list[dict[str, str]]:
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _count(url: str, sql: str, *args: object) -> int:
    return int(scalar(url, LIVE_SCHEMA, sql, *args))


def test_every_hadith_of_the_subset_is_imported(imported: ImportReport, database_url: str, subset_dir: Path) -> None:
    for code in SEVEN:
        expected = len(_lines(subset_dir / f"hadith/sunnah_hadith_json/{code}.jsonl.gz"))
        got = _count(
            database_url, "SELECT count(*) FROM hadith JOIN collection USING (collection_id) WHERE code = $1", code
        )
        assert got == expected, code
    for edition, code in FORTIES.items():
        expected = len(_lines(subset_dir / f"hadith/hadith_api_sqlite_export/{edition}.jsonl.gz"))
        got = _count(
            database_url, "SELECT count(*) FROM hadith JOIN collection USING (collection_id) WHERE code = $1", code
        )
        assert got == expected, code
    assert imported.counts["hadith"] == _count(database_url, "SELECT count(*) FROM hadith")


def test_arabic_for_all_and_french_where_a_source_gives_it(imported: ImportReport, database_url: str) -> None:
    # Only Malik has records no source gives in Arabic (statements by Malik, English only).
    assert (
        _count(
            database_url,
            "SELECT count(*) FROM hadith JOIN collection USING (collection_id)"
            " WHERE text_ar IS NULL AND code <> 'malik'",
        )
        == 0
    )
    french = dict(
        (r["code"], r["n"])
        for r in fetch(
            database_url,
            LIVE_SCHEMA,
            "SELECT code, count(text_fr) AS n FROM hadith JOIN collection USING (collection_id) GROUP BY code",
        )
    )
    assert french["tirmidhi"] == 0  # no source gives French for Tirmidhi
    for code in ("bukhari", "abudawud", "nasai", "malik"):
        assert french[code] > 0, code


def test_every_aligned_dataset_chain_and_node_is_imported(
    imported: ImportReport, database_url: str, subset_dir: Path
) -> None:
    chains_file = subset_dir / "narrators/kaggle_muslimscholars/kaggle_chains_aligned.csv.gz"
    aligned = [row for row in _csv_rows(chains_file) if row["status"] == "aligned"]
    expected_chains = len(aligned)
    expected_nodes = sum(len(row["chain_indx"].split(";")) for row in aligned)
    assert _count(database_url, "SELECT count(*) FROM chain WHERE origin = 'dataset'") == expected_chains
    assert (
        _count(database_url, "SELECT count(*) FROM chain_node JOIN chain USING (chain_id) WHERE origin = 'dataset'")
        == expected_nodes
    )


def test_narrators_relations_and_rijal_are_whole(imported: ImportReport) -> None:
    assert imported.counts["narrator"] == 24_326
    assert imported.counts["rijal_notice"] == 8_827 + 7_211 + 7_829  # Taqrib, al-Kashif, al-Mughni
    assert imported.counts["transmission_relation"] > 25_000


def test_bukhari_1_has_its_six_narrators_in_order(imported: ImportReport, database_url: str) -> None:
    rows = fetch(
        database_url,
        LIVE_SCHEMA,
        """SELECT n.position, n.narrator_id, n.mention_ar, n.transmission_term_ar, n.resolution_status
             FROM hadith h JOIN chain c USING (hadith_id) JOIN chain_node n USING (chain_id)
            WHERE h.canonical_reference = 'bukhari:1' ORDER BY n.position""",
    )
    assert [r["narrator_id"] for r in rows] == [30418, 20005, 11062, 11213, 11042, 3]
    assert [r["position"] for r in rows] == [1, 2, 3, 4, 5, 6]
    # «سفيان» names every Sufyan, «عمر بن الخطاب» another narrator of that name too: the student lists single
    # neither out by his neighbours, and the dataset's id stays probable
    assert [r["resolution_status"] for r in rows] == ["confirmed", "probable", *["confirmed"] * 3, "probable"]
    assert all(r["mention_ar"] and r["transmission_term_ar"] for r in rows)
    assert [normalize(r["mention_ar"]) for r in rows] == [
        "الحميدي عبد الله بن الزبير",
        "سفيان",
        "يحيي بن سعيد الانصاري",
        "محمد بن ابراهيم التيمي",
        "علقمه بن وقاص الليثي",
        "عمر بن الخطاب",
    ]


def test_confirmed_nodes_always_name_a_narrator_and_parsed_nodes_are_never_confirmed(
    imported: ImportReport, database_url: str
) -> None:
    assert (
        _count(
            database_url,
            "SELECT count(*) FROM chain_node WHERE resolution_status = 'confirmed' AND narrator_id IS NULL",
        )
        == 0
    )
    assert (
        _count(
            database_url,
            "SELECT count(*) FROM chain_node JOIN chain USING (chain_id)"
            " WHERE origin = 'parsed_isnad' AND resolution_status = 'confirmed'",
        )
        == 0
    )
    assert (
        _count(
            database_url,
            "SELECT count(*) FROM chain_node WHERE resolution_status = 'ambiguous' AND narrator_id IS NOT NULL",
        )
        == 0
    )


def test_chain_neighbours_are_not_stored_as_relations(imported: ImportReport, database_url: str) -> None:
    # 'Umar and 'Alqama are adjacent in Bukhari 1, but no source records them as teacher and student.
    assert (
        _count(
            database_url,
            "SELECT count(*) FROM transmission_relation WHERE (teacher_id, student_id) IN ((3, 11042), (11042, 3))",
        )
        == 0
    )
    assert (
        _count(
            database_url,
            "SELECT count(*) FROM transmission_relation WHERE teacher_id = 11042"
            " AND student_id = 11213 AND status = 'attested'",
        )
        == 1
    )


def test_each_narrators_occurrence_counts_are_those_of_its_confirmed_nodes(
    imported: ImportReport, database_url: str
) -> None:
    counted = """SELECT n.narrator_id, count(*) AS occurrences, count(DISTINCT c.hadith_id) AS hadith
                   FROM chain_node n JOIN chain c USING (chain_id)
                  WHERE n.resolution_status = 'confirmed' GROUP BY n.narrator_id"""
    assert (
        _count(
            database_url,
            f"SELECT count(*) FROM narrator n LEFT JOIN ({counted}) c USING (narrator_id)"
            " WHERE (n.occurrence_count, n.distinct_hadith_count)"
            " IS DISTINCT FROM (coalesce(c.occurrences, 0), coalesce(c.hadith, 0))",
        )
        == 0
    )
    assert _count(database_url, "SELECT count(*) FROM narrator WHERE occurrence_count > distinct_hadith_count") > 0


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
    assert _count(database_url, f"SELECT count(*) FROM ({derived.source}) AS s") > 0
    assert _count(database_url, f"SELECT count(*) FROM {differing}") == 0

    ranks = f"SELECT count(*) AS n, min({derived.rank}) AS low, max({derived.rank}) AS high FROM {derived.table}"
    keys = f"({ranks} GROUP BY {derived.key}) AS k"
    assert _count(database_url, f"SELECT count(*) FROM {keys} WHERE (low, high) <> (1, n)") == 0

    this, then = (derived.order.format(r=row) for row in ("r", "f"))
    steps = f"""SELECT count(*) FROM {derived.table} r {derived.joined.format(r="r")}
                  JOIN {derived.table} f USING ({derived.key}) {derived.joined.format(r="f")}
                 WHERE f.{derived.rank} = r.{derived.rank} + 1 AND NOT {this} < {then}"""
    assert _count(database_url, steps) == 0


def test_the_public_commentary_view_shows_only_published_validated_passages(
    imported: ImportReport, database_url: str
) -> None:
    public = _count(database_url, "SELECT count(*) FROM public_commentary_passage")
    published = _count(
        database_url,
        "SELECT count(*) FROM commentary_passage"
        " WHERE publication_status = 'PUBLISHED' AND validation_status = 'VALIDATED'",
    )
    assert public == published > 0
    assert _count(database_url, "SELECT count(*) FROM commentary_passage") > public


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


def _checksums(url: str, schema: str) -> dict[str, TableChecksum]:
    async def read() -> dict[str, TableChecksum]:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"SET search_path TO {schema}, public")
            return await table_checksums(conn)
        finally:
            await conn.close()

    return asyncio.run(read())


def test_two_imports_give_identical_ids_and_contents_and_a_changed_row_shows(
    imported: ImportReport, database_url: str, subset_dir: Path
) -> None:
    again = run_import(subset_dir, database_url, "isnad_again", quiet_console())
    assert id_fingerprint(database_url, "isnad_again") == id_fingerprint(database_url, LIVE_SCHEMA)
    assert again.checksums == imported.checksums == _checksums(database_url, LIVE_SCHEMA)
    assert again.content_checksum == imported.content_checksum
    for schema in ("isnad_again", LIVE_SCHEMA):
        assert scalar(database_url, schema, "SELECT content_checksum FROM import_run") == imported.content_checksum

    fetch(database_url, "isnad_again", "UPDATE narrator SET name_latin = name_latin || '.' WHERE narrator_id = 1")
    changed = _checksums(database_url, "isnad_again")
    assert {table for table, c in changed.items() if c != imported.checksums[table]} == {"narrator"}
    assert changed["narrator"].rows == imported.checksums["narrator"].rows


def _copy_data(subset_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(subset_dir, copy, symlinks=True)
    return copy


def _corrupt(path: Path, every: int) -> None:
    """Replace one data line in `every` by a line that parses neither as JSON nor as a CSV record."""
    header, *rows = _lines(path)
    broken = [header] + [row if i % every else "broken line\n" for i, row in enumerate(rows, start=1)]
    path.unlink()
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.writelines(broken)


BIG_FILE = "narrators/all_rawis_reduced/all_rawis_reduced.csv.gz"  # the narrators' rows


def _with_corrupted_narrators(subset_dir: Path, tmp_path: Path, every: int) -> Path:
    """A copy of the subset whose narrators file has one line in `every` broken."""
    data = _copy_data(subset_dir, tmp_path)
    target = data / BIG_FILE
    target.unlink()
    shutil.copy(subset_dir / BIG_FILE, target)
    _corrupt(target, every=every)
    return data


def test_a_missing_file_is_named_with_its_purpose(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = _copy_data(subset_dir, tmp_path)
    (data / BIG_FILE).unlink()
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(DataNotVerified, match=r"all_rawis_reduced\.csv\.gz: file not found \(needed for .+\)"):
        run_import(data, database_url, LIVE_SCHEMA, quiet_console())
    assert snapshot(database_url, LIVE_SCHEMA) == before


def test_over_one_percent_of_bad_rows_stops_the_import_and_changes_nothing(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = _with_corrupted_narrators(subset_dir, tmp_path, every=50)
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(TooManyBadRows, match=r"all_rawis_reduced\.csv\.gz: \d+ of \d+ rows are malformed"):
        run_import(data, database_url, LIVE_SCHEMA, quiet_console(), allow_altered=True)
    assert snapshot(database_url, LIVE_SCHEMA) == before


def test_a_few_bad_rows_are_skipped_and_reported_by_line(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = _with_corrupted_narrators(subset_dir, tmp_path, every=1000)
    report = run_import(data, database_url, "isnad_bad_rows", quiet_console(), allow_altered=True)
    assert report.bad_rows
    assert all(line.startswith(f"{BIG_FILE}:") for line in report.bad_rows)
    assert report.bad_rows[0].startswith(f"{BIG_FILE}:1001:")
    assert report.counts["narrator"] == 24_326 - len(report.bad_rows)


def test_an_altered_file_is_refused_before_anything_is_read_unless_allowed(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    data = _with_corrupted_narrators(subset_dir, tmp_path, every=1000)
    before = snapshot(database_url, LIVE_SCHEMA)
    altered = (
        rf"{BIG_FILE}: altered: sha256 \w+, expected \w+; [\d,]+ bytes, expected [\d,]+; rows 24,326, expected 24,326"
    )
    with pytest.raises(DataNotVerified, match=altered + r" \(needed for narrators, names, dates\)"):
        run_import(data, database_url, LIVE_SCHEMA, quiet_console())
    assert snapshot(database_url, LIVE_SCHEMA) == before
    console = quiet_console()
    run_import(data, database_url, "isnad_altered", console, allow_altered=True)
    assert scalar(database_url, "isnad_altered", "SELECT altered_files FROM import_run") == [BIG_FILE]
    assert f"imported although altered: {BIG_FILE}: altered" in console.file.getvalue()  # type: ignore[attr-defined]


def test_a_failure_while_writing_leaves_the_previous_database_untouched(
    imported: ImportReport, database_url: str, subset_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def break_a_constraint(ctx: ImportContext) -> None:
        node = dict(ctx.tables["chain_node"][0], resolution_status="confirmed", narrator_id=None)
        ctx.tables["chain_node"].append(dict(node, node_id=999_999_999))

    failing: tuple[tuple[str, Callable[[ImportContext], None]], ...] = (
        *steps.STEPS,
        ("a step that builds an invalid row", break_a_constraint),
    )
    monkeypatch.setattr("ingest.run.STEPS", failing)
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(BuildRefused, match="chain_node"):
        run_import(subset_dir, database_url, LIVE_SCHEMA, quiet_console())
    assert snapshot(database_url, LIVE_SCHEMA) == before
    assert not schema_exists(database_url, "isnad_build")


def test_a_record_of_a_shape_no_step_expects_stops_the_import_naming_its_file(
    imported: ImportReport, database_url: str, subset_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = "hadith/sunnah_hadith_json/bukhari.jsonl.gz"

    def expect_a_field_no_record_has(ctx: ImportContext) -> None:
        for _line, record in ctx.jsonl(path, "a reading that expects another shape", "hadith-json"):
            record["no such field"]

    monkeypatch.setattr("ingest.run.STEPS", (("a step of another shape", expect_a_field_no_record_has),))
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(UnreadableRecord, match=rf"^{path}: a record of an unexpected shape \(KeyError: 'no such"):
        run_import(subset_dir, database_url, LIVE_SCHEMA, quiet_console())
    assert snapshot(database_url, LIVE_SCHEMA) == before


class _TerminalGone(io.StringIO):
    """An output that fails when the skipped rows are reported."""

    def write(self, text: str) -> int:
        if "malformed rows skipped" in text:
            raise OSError("the terminal went away")
        return super().write(text)


def test_the_skipped_rows_are_reported_before_the_swap(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    """Only the swap comes after the report: an output that fails while reporting leaves the database as it was."""
    data = _with_corrupted_narrators(subset_dir, tmp_path, every=1000)
    before = snapshot(database_url, LIVE_SCHEMA)
    with pytest.raises(OSError, match="the terminal went away"):
        run_import(data, database_url, LIVE_SCHEMA, Console(file=_TerminalGone(), width=160), allow_altered=True)
    assert snapshot(database_url, LIVE_SCHEMA) == before
    assert not schema_exists(database_url, "isnad_build")
