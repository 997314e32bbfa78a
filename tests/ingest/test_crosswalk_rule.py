"""The rule of the hadith-number crosswalk (ingest/crosswalk.py) on small editions written for each case."""

import csv
import gzip
from pathlib import Path

from ingest.context import ImportContext
from ingest.crosswalk import FAWAZ_ENGLISH, Record, pair, words

ISNAD = "It was narrated from Abu Hurairah that the Messenger of Allah said"
LONG = f"{ISNAD}: whoever believes in Allah and the Last Day, let him speak good or keep silent, and honour his guest"
GENERIC = "This hadith has been narrated on the authority of Zuhri with the same chain of transmitters"
COMMENT = (
    "Malik said that this is what is done among us and that he had heard it from the people of knowledge in Madina"
)
FawazRow = tuple[str, str, str, str]  # hadithnumber, book, hadith (in-book reference), English


def _numbers(tmp_path: Path, fawaz: list[FawazRow], records: list[Record]) -> dict[int, tuple[str, str] | None]:
    """Each record's seq -> (the fawaz number paired with it, the method), or None."""
    path = tmp_path / FAWAZ_ENGLISH.format("test")
    path.parent.mkdir(parents=True)
    with gzip.open(path, "wt", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["hadithnumber", "arabicnumber", "text", "book", "hadith"])
        writer.writerows([number, number, text, book, hadith] for number, book, hadith, text in fawaz)
    found = pair(ImportContext(tmp_path), "test", records)
    return {r.seq: (n.hadithnumber, n.method) if n else None for r, n in found}


def _record(seq: int, place: tuple[str, str], english: str, *, arabic: bool = True) -> Record:
    return Record(place, seq, words(english), arabic)


def test_words_are_compared_without_diacritics_case_marks_or_hyphens() -> None:
    assert words("Abū Hāni’ narrated: Sa'īd al-Ansari (ﷺ) 26") == ["abu", "hani", "narrated", "said", "al", "ansari"]
    assert "".join(words("al- Ansari")) == "".join(words("alAnsari"))


def test_the_same_english_takes_the_record_of_its_own_place_and_no_record_is_given_twice(tmp_path: Path) -> None:
    fawaz = [("10", "1", "1", LONG), ("20", "2", "5", LONG)]
    records = [_record(1, ("2", "5"), LONG), _record(2, ("1", "1"), LONG), _record(3, ("1", "2"), LONG)]

    assert _numbers(tmp_path, fawaz, records) == {
        1: ("20", "english_exact_ambiguous"),
        2: ("10", "english_exact_ambiguous"),
        3: None,
    }


def test_a_generic_formula_is_never_paired_with_a_record_of_another_kitab(tmp_path: Path) -> None:
    fawaz = [("30", "12", "171", GENERIC), ("31", "12", "172", LONG)]
    records = [_record(1, ("29", "39"), GENERIC), _record(2, ("12", "171"), f"{GENERIC}.")]

    assert _numbers(tmp_path, fawaz, records) == {1: None, 2: ("30", "english_exact")}


def test_an_english_cut_at_a_bracket_takes_the_record_at_its_place(tmp_path: Path) -> None:
    rest = "the neighbour has a right over him, the guest a right of three days, and what is more is charity for him"
    whole = f"{LONG} [SAW] and whoever believes in Allah and the Last Day let him not harm his neighbour, for {rest}"
    cut = f"{ISNAD}: whoever believes in Allah and the Last Day, let him speak good or keep silent"
    fawaz = [("40", "3", "7", whole)]

    assert _numbers(tmp_path, fawaz, [_record(1, ("3", "7"), cut)]) == {1: ("40", "english_contained")}


def test_a_comment_without_arabic_leaves_the_joined_record_to_the_hadith_after_it(tmp_path: Path) -> None:
    """fawaz joins Malik's comment to the hadith that follows it, whose Arabic is the number's."""
    hadith = f"{ISNAD}: the prayer in congregation is twenty-seven degrees better than the prayer of a man alone"
    fawaz = [("50", "5", "1", LONG), ("51", "5", "2", f"{COMMENT}. {hadith}")]
    records = [
        _record(1, ("5", "1"), LONG),
        _record(2, ("5", "2"), COMMENT, arabic=False),
        _record(3, ("5", "3"), hadith),
    ]

    assert _numbers(tmp_path, fawaz, records) == {1: ("50", "english_exact"), 2: None, 3: ("51", "english_contained")}
