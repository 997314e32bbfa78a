"""A dataset node whose mention names homonyms: whether the student lists single out the dataset's narrator.

A mention names a narrator by the units of his name forms (ingest.narrator_names); it names others as well
when their clean forms (the dataset's names and the isnad forms, no notice text) carry its words word for
word (NameForms.named): «يحيى بن سعيد» names Yahya b. Sa'id al-Ansari and Yahya b. Sa'id al-Qattan alike,
«سفيان» every Sufyan of the index. The text then does not say which of them the dataset's id stands for.
What can is a source apart from the dataset's chains: the teacher -> student pairs of the student lists
(transmission_relation, 'attested'). A candidate (the dataset's narrator or a homonym) is borne out when
the lists give him the node right below him in the chain as his student, or the node right above him as
his teacher. A neighbour counts only where the text names him next to this node (the next link of the same
strand, the upper one not a co-narrator joined by «و»), under another id.

- the dataset's narrator alone is borne out: confirmed, SINGLED_OUT;
- homonyms are borne out (one or several), and the dataset's narrator is not although the lists record his
  students (or teachers) on that side: ambiguous, CONTRADICTED, the homonyms kept for the chain check
  (Bukhari 3898's «حماد بن زيد عن يحيى عن محمد بن إبراهيم»: al-Taymi's students include Yahya b. Sa'id
  al-Ansari and Yahya b. Abi Kathir, not al-Qattan, the dataset's);
- otherwise (none borne out, several, or no list on his side): probable, HOMONYM.

The homonym is never put in the dataset's place: the lists are the only evidence for him, and an id chosen
by them would come back as a chain observation of the very pair that chose it.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ingest.chain_reading import CONFIRMED, CONTRADICTED, HOMONYM, SINGLED_OUT, NodeReading
from ingest.isnad_reading import Link
from ingest.narrator_names import NameForms


@dataclass(frozen=True)
class StudentLists:
    """The teacher -> student pairs, and the narrators who have students, or teachers, recorded."""

    pairs: frozenset[tuple[int, int]]
    with_students: frozenset[int]
    with_teachers: frozenset[int]

    @classmethod
    def of(cls, pairs: Iterable[tuple[int, int]]) -> "StudentLists":
        kept = frozenset(pairs)
        return cls(kept, frozenset(t for t, _ in kept), frozenset(s for _, s in kept))


@dataclass(frozen=True)
class Neighbours:
    """The dataset's ids of the nodes right below (his student) and right above (his teacher), where they count."""

    student: int | None
    teacher: int | None


def _borne_out(lists: StudentLists, candidate: int, around: Neighbours) -> bool:
    below = around.student is not None and (candidate, around.student) in lists.pairs
    return below or (around.teacher is not None and (around.teacher, candidate) in lists.pairs)


def _listed(lists: StudentLists, narrator: int, around: Neighbours) -> bool:
    """Whether the lists record his students (teachers) where the chain has a student (teacher) to compare."""
    below = around.student is not None and narrator in lists.with_students
    return below or (around.teacher is not None and narrator in lists.with_teachers)


def weigh(
    narrator: int, named: frozenset[int], around: Neighbours, lists: StudentLists
) -> tuple[str, str, tuple[int, ...]]:
    """The status and method of a node whose mention names `named` (his id among them), and the homonyms the
    lists point at against him."""
    if named <= {narrator}:
        return (*CONFIRMED, ())
    borne_out = {candidate for candidate in named if _borne_out(lists, candidate, around)}
    if borne_out == {narrator}:
        return (*SINGLED_OUT, ())
    if borne_out and narrator not in borne_out and _listed(lists, narrator, around):
        return (*CONTRADICTED, tuple(sorted(borne_out)))
    return (*HOMONYM, ())


def _next_to(lower: NodeReading, upper: NodeReading, links: Sequence[Link]) -> bool:
    """The upper node's link follows the lower's in the same strand, not as a co-narrator of it."""
    if lower.link is None or upper.link is None or not (lower.placed and upper.placed):
        return False
    high = links[upper.link]
    return upper.link == lower.link + 1 and high.strand == links[lower.link].strand and not high.conjoined


def _neighbours(
    index: int, narrators: Sequence[int | None], readings: Sequence[NodeReading], links: Sequence[Link]
) -> Neighbours:
    own = narrators[index]
    below = narrators[index - 1] if index and _next_to(readings[index - 1], readings[index], links) else None
    above = index + 1 < len(narrators) and _next_to(readings[index], readings[index + 1], links)
    teacher = narrators[index + 1] if above else None
    return Neighbours(below if below != own else None, teacher if teacher != own else None)


def weigh_homonyms(
    narrators: Sequence[int | None],
    readings: Sequence[NodeReading],
    links: Sequence[Link],
    clean_forms: NameForms,
    lists: StudentLists,
) -> list[NodeReading]:
    """The readings, each node the text names (CONFIRMED) weighed against the homonyms its mention names too."""
    weighed = []
    for index, (narrator, reading) in enumerate(zip(narrators, readings, strict=True)):
        if narrator is None or reading.link is None or (reading.status, reading.method) != CONFIRMED:
            weighed.append(reading)
            continue
        named = clean_forms.named(links[reading.link].mention) | {narrator}
        status, method, homonyms = weigh(narrator, named, _neighbours(index, narrators, readings, links), lists)
        weighed.append(replace(reading, status=status, method=method, homonyms=homonyms))
    return weighed
