"""The integrity checks of a dataset chain read against its text: each failure a code and a short reason.

A chain that fails any check is not a `fact` (the API shows it as `insufficient_evidence` with its failed
checks), and no chain observation drawn from it is either.

- repeated_narrator: one narrator stands at two positions (a change of chain «ح» or a repeated strand read
  as one series: muslim:8a's dataset chain runs Kahmas -> Ibn Burayda -> Yahya b. Ya'mar twice).
- order_against_text: the text names a node's narrator, but only out of the dataset's order (by a link
  that stands for no other node).
- narrator_missing: between two nodes placed on the text, of one strand, the text names someone the chain
  leaves out (a mention that names none of the chain's narrators, not even by its first word); or right
  above the chain's last node, under a term of narration (حدثنا, أخبرنا, عن, سمعت ..., not قال or أن), it
  names such a man, not the Prophet: the chain stops short.
- tahwil_flattened: two consecutive nodes stand in different strands of the text (either side of a «ح»).
- co_narrators_flattened: two consecutive nodes are co-narrators under one term («حدثنا قتيبة وابن رمح»):
  parallel in the text, a series in the dataset.
- no_companion_at_top: the chain reaches the Prophet, or its text names him, and its last narrator below
  him is known not to be a Companion (the text may be mursal, or the dataset stops short).
- homonym_contradicted: a node's mention names the dataset's narrator and homonyms alike, and the student
  lists point at homonyms and not at him (ingest.homonyms): Bukhari 6953's «حماد بن زيد عن يحيى بن سعيد
  عن محمد بن إبراهيم», where the dataset gives al-Qattan and the lists give al-Taymi al-Ansari as a student.
- impossible_meeting: a teacher died before his student was born (a Companion's or the Prophet's birth
  year is not compared: the dataset writes years before the Hijra without their sign), or the student died
  more than MAX_YEARS_APART years after him.
"""

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.text.arabic import normalize
from ingest.chain_reading import NodeReading
from ingest.isnad_parser import SAYING, TERMS, bare_term
from ingest.isnad_reading import Link
from ingest.narrator_names import NameForms

PROPHET = 1
COMPANION_GENERATION = 1
MAX_YEARS_APART = 110  # hearing at birth and living 110 years more: beyond it the two did not meet
_OPENING = SAYING | {"ان"}  # terms that open the report as often as a link
_NAMES_PROPHET = re.compile("رسول الله|النبي")  # in the normalized text


@dataclass(frozen=True)
class Check:
    """A failed check of a chain."""

    code: str
    reason: str


@dataclass(frozen=True)
class Life:
    """What the dataset says of a narrator's generation and years (Hijri), each None when it says nothing."""

    generation: int | None
    birth: int | None
    death: int | None


@dataclass(frozen=True)
class ChainText:
    """A dataset chain read against its text: its narrator ids (None: not in the index), each node's reading, the
    text's links, and the text."""

    narrators: Sequence[int | None]
    readings: Sequence[NodeReading]
    links: Sequence[Link]
    text: str


def _repeated(chain: ChainText) -> list[Check]:
    counts = Counter(n for n in chain.narrators if n is not None)
    return [
        Check("repeated_narrator", f"narrator {n} stands at positions {_positions(chain, n)}")
        for n, count in sorted(counts.items())
        if count > 1
    ]


def _positions(chain: ChainText, narrator: int) -> str:
    return ", ".join(str(i + 1) for i, n in enumerate(chain.narrators) if n == narrator)


def _out_of_order(chain: ChainText, forms: NameForms) -> list[Check]:
    """Nodes the text does not bear out at their place, whose narrator a link left to no other node names
    elsewhere in the text."""
    taken = {reading.link for reading in chain.readings if reading.link is not None}
    free = [link for index, link in enumerate(chain.links) if index not in taken]
    unplaced = [
        i + 1
        for i, (n, reading) in enumerate(zip(chain.narrators, chain.readings, strict=True))
        if n is not None and not reading.placed and any(forms.names(link.mention, n) for link in free)
    ]
    if not unplaced:
        return []
    return [Check("order_against_text", f"the text names position {_list(unplaced)} only out of this order")]


def _list(items: Sequence[object]) -> str:
    return ", ".join(str(item) for item in items)


def _consecutive(chain: ChainText) -> list[tuple[int, int, int]]:
    """(lower position, its link, the next node's link) for each pair of consecutive nodes both in the text."""
    links = [reading.link for reading in chain.readings]
    return [(i + 1, low, high) for i, (low, high) in enumerate(pairwise(links)) if low is not None and high is not None]


def _seams(chain: ChainText, forms: NameForms) -> list[Check]:
    """Where two consecutive nodes are not two consecutive links of one strand of the text."""
    checks: list[Check] = []
    for position, low, high in _consecutive(chain):
        lower, upper = chain.links[low], chain.links[high]
        between = chain.links[low + 1 : high]
        if lower.strand != upper.strand:
            checks.append(Check("tahwil_flattened", f"positions {position} and {position + 1} are either side of «ح»"))
        elif upper.conjoined and all(link.conjoined for link in between):
            reason = f"positions {position} and {position + 1} are co-narrators under one term in the text"
            checks.append(Check("co_narrators_flattened", reason))
        elif skipped := _others_named(chain, forms, between):
            reason = f"between positions {position} and {position + 1} the text also names «{'» «'.join(skipped)}»"
            checks.append(Check("narrator_missing", reason))
    return checks


def _others_named(chain: ChainText, forms: NameForms, between: Sequence[Link]) -> list[str]:
    """The mentions of `between` that name a man: not a co-narrator, and none of the chain's narrators, not even
    by its first word (a wording note, «قال مسدد سعيد بن أبي سعيد», names one of them again)."""
    known = {n for n in chain.narrators if n is not None}
    return [
        link.mention
        for link in between
        if not link.conjoined
        and forms.is_name(link.mention)
        and not any(forms.names(link.mention, n) or forms.names(link.mention.split()[0], n) for n in known)
    ]


def _above_top(chain: ChainText, forms: NameForms) -> list[Check]:
    """The link right after the chain's last node, in its strand, under a term of narration (not «قال», «أن»),
    that names a man of no node of the chain, nor the Prophet: the chain stops short of a narrator the text
    names («عن الأوزاعي بهذا الإسناد» after a chain that ends below al-Awza'i)."""
    top = chain.readings[-1].link if chain.readings else None
    if top is None or top + 1 >= len(chain.links):
        return []
    link = chain.links[top + 1]
    if link.strand != chain.links[top].strand or link.conjoined or not _narrates(link.term):
        return []
    if _NAMES_PROPHET.search(normalize(link.mention)) or not _others_named(chain, forms, [link]):
        return []
    return [Check("narrator_missing", f"above position {len(chain.readings)} the text also names «{link.mention}»")]


def _narrates(term: str) -> bool:
    base = bare_term(normalize(term))
    return base in TERMS and base not in _OPENING


def _homonyms(chain: ChainText) -> list[Check]:
    checks = []
    for position, (narrator, reading) in enumerate(zip(chain.narrators, chain.readings, strict=True), start=1):
        if reading.homonyms and reading.link is not None:
            mention = chain.links[reading.link].mention
            reason = (
                f"position {position}: «{mention}» names {narrator} and homonyms alike; the student lists point at "
                f"{_list(reading.homonyms)}, not at the dataset's {narrator}"
            )
            checks.append(Check("homonym_contradicted", reason))
    return checks


def _top(chain: ChainText, lives: Mapping[int, Life]) -> list[Check]:
    known = [n for n in chain.narrators if n is not None]
    below = [n for n in known if n != PROPHET]
    reaches_prophet = PROPHET in known or bool(_NAMES_PROPHET.search(normalize(chain.text)))
    if not below or not reaches_prophet:
        return []
    top = below[-1]
    generation = lives[top].generation if top in lives else None
    if generation is None or generation == COMPANION_GENERATION:
        return []
    reason = f"the last narrator below the Prophet, {top}, is of generation {generation}, not a Companion"
    return [Check("no_companion_at_top", reason)]


def _meetings(chain: ChainText, lives: Mapping[int, Life]) -> list[Check]:
    checks = []
    for position, (student, teacher) in enumerate(pairwise(chain.narrators), start=1):
        if student is None or teacher is None or student not in lives or teacher not in lives:
            continue
        reason = _no_meeting(lives[student], lives[teacher])
        if reason:
            checks.append(Check("impossible_meeting", f"positions {position} and {position + 1}: {reason}"))
    return checks


def _no_meeting(student: Life, teacher: Life) -> str | None:
    if teacher.death is None:
        return None
    if student.birth is not None and (student.generation or 0) > COMPANION_GENERATION and teacher.death < student.birth:
        return f"the teacher died in {teacher.death}, before the student's birth in {student.birth}"
    if student.death is not None and student.death - teacher.death > MAX_YEARS_APART:
        return f"the student died in {student.death}, {student.death - teacher.death} years after the teacher"
    return None


def failed_checks(chain: ChainText, forms: NameForms, lives: Mapping[int, Life]) -> list[Check]:
    """Every check the chain fails, in a fixed order."""
    return [
        *_repeated(chain),
        *_out_of_order(chain, forms),
        *_seams(chain, forms),
        *_above_top(chain, forms),
        *_top(chain, lives),
        *_meetings(chain, lives),
        *_homonyms(chain),
    ]
