"""Rijal notices read whole, and linked only as the evidence allows, on the real subset."""

from ingest.run import ImportReport
from tests.conftest import LIVE_SCHEMA
from tests.dbquery import fetch

LAYTH = 10957  # al-Layth b. Abi Sulaym, taqrib:5685
MALIK = 20001  # taqrib:6425


def _verdict(url: str, narrator: int) -> tuple[str, str, str]:
    rows = fetch(
        url,
        LIVE_SCHEMA,
        """SELECT a.value, a.locator, n.grade_tier FROM scholarly_assertion a JOIN narrator n USING (narrator_id)
            WHERE a.narrator_id = $1 AND a.field = 'ibn_hajar_verdict' AND a.source_id = 'openiti-taqrib'""",
        narrator,
    )
    return rows[0]["value"], rows[0]["locator"], rows[0]["grade_tier"]


def _notice_verdict(url: str, entry_id: str) -> str | None:
    rows = fetch(url, LIVE_SCHEMA, "SELECT grade_term FROM rijal_notice WHERE entry_id = $1", entry_id)
    return rows[0]["grade_term"]  # type: ignore[no-any-return]


def test_a_verdict_is_read_to_the_end_of_its_qualifier_and_the_tier_follows_it(
    imported: ImportReport, database_url: str
) -> None:
    assert _verdict(database_url, LAYTH) == ("صدوق اختلط جدا ولم يتميز حديثه فترك", "taqrib:5685", "matruk")


def test_the_verdict_forms_of_the_leading_imams_are_read(imported: ImportReport, database_url: str) -> None:
    value, locator, tier = _verdict(database_url, MALIK)
    assert value.startswith("الفقيه إمام دار الهجرة رأس المتقنين وكبير المتثبتين")
    assert (locator, tier) == ("taqrib:6425", "thiqa")
    assert _notice_verdict(database_url, "taqrib:6296") == "الفقيه الحافظ متفق على جلالته وإتقانه [وثبته]"
    assert _notice_verdict(database_url, "taqrib:2445") == (
        "ثقة حافظ فقيه عابد إمام حجة من رؤوس الطبقة السابعة وكان ربما دلس"
    )
    assert _notice_verdict(database_url, "taqrib:96") == "أحد الأئمة ثقة حافظ فقيه حجة"


def test_a_notice_without_a_verdict_word_has_no_verdict(imported: ImportReport, database_url: str) -> None:
    # «داود ابن أبي الفرات هو ابن بكر نسب لجده تقدم»: a cross-reference, no verdict to read.
    assert _notice_verdict(database_url, "taqrib:1807") is None
