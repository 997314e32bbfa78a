"""Chains of transmission and their nodes (tables chain and chain_node), and narrator.chain_node_count.

Two origins, never mixed on one hadith:

- 'dataset': the muslimscholars chains (ordered scholar ids) that the data scout aligned to a
  hadith-json hadith (status 'aligned' only; chains aligned out of order or not at all cannot be
  placed on a hadith and are counted, not imported), with the mention and the transmission term
  located in the hadith's Arabic text for each node.
- 'parsed_isnad': for a hadith of the six books that has no dataset chain, the isnad of its LK
  corpus row (joined through the LK -> hadith-json crosswalk, Arabic token containment >= 0.7),
  cut into mentions by ingest.isnad_parser and resolved by exact name against the Arabic name
  variants.

Node status (resolution_status, method, confidence):

- confirmed, 'dataset_id+located_mention': the dataset id and a mention located in the text
  agree; confidence = the chain's alignment score.
- probable, 'dataset_id_only': the dataset gives the id but the text does not show the name
  (often «عن أبيه»); confidence = the chain's alignment score x the share of its nodes located.
- unresolved, 'dataset_id_not_in_index': the dataset id is not in the narrator index; the
  source_key keeps it; no confidence.
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
from typing import Any

from ingest import ids
from ingest.context import ImportContext, Row
from ingest.isnad_parser import Mention, is_kinship_pronoun, name_key, parse_isnad, trim_mention

KAGGLE_DIR = "narrators/kaggle_muslimscholars/"
CHAINS_FILE = KAGGLE_DIR + "kaggle_chains_aligned.csv.gz"
NODES_FILE = KAGGLE_DIR + "chain_nodes_derived.jsonl.gz"
CROSSWALK_FILE = "hadith/crosswalks/lk_to_hadith_json.csv.gz"
LK_DIR = "hadith/lk_hadith_corpus/"
LK_BOOKS = ("Bukhari", "Muslim", "AbuDaud", "Tirmizi", "Nesai", "IbnMaja")
DATASET_SOURCE = "muslimscholars-derived"
LK_SOURCE = "lk-corpus"
MIN_CONTAINMENT = 0.7
MAX_POSITION = 99  # node ids leave two digits to the position
ALIGNED = "aligned"
LOCATED = "resolved_by_dataset_id"
NOT_LOCATED = "id_only_not_found_in_text"

HadithIndex = dict[tuple[int, str], int]
LkKey = tuple[str, str, int]


@dataclass(frozen=True)
class DatasetNode:
    position: int
    scholar: int
    mention: str | None
    term: str | None
    located: bool


@dataclass(frozen=True)
class DatasetChain:
    kaggle_row: int
    hadith_id: int
    score: float
    nodes: list[DatasetNode]


@dataclass(frozen=True)
class LkIsnad:
    source_key: str
    text: str
    containment: float


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
    known = {row["narrator_id"] for row in ctx.tables["narrator"]}
    chained = _add_dataset_chains(ctx, hadith_index, known, tally)
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


# dataset chains ----------------------------------------------------------------------------------


def _add_dataset_chains(
    ctx: ImportContext, hadith_index: HadithIndex, known: set[int], tally: Counter[str]
) -> dict[int, set[int]]:
    """Add the aligned dataset chains; returns the narrator ids of each hadith's chains."""
    chains = _dataset_chain_records(ctx, hadith_index, tally)
    chains.sort(key=lambda chain: (chain.hadith_id, chain.kaggle_row))
    numbers: Counter[int] = Counter()
    narrators: defaultdict[int, set[int]] = defaultdict(set)
    for chain in chains:
        numbers[chain.hadith_id] += 1
        _add_dataset_chain(ctx, chain, numbers[chain.hadith_id], known)
        narrators[chain.hadith_id].update(node.scholar for node in chain.nodes)
    return narrators


def _dataset_chain_records(ctx: ImportContext, hadith_index: HadithIndex, tally: Counter[str]) -> list[DatasetChain]:
    nodes = _dataset_nodes(ctx)
    chains = []
    for line, row in ctx.csv(CHAINS_FILE, "chains aligned to hadith", DATASET_SOURCE, derived=True):
        if row["status"] != ALIGNED:
            tally[f"dataset chains not placed ({row['status']})"] += 1
            continue
        try:
            chains.append(_dataset_chain(row, hadith_index, nodes))
        except (KeyError, ValueError) as exc:
            ctx.skip(CHAINS_FILE, line, f"aligned chain not placed: {exc}")
    return chains


def _dataset_chain(row: dict[str, str], hadith_index: HadithIndex, nodes: dict[int, list[DatasetNode]]) -> DatasetChain:
    kaggle_row = int(row["kaggle_row"])
    reference = f"{row['hj_kitab_chapterId']}/{row['hj_idInBook']}"
    hadith = hadith_index.get((ids.COLLECTIONS[row["collection"]], reference))
    if hadith is None:
        raise KeyError(f"no hadith {row['collection']} {reference}")
    if not nodes.get(kaggle_row):
        raise KeyError(f"no nodes for kaggle_row {kaggle_row}")
    return DatasetChain(kaggle_row, hadith, float(row["name_overlap_score"]), nodes[kaggle_row])


def _dataset_nodes(ctx: ImportContext) -> dict[int, list[DatasetNode]]:
    nodes = {}
    purpose = "chain nodes: located mention and transmission term"
    for line, record in ctx.jsonl(NODES_FILE, purpose, DATASET_SOURCE, derived=True):
        try:
            nodes[int(record["kaggle_row"])] = _dataset_node_list(record["nodes"])
        except (KeyError, TypeError, ValueError) as exc:
            ctx.skip(NODES_FILE, line, f"malformed node list: {exc!r}")
    return nodes


def _dataset_node_list(records: list[dict[str, Any]]) -> list[DatasetNode]:
    nodes = [_dataset_node(record) for record in records]
    if [node.position for node in nodes] != list(range(1, len(nodes) + 1)) or len(nodes) > MAX_POSITION:
        raise ValueError(f"positions are not 1 to {min(len(nodes), MAX_POSITION)}")
    return nodes


def _dataset_node(node: dict[str, Any]) -> DatasetNode:
    position = int(node["position"])
    if node["status"] not in (LOCATED, NOT_LOCATED):
        raise ValueError(f"unknown node status {node['status']!r}")
    mention = trim_mention(node.get("mention_ar") or "") or None
    located = node["status"] == LOCATED
    return DatasetNode(position, int(node["scholar_indx"]), mention, node.get("term_ar"), located)


def _add_dataset_chain(ctx: ImportContext, chain: DatasetChain, number: int, known: set[int]) -> None:
    chain_id = ids.dataset_chain_id(chain.kaggle_row)
    ctx.add(
        "chain",
        {
            "chain_id": chain_id,
            "hadith_id": chain.hadith_id,
            "chain_number": number,
            "origin": "dataset",
            "alignment_score": chain.score,
            "source_id": DATASET_SOURCE,
            "source_key": f"kaggle_chains_aligned.csv#kaggle_row={chain.kaggle_row}",
        },
    )
    located_share = sum(node.located for node in chain.nodes) / len(chain.nodes)
    for node in chain.nodes:
        row = _node_row(chain_id, node.position, node.mention, node.term)
        row["source_key"] = (
            f"chain_nodes_derived.jsonl#kaggle_row={chain.kaggle_row}"
            f"&position={node.position}&scholar_indx={node.scholar}"
        )
        if node.scholar in known:
            row.update(_dataset_resolution(node, chain.score, located_share))
        else:
            row.update(resolution_status="unresolved", method="dataset_id_not_in_index")
        ctx.add("chain_node", row)


def _dataset_resolution(node: DatasetNode, score: float, located_share: float) -> Row:
    if node.located:
        status, method, confidence = "confirmed", "dataset_id+located_mention", score
    else:
        status, method, confidence = "probable", "dataset_id_only", round(score * located_share, 3)
    return {"narrator_id": node.scholar, "resolution_status": status, "method": method, "confidence": confidence}


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


def _crosswalk(ctx: ImportContext, hadith_index: HadithIndex) -> dict[LkKey, tuple[int, float]]:
    """LK key -> (hadith id, containment), for the rows matched at MIN_CONTAINMENT or more."""
    matches = {}
    rows = ctx.csv(CROSSWALK_FILE, "LK rows to hadith-json", "crosswalks", derived=True)
    for key, line, row in _keyed(rows, "lk_source_file", "lk_hadith_number"):
        try:
            containment = float(row["arabic_token_containment"])
            collection = ids.COLLECTIONS[row["collection"]]
        except (KeyError, ValueError) as exc:
            ctx.skip(CROSSWALK_FILE, line, f"unreadable match: {exc!r}")
            continue
        hadith = hadith_index.get((collection, f"{row['hj_kitab_chapterId']}/{row['hj_idInBook']}"))
        if hadith is not None and containment >= MIN_CONTAINMENT:
            matches[key] = (hadith, containment)
    return matches


def _lk_isnads(ctx: ImportContext, hadith_index: HadithIndex, tally: Counter[str]) -> dict[int, LkIsnad]:
    """The best-matching LK isnad of each hadith (highest containment, first in file on a tie)."""
    crosswalk = _crosswalk(ctx, hadith_index)
    isnads: dict[int, LkIsnad] = {}
    for book in LK_BOOKS:
        path = f"{LK_DIR}{book}.csv.gz"
        rows = ctx.csv(path, "isnads of hadith without a dataset chain", LK_SOURCE)
        for key, _, row in _keyed(rows, "source_file", "Hadith_number"):
            if key not in crosswalk:
                tally["LK rows not matched to a hadith"] += 1
                continue
            hadith, containment = crosswalk[key]
            isnad = LkIsnad(f"{book}.csv#{key[0]}:{key[1]}", row["Arabic_Isnad"], containment)
            if hadith not in isnads or containment > isnads[hadith].containment:
                isnads[hadith] = isnad
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
