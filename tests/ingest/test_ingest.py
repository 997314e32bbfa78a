"""The importer, run for real on a real subset: counts, chains and narrators whole, stable ids, a build that
gives the same contents twice, and the same from the upstream copies alone."""

import asyncio
import shutil
from pathlib import Path

import asyncpg

from app.text.arabic import normalize
from ingest.chain_alignment import ALIGNED, computed_alignment, source_key
from ingest.checksums import TableChecksum, table_checksums
from ingest.context import ImportContext
from ingest.manifest import committed_manifest
from ingest.run import ImportReport, run_import
from tests.conftest import LIVE_SCHEMA, quiet_console
from tests.dbquery import fetch, id_fingerprint, live_count, scalar
from tests.subset import gzip_lines

SEVEN = ("bukhari", "muslim", "abudawud", "tirmidhi", "nasai", "ibnmajah", "malik")
FORTIES = {"ara-nawawi": "nawawi40", "ara-qudsi": "qudsi40", "ara-dehlawi": "shahwaliullah40"}


def test_every_hadith_of_the_subset_is_imported(imported: ImportReport, database_url: str, subset_dir: Path) -> None:
    for code in SEVEN:
        expected = len(gzip_lines(subset_dir / f"hadith/sunnah_hadith_json/{code}.jsonl.gz"))
        got = live_count(
            database_url, "SELECT count(*) FROM hadith JOIN collection USING (collection_id) WHERE code = $1", code
        )
        assert got == expected, code
    for edition, code in FORTIES.items():
        expected = len(gzip_lines(subset_dir / f"hadith/hadith_api_sqlite_export/{edition}.jsonl.gz"))
        got = live_count(
            database_url, "SELECT count(*) FROM hadith JOIN collection USING (collection_id) WHERE code = $1", code
        )
        assert got == expected, code
    assert imported.counts["hadith"] == live_count(database_url, "SELECT count(*) FROM hadith")


def test_arabic_for_all_and_french_where_a_source_gives_it(imported: ImportReport, database_url: str) -> None:
    # Only Malik has records no source gives in Arabic (statements by Malik, English only).
    assert (
        live_count(
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
    aligned = [chain for chain in computed_alignment(ImportContext(subset_dir)) if chain.status == ALIGNED]
    chains = fetch(
        database_url,
        LIVE_SCHEMA,
        """SELECT c.source_key, count(*) AS nodes FROM chain c JOIN chain_node USING (chain_id)
        WHERE c.origin = 'dataset' GROUP BY c.source_key""",
    )

    assert aligned
    assert sorted((row["source_key"], row["nodes"]) for row in chains) == sorted(
        (source_key(chain.row), len(chain.scholars)) for chain in aligned
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
        live_count(
            database_url,
            "SELECT count(*) FROM chain_node WHERE resolution_status = 'confirmed' AND narrator_id IS NULL",
        )
        == 0
    )
    assert (
        live_count(
            database_url,
            "SELECT count(*) FROM chain_node JOIN chain USING (chain_id)"
            " WHERE origin = 'parsed_isnad' AND resolution_status = 'confirmed'",
        )
        == 0
    )
    assert (
        live_count(
            database_url,
            "SELECT count(*) FROM chain_node WHERE resolution_status = 'ambiguous' AND narrator_id IS NOT NULL",
        )
        == 0
    )


def test_chain_neighbours_are_not_stored_as_relations(imported: ImportReport, database_url: str) -> None:
    # 'Umar and 'Alqama are adjacent in Bukhari 1, but no source records them as teacher and student.
    assert (
        live_count(
            database_url,
            "SELECT count(*) FROM transmission_relation WHERE (teacher_id, student_id) IN ((3, 11042), (11042, 3))",
        )
        == 0
    )
    assert (
        live_count(
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
        live_count(
            database_url,
            f"SELECT count(*) FROM narrator n LEFT JOIN ({counted}) c USING (narrator_id)"
            " WHERE (n.occurrence_count, n.distinct_hadith_count)"
            " IS DISTINCT FROM (coalesce(c.occurrences, 0), coalesce(c.hadith, 0))",
        )
        == 0
    )
    assert live_count(database_url, "SELECT count(*) FROM narrator WHERE occurrence_count > distinct_hadith_count") > 0


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


def test_the_upstream_copies_alone_give_the_same_database(
    imported: ImportReport, database_url: str, subset_dir: Path, tmp_path: Path
) -> None:
    """Every file the manifest says the importer does not read (the staged derived joins, now the oracles of the
    derivations that replaced them) taken away: the import runs, names each as absent, and gives the same
    contents."""
    data = tmp_path / "upstream"
    shutil.copytree(subset_dir, data, symlinks=True)
    unread = [entry.path for entry in committed_manifest().files.values() if not entry.read_by_importer]
    for path in unread:
        (data / path).unlink()
    assert any(entry.derived and not entry.read_by_importer for entry in committed_manifest().files.values())
    console = quiet_console()

    upstream = run_import(data, database_url, "isnad_upstream", console)

    assert upstream.content_checksum == imported.content_checksum
    said = console.file.getvalue()  # type: ignore[attr-defined]
    assert all(f"{path}: file not found (not read by the importer: " in said for path in unread)
