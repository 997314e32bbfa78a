"""A homonym's name weighed against the student lists, on the niyyat hadith's «حماد بن زيد عن يحيى بن سعيد عن محمد
بن إبراهيم» (Bukhari 3898), where the dataset gives Yahya b. Sa'id al-Qattan and the narrator is al-Ansari: the
lists (all_rawis_students_edges) give al-Ansari as al-Taymi's student, not al-Qattan, whose students they record."""

from ingest.chain_reading import CONFIRMED, CONTRADICTED, HOMONYM, SINGLED_OUT
from ingest.homonyms import Neighbours, StudentLists, weigh

ANSARI, QATTAN = 11062, 20031  # Yahya b. Sa'id al-Ansari, Yahya b. Sa'id al-Qattan
HAMMAD, TAYMI, AHMAD = 20022, 11213, 30007  # Hammad b. Zayd, Muhammad b. Ibrahim al-Taymi, Ahmad b. Hanbal
BOTH = frozenset({ANSARI, QATTAN})
AROUND = Neighbours(student=HAMMAD, teacher=TAYMI)
LISTS = StudentLists.of([(TAYMI, ANSARI), (QATTAN, AHMAD)])  # two of the lists' real pairs


def test_a_name_no_homonym_bears_is_confirmed_as_the_text_names_him() -> None:
    assert weigh(ANSARI, frozenset({ANSARI}), AROUND, LISTS) == (*CONFIRMED, ())


def test_the_lists_single_out_the_dataset_narrator_among_his_homonyms() -> None:
    assert weigh(ANSARI, BOTH, AROUND, LISTS) == (*SINGLED_OUT, ())


def test_the_lists_pointing_at_a_homonym_contradict_the_dataset_id() -> None:
    assert weigh(QATTAN, BOTH, AROUND, LISTS) == (*CONTRADICTED, (ANSARI,))


def test_a_homonym_name_with_nothing_to_tell_them_apart_is_only_probable() -> None:
    assert weigh(QATTAN, BOTH, Neighbours(student=HAMMAD, teacher=None), LISTS) == (*HOMONYM, ())


def test_a_narrator_with_no_list_on_that_side_is_not_contradicted_by_its_silence() -> None:
    assert weigh(QATTAN, BOTH, AROUND, StudentLists.of([(TAYMI, ANSARI)])) == (*HOMONYM, ())


def test_the_lists_pointing_at_several_homonyms_and_not_at_him_contradict_the_dataset_id() -> None:
    """Bukhari 3898's «يحيى» alone, below al-Taymi: his students include al-Ansari and Yahya b. Abi Kathir."""
    kathir = 11449  # Yahya b. Abi Kathir
    lists = StudentLists.of([*LISTS.pairs, (TAYMI, kathir)])

    assert weigh(QATTAN, BOTH | {kathir}, AROUND, lists) == (*CONTRADICTED, (ANSARI, kathir))
