"""Chains of transmission and their nodes (tables chain and chain_node), and narrator.chain_node_count.

Two origins, never mixed on one hadith:

- 'dataset': the muslimscholars chains (ordered scholar ids) that the project aligns to a
  hadith-json hadith (ingest.chain_alignment; chains not aligned cannot be placed on a hadith and
  are counted, not imported), each read against the hadith's written isnad
  (ingest.chain_reading): the mention and the term of each node are the text's own, and each chain
  carries the integrity checks it fails (ingest.chain_checks, table chain_check).
- 'parsed_isnad': for a hadith of the six books that has no dataset chain, the isnad of its LK
  corpus row (joined through the LK crosswalk that ingest/lk_crosswalk.py computes, Arabic token
  containment >= 0.7), cut into mentions by ingest.isnad_parser and resolved by exact name against the Arabic name
  variants.

Node status (resolution_status, method, confidence): for dataset chains, as ingest.chain_reading
says; confidence = the chain's alignment score for a confirmed node, that score x the share of the
chain's nodes confirmed for a probable one, none for an unresolved one. For parsed isnads:
- probable, 'parsed_isnad_unique_name': the mention's name key belongs to exactly one narrator;
  confidence = the share of such resolutions, on the hadith that have both an LK isnad and a
  dataset chain, whose narrator is in that hadith's dataset chain.
- ambiguous, 'parsed_isnad_several_names': several narrators bear the name; no narrator, no
  confidence.
- unresolved, 'parsed_isnad_no_name': no narrator bears the name (or the mention is a kinship
  pronoun such as «أبيه»); no confidence.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ingest import ids, lk_crosswalk
from ingest.context import ImportContext, Row
from ingest.dataset_chains import MAX_POSITION, HadithIndex, add_dataset_chains
from ingest.isnad_parser import Mention, is_kinship_pronoun, name_key, parse_isnad

LK_DIR = "hadith/lk_hadith_corpus/"
LK_BOOKS = ("Bukhari", "Muslim", "AbuDaud", "Tirmizi", "Nesai", "IbnMaja")
LK_SOURCE = "lk-corpus"

LkKey = tuple[str, str, int]


@dataclass(frozen=True)
class LkIsnad:
    source_key: str
    text: str


class NameIndex:
    """Narrator ids by the name key of their Arabic name variants."""

    def __init__(self, variants: Iterable[Row]) -> None:
        self._ids: defaultdict[str, set[int]] = defaultdict(set)
        for variant in variants:
            if variant["script"] == "ar":
                self._ids[name_key(variant["form_normalized"])].add(variant["narrator_id"])

    def candidates(self, mention: str) -> frozenset[int]:
        if is_kinship_pronoun(mention):
            return frozenset()
        return frozenset(self._ids.get(name_key(mention), ()))


def build(ctx: ImportContext) -> None:
    read_chains(ctx)


def read_chains(ctx: ImportContext) -> Counter[str]:
    """Add the chain and chain_node rows and set the narrators' node counts; returns what was left out."""
    tally: Counter[str] = Counter()
    hadith_index = _hadith_index(ctx)
    chained = add_dataset_chains(ctx, hadith_index, tally)
    names = NameIndex(ctx.tables["narrator_name_variant"])
    isnads = _lk_isnads(ctx, hadith_index, tally)
    confidence = _unique_name_agreement(names, isnads, chained)
    unchained = {hadith: isnad for hadith, isnad in isnads.items() if hadith not in chained}
    _add_parsed_chains(ctx, unchained, names, confidence, tally)
    _count_nodes(ctx)
    return tally


def _hadith_index(ctx: ImportContext) -> HadithIndex:
    """(collection id, 'kitab number/index in kitab') -> hadith id, in the chapterId form the dataset files use.

    A hadith's in-book reference names its kitab by sunnah.com's key ('introduction', '35b'); the
    dataset files name it by number ('0', '35.2'), which is the book's number.
    """
    book_number = {row["book_id"]: row["number"] for row in ctx.tables["book"]}
    return {
        (row["collection_id"], f"{book_number[row['book_id']]}/{row['in_book_reference'].rsplit('/', 1)[1]}"): row[
            "hadith_id"
        ]
        for row in ctx.tables["hadith"]
        if row.get("in_book_reference") and row.get("book_id") in book_number
    }


def _node_row(chain_id: int, position: int, mention: str | None, term: str | None) -> Row:
    """A node with no narrator and no confidence yet; the caller states the resolution."""
    return {
        "node_id": ids.node_id(chain_id, position),
        "chain_id": chain_id,
        "position": position,
        "narrator_id": None,
        "mention_ar": mention,
        "transmission_term_ar": term,
        "confidence": None,
    }


# parsed isnads -----------------------------------------------------------------------------------


def _keyed(
    rows: Iterable[tuple[int, dict[str, str]]], file_field: str, number_field: str
) -> Iterator[tuple[LkKey, int, dict[str, str]]]:
    """Each LK row with its key: file, number, and rank among equal numbers (a few repeat in a file)."""
    seen: Counter[tuple[str, str]] = Counter()
    for line, row in rows:
        file_number = (row[file_field], row[number_field].removesuffix(".0"))
        seen[file_number] += 1
        yield (*file_number, seen[file_number]), line, row


def _crosswalk(ctx: ImportContext, hadith_index: HadithIndex) -> dict[LkKey, int]:
    """LK key -> hadith id, for each hadith's LK row (ingest.lk_crosswalk.links)."""
    matches = {}
    for collection, links in lk_crosswalk.links(ctx).items():
        for (kitab, index), link in links.items():
            hadith = hadith_index.get((ids.COLLECTIONS[collection], f"{kitab}/{index}"))
            if hadith is not None:
                matches[link.lk_row] = hadith
    return matches


def _lk_isnads(ctx: ImportContext, hadith_index: HadithIndex, tally: Counter[str]) -> dict[int, LkIsnad]:
    """The isnad of each hadith's LK row."""
    crosswalk = _crosswalk(ctx, hadith_index)
    isnads: dict[int, LkIsnad] = {}
    for book in LK_BOOKS:
        path = f"{LK_DIR}{book}.csv.gz"
        rows = ctx.csv(path, "isnads of hadith without a dataset chain", LK_SOURCE)
        for key, _, row in _keyed(rows, "source_file", "Hadith_number"):
            if key not in crosswalk:
                tally["LK rows that are no hadith's LK row"] += 1
                continue
            isnads[crosswalk[key]] = LkIsnad(f"{book}.csv#{key[0]}:{key[1]}", row["Arabic_Isnad"])
    return isnads


def _unique_name_agreement(names: NameIndex, isnads: dict[int, LkIsnad], chained: dict[int, set[int]]) -> float | None:
    """Share of unique-name resolutions that name a narrator of the hadith's dataset chain.

    Measured on the hadith that have both an LK isnad and a dataset chain; None when there is none.
    """
    resolved = agreed = 0
    for hadith, isnad in isnads.items():
        if hadith not in chained:
            continue
        for mention in parse_isnad(isnad.text):
            candidates = names.candidates(mention.text)
            if len(candidates) == 1:
                resolved += 1
                agreed += not candidates.isdisjoint(chained[hadith])
    return round(agreed / resolved, 3) if resolved else None


def _add_parsed_chains(
    ctx: ImportContext,
    isnads: dict[int, LkIsnad],
    names: NameIndex,
    confidence: float | None,
    tally: Counter[str],
) -> None:
    for hadith, isnad in sorted(isnads.items()):
        mentions = parse_isnad(isnad.text)
        if not mentions:
            tally["parsed isnads with no mention"] += 1
        elif len(mentions) > MAX_POSITION:
            tally[f"parsed isnads over {MAX_POSITION} mentions"] += 1
        else:
            resolved = [(m, _parsed_resolution(names.candidates(m.text), confidence)) for m in mentions]
            _add_parsed_chain(ctx, hadith, isnad, resolved)


def _add_parsed_chain(ctx: ImportContext, hadith: int, isnad: LkIsnad, resolved: list[tuple[Mention, Row]]) -> None:
    chain_id = ids.parsed_chain_id(hadith)
    ctx.add(
        "chain",
        {
            "chain_id": chain_id,
            "hadith_id": hadith,
            "chain_number": 1,
            "origin": "parsed_isnad",
            "alignment_score": None,
            "source_id": LK_SOURCE,
            "source_key": isnad.source_key,
        },
    )
    for position, (mention, resolution) in enumerate(resolved, start=1):
        row = _node_row(chain_id, position, mention.text, mention.term)
        row["source_key"] = f"{isnad.source_key}&position={position}"
        row.update(resolution)
        ctx.add("chain_node", row)


def _parsed_resolution(candidates: frozenset[int], confidence: float | None) -> Row:
    if len(candidates) == 1:
        return {
            "narrator_id": next(iter(candidates)),
            "resolution_status": "probable",
            "method": "parsed_isnad_unique_name",
            "confidence": confidence,
        }
    if candidates:
        return {"resolution_status": "ambiguous", "method": "parsed_isnad_several_names"}
    return {"resolution_status": "unresolved", "method": "parsed_isnad_no_name"}


# counts ------------------------------------------------------------------------------------------


def _count_nodes(ctx: ImportContext) -> None:
    counts = Counter(row["narrator_id"] for row in ctx.tables["chain_node"] if row["narrator_id"] is not None)
    for row in ctx.tables["narrator"]:
        row["chain_node_count"] = counts[row["narrator_id"]]
