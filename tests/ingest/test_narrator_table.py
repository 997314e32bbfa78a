"""The narrator table computed from the upstream copies (ingest/narrator_table.py), against the data scout's staged
join of the same files, and on damaged copies of its rows file."""

import gzip
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest.context import ImportContext
from ingest.errors import MissingInput
from ingest.narrator_table import INDEX_FILE, ROWS_FILE, NarratorSource, narrator_sources, split_name
from tests.conftest import shared_data_dir

STAGED = "narrators/kaggle_muslimscholars/narrators_reconstructed.csv.gz"
BIDI_LEFTOVER = " ( \u200e"  # what the staged Latin name keeps of «Latin ( \u200eArabic»


def _staged() -> dict[int, dict[str, str]]:
    ctx = ImportContext(shared_data_dir())
    return {int(row["scholar_indx"]): row for _, row in ctx.csv(STAGED, "the oracle", "test")}


def _as_staged(source: NarratorSource) -> tuple[str, ...]:
    return (source.name_latin, source.name_ar, source.label, source.birth, source.death, source.reliability)


def _staged_fields(row: dict[str, str]) -> tuple[str, ...]:
    fields = ("name_en", "name_ar", "grade", "birth_date_hijri", "death_date_hijri", "reliability_grade_derived")
    return tuple(row[field] for field in fields)


def test_the_computed_table_is_the_staged_one_but_where_the_staged_one_lost_letters_or_kept_marks_and_spaces() -> None:
    computed = {source.scholar_indx: source for source in narrator_sources(ImportContext(shared_data_dir()))}
    staged = _staged()

    assert computed.keys() == staged.keys() and len(computed) == 24_326
    differing = {i for i in computed if _as_staged(computed[i]) != _staged_fields(staged[i])}
    latin = {i for i in differing if computed[i].name_latin != staged[i]["name_en"]}
    arabic = {i for i in differing if computed[i].name_ar != staged[i]["name_ar"]}
    assert differing == latin | arabic
    marks = {i for i in latin if staged[i]["name_en"] == computed[i].name_latin + BIDI_LEFTOVER}
    spaces = {i for i in latin if computed[i].name_latin == " ".join(staged[i]["name_en"].split())}
    assert (len(marks), len(spaces), len(arabic)) == (6, 9, 2)
    assert latin == marks | spaces
    assert {computed[i].name_ar for i in arabic} == {
        "الحسن بن علي بن أبي طالب رضي الله عنه",
        "حسين بن علي بن أبي طالب رضي الله عنه",
    }
    assert {staged[i]["name_ar"] for i in arabic} == {
        "الحسن بن علي بن أ طالب رضي الله عنه",
        "حسين بن علي بن أ طالب رضي الله عنه",
    }


@pytest.mark.parametrize(
    ("raw", "latin", "arabic"),
    [
        (
            "Umm Habibah bint Abi Sufyan ( أم حبيبة ,رملة بنت أبي سفيان ( رضي الله عنها",
            "Umm Habibah bint Abi Sufyan",
            "أم حبيبة رملة بنت أبي سفيان رضي الله عنها",
        ),
        (
            "Abu Hurairah ( أبو هريرة - عبد الرحمن بن صخر الدوسي  ( رضي الله عنه",
            "Abu Hurairah",
            "أبو هريرة - عبد الرحمن بن صخر الدوسي رضي الله عنه",
        ),
        ("Khalid bin Msawr خالد بن مساور", "Khalid bin Msawr", "خالد بن مساور"),
        ("Ja'far ibn Abi Sufyan ( \u200eجعفر بن أبي سفيان", "Ja'far ibn Abi Sufyan", "جعفر بن أبي سفيان"),
        ("Hassan ( الحسن بن علي بن أﺑﻲ طالب", "Hassan", "الحسن بن علي بن أبي طالب"),
        ("Anonymous", "Anonymous", ""),
    ],
)
def test_a_name_is_split_into_its_latin_and_its_arabic(raw: str, latin: str, arabic: str) -> None:
    assert split_name(raw) == (latin, arabic)


def _copy_with_rows(tmp_path: Path, change: Callable[[list[bytes]], list[bytes]]) -> ImportContext:
    for path in (INDEX_FILE, ROWS_FILE):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shared_data_dir() / path, tmp_path / path)
    lines = gzip.decompress((shared_data_dir() / ROWS_FILE).read_bytes()).split(b"\n")
    (tmp_path / ROWS_FILE).write_bytes(gzip.compress(b"\n".join(change(lines))))
    return ImportContext(tmp_path)


def _quote_opened_on_line(line: int) -> Callable[[list[bytes]], list[bytes]]:
    """A «"» opening the class label of `line` (the name before it holds commas: the label is the last field but
    three), so that csv reads on to the next «"»."""

    def change(lines: list[bytes]) -> list[bytes]:
        fields = lines[line - 1].rsplit(b",", 4)
        fields[1] = b'"' + fields[1]
        return [*lines[: line - 1], b",".join(fields), *lines[line:]]

    return change


def test_a_damaged_row_leaves_its_narrators_out_and_every_other_keeps_his_own_row(tmp_path: Path) -> None:
    whole = {s.scholar_indx: s for s in narrator_sources(ImportContext(shared_data_dir()))}
    ctx = _copy_with_rows(tmp_path, _quote_opened_on_line(1001))

    damaged = {s.scholar_indx: s for s in narrator_sources(ctx)}

    lost = whole.keys() - damaged.keys()
    assert 2 <= len(lost) == len(ctx.bad_rows())  # the opened line and each line the quote swallowed
    assert all(reason.startswith(f"{ROWS_FILE}:") for reason in ctx.bad_rows())
    assert all(damaged[i] == whole[i] for i in damaged)  # the rows after the damage keep their narrators


def test_a_rows_file_with_a_row_fewer_than_the_index_names_is_refused(tmp_path: Path) -> None:
    ctx = _copy_with_rows(tmp_path, lambda lines: [*lines[:1000], *lines[1001:]])

    with pytest.raises(MissingInput, match=r"all_rawis_reduced\.csv\.gz: has 24,325 rows where the index names"):
        narrator_sources(ctx)
