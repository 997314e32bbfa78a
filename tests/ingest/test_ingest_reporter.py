"""What the import prints: text as the data wrote it, never markup, emoji or highlighting; skipped rows per file."""

from collections.abc import Callable

from ingest.reporter import Reporter
from tests.conftest import quiet_console

MARKUP = "[/b] line 100 :100: [red]"  # a closing tag rich raised on (after the swap), an emoji, an opening tag


def _printed(report: Callable[[Reporter], None]) -> str:
    console = quiet_console()
    report(Reporter(console))
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def test_skipped_rows_are_reported_per_file_as_the_data_wrote_them() -> None:
    bad = [f"a.csv.gz:100: unreadable name «{MARKUP}»", "b.jsonl.gz:7: not valid JSON", "a.csv.gz:101: 3 fields"]

    printed = _printed(lambda reporter: reporter.bad_rows(bad))

    assert printed.splitlines() == [
        "2 malformed rows skipped in a.csv.gz; first:",
        f"  a.csv.gz:100: unreadable name «{MARKUP}»",
        "  a.csv.gz:101: 3 fields",
        "1 malformed rows skipped in b.jsonl.gz; first:",
        "  b.jsonl.gz:7: not valid JSON",
    ]


def test_a_table_prints_its_values_as_text() -> None:
    printed = _printed(lambda reporter: reporter.table("Works", [{"work": MARKUP, "passages": 1234}]))

    assert MARKUP in printed
    assert "1,234" in printed


def test_a_failure_prints_its_reason_as_text() -> None:
    printed = _printed(lambda reporter: reporter.failed(f"x.csv.gz: unreadable «{MARKUP}»"))

    assert printed == f"import failed, the database is unchanged: x.csv.gz: unreadable «{MARKUP}»\n"
