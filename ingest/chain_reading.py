"""A dataset chain read against the written isnad of its hadith: which link of the text stands for each node.

The dataset gives each chain as ordered narrator ids; the text gives links (ingest.isnad_reading). A node
is placed on a link whose mention names its narrator (ingest.narrator_names) or is a relation («أبيه») that
the narrator before it bears out, the nodes in order and the links in order, as many of them as can be
(a longest common subsequence, each node on the earliest link that keeps it longest: the dataset's order
is kept, a node named only out of that order stays unplaced). Between two placed nodes, or above the last, the nodes
left unplaced are paired in order with the links left between, when there are exactly as many of each
(above the last placed node, only relational mentions are taken: what follows there may be the matn).

Status of each node (resolution_status, method):

- confirmed, 'dataset_id+text_names_narrator': the text's mention at this place names him, and no other
  narrator of the index.
- confirmed, 'dataset_id+homonym_name+teacher_student': the mention names him and homonyms alike, and the
  student lists single him out by his neighbours in the chain (ingest.homonyms).
- probable, 'dataset_id+homonym_name': the mention names him and homonyms alike, and nothing singles him out.
- ambiguous, 'dataset_id+homonym_contradicted': the mention names him and homonyms alike, and the student
  lists point at homonyms, not at him; the narrator is not shown (the source_key keeps the
  dataset's id, the chain check 'homonym_contradicted' names both).
- probable, 'dataset_id+relational_mention': the mention is «أبيه» or «جده» and the narrator before him
  has this narrator's ism as his father's (grandfather's) name.
- probable, 'dataset_id+mention_not_his_name': the link at this place does not name him (another name, or
  a relation that his name does not bear out); the mention shown is the text's.
- unresolved, 'dataset_id_not_in_text': no link of the text stands for him; the narrator is not shown
  (the source_key keeps the dataset's id).
- unresolved, 'dataset_id_not_in_index': the dataset's id is not in the narrator index.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from ingest.isnad_parser import is_kinship_pronoun
from ingest.isnad_reading import Link
from ingest.narrator_names import NameForms

CONFIRMED = ("confirmed", "dataset_id+text_names_narrator")
SINGLED_OUT = ("confirmed", "dataset_id+homonym_name+teacher_student")
HOMONYM = ("probable", "dataset_id+homonym_name")
CONTRADICTED = ("ambiguous", "dataset_id+homonym_contradicted")
RELATIONAL = ("probable", "dataset_id+relational_mention")
NOT_HIS_NAME = ("probable", "dataset_id+mention_not_his_name")
NOT_IN_TEXT = ("unresolved", "dataset_id_not_in_text")
NOT_IN_INDEX = ("unresolved", "dataset_id_not_in_index")
SHOWN = frozenset({"confirmed", "probable"})  # the statuses that show the dataset's id
PLACED = frozenset({CONFIRMED, SINGLED_OUT, HOMONYM, CONTRADICTED, RELATIONAL})  # the text bears the node out


@dataclass(frozen=True)
class NodeReading:
    """Where a node stands in the text (the index of its link, or None) and what that makes of it; for a
    contradicted homonym, the homonyms the student lists point at."""

    link: int | None
    status: str
    method: str
    homonyms: tuple[int, ...] = ()

    @property
    def narrator_shown(self) -> bool:
        return self.status in SHOWN

    @property
    def placed(self) -> bool:
        """Whether the text bears the node out at its place (its name, or a relation the chain confirms)."""
        return (self.status, self.method) in PLACED


def _stands_for(forms: NameForms, narrators: Sequence[int | None], index: int, link: Link) -> bool:
    """Whether the link names the node's narrator, or is a relation that the narrator before it bears out."""
    narrator, previous = narrators[index], narrators[index - 1] if index else None
    if narrator is None:
        return False
    if forms.names(link.mention, narrator):
        return True
    return previous is not None and forms.relation_holds(link.mention, previous, narrator)


def _placements(narrators: Sequence[int | None], links: Sequence[Link], forms: NameForms) -> list[int | None]:
    """For each node, the link that stands for it in a longest order-keeping alignment (the earliest such
    link), or None."""
    n, m = len(narrators), len(links)
    named = [[_stands_for(forms, narrators, i, link) for link in links] for i in range(n)]
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1], 1 + best[i + 1][j + 1] if named[i][j] else 0)
    placed: list[int | None] = [None] * n
    i = j = 0
    while i < n and j < m:
        if named[i][j] and best[i][j] == 1 + best[i + 1][j + 1]:
            placed[i], i, j = j, i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return placed


def _unplaced_runs(placed: list[int | None]) -> list[tuple[int, int]]:
    """The (first, last) node index of each run of unplaced nodes."""
    runs, start = [], None
    for index, link in enumerate([*placed, -1]):
        if link is None and start is None:
            start = index
        elif link is not None and start is not None:
            runs.append((start, index - 1))
            start = None
    return runs


def _pair_gaps(placed: list[int | None], links: Sequence[Link]) -> list[int | None]:
    """Pair each run of unplaced nodes with the links between its placed neighbours, one for one."""
    paired = list(placed)
    taken = {link for link in placed if link is not None}
    for first, last in _unplaced_runs(placed):
        low = placed[first - 1] if first > 0 else -1
        high = placed[last + 1] if last + 1 < len(placed) else None
        assert low is not None
        if high is None:
            free = [j for j in range(low + 1, min(len(links), low + 1 + last - first + 1)) if j not in taken]
            free = [j for j in free if is_kinship_pronoun(links[j].mention)]
        else:
            free = [j for j in range(low + 1, high) if j not in taken]
        if len(free) == last - first + 1:
            paired[first : last + 1] = free
    return paired


def read_chain(narrators: Sequence[int | None], links: Sequence[Link], forms: NameForms) -> list[NodeReading]:
    """Each node of a dataset chain (its narrator id, None when not in the index) read against the links."""
    placed = _placements(narrators, links, forms)
    paired = _pair_gaps(placed, links)
    readings = []
    for index, (narrator, link) in enumerate(zip(narrators, paired, strict=True)):
        if narrator is None:
            status = NOT_IN_INDEX
        elif link is None:
            status = NOT_IN_TEXT
        elif forms.names(links[link].mention, narrator):
            status = CONFIRMED
        elif placed[index] is not None:
            status = RELATIONAL
        else:
            status = NOT_HIS_NAME
        readings.append(NodeReading(link, *status))
    return readings
