"""The alignment of the muslimscholars chains to the hadith-json hadith, computed from the upstream copies, by
the rule the data README gives for the staged `kaggle_chains_aligned.csv.gz`.

Each chain of `all_hadiths_chain.json` (in the order of the original CSV rows: `hadith_id` and `chain_indx`,
the scholar ids from the compiler's teacher up) belongs to the collection of its `hadith_id`'s block of 10,000
(a row whose id falls in an earlier block, a placeholder such as 1 or 45, stays in the block of the row
before it). Its hadith is looked for among the hadith-json hadith of that collection within WINDOW places
(seq_in_collection) of a predicted place: for a trusted id, the id less its block plus the offset (place
less id) of the last chain aligned with a trusted id; for an id outside the block or one that goes back more
than WINDOW from the last trusted one (a placeholder: 1, 24, 45), the place after the chain before it. Each
candidate's Arabic is read as the importer reads a placed chain
(ingest.isnad_reading, ingest.chain_reading, with the narrators' Arabic names of the narrator table): the
score is the share of the chain's named narrators that the text bears out in the chain's order. The chain
goes to the candidate nearest to the predicted place whose score is MIN_SCORE or more (of two as near, the
higher score, then the first): 'aligned'; where none reaches it, the chain is 'unaligned' (its score the
best one read, 0 where no candidate's mentions could reach MIN_SCORE).

The importer reads this alignment, computed once per import (`alignment`): the dataset's chains
(ingest.dataset_chains) and the evidence of the rijal links (ingest.rijal_links). The staged file is not read: it
is the oracle that tests/ingest/test_chain_alignment_derivation.py compares this alignment with (docs/data.md
gives the agreement; eval/chain_alignment_sample.csv the hand-checked disagreements)."""

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from app.text.arabic import normalize
from ingest.chain_reading import read_chain
from ingest.context import ImportContext
from ingest.errors import MissingInput
from ingest.hadith_sources import HADITH_JSON, number_key
from ingest.isnad_parser import is_kinship_pronoun
from ingest.isnad_reading import Link, read_links
from ingest.narrator_names import FUZZY_FROM, NameForms, mention_units, name_units
from ingest.narrator_table import narrator_sources
from ingest.narrators import clean_name_ar

CHAINS_FILE = "narrators/kaggle_muslimscholars/all_hadiths_chain.json.gz"
SOURCE = "muslimscholars-aligned"  # the upstream chains as the project aligns them (ingest/sources.py)
CHAINS_PURPOSE = "chains of narrator ids, to align to hadith"
COLLECTIONS = ("bukhari", "muslim", "abudawud", "tirmidhi", "nasai", "ibnmajah")  # in the order of the id blocks
BLOCK = 10_000
WINDOW = 80
MIN_SCORE = 0.75
ALIGNED = "aligned"
UNALIGNED = "unaligned"
PURPOSE = "hadith texts, to align the chains to"


@dataclass(frozen=True)
class UpstreamChain:
    row: int  # the chain's row in the upstream file (kaggle_row)
    hadith_id: int
    scholars: tuple[int, ...]


@dataclass(frozen=True)
class Alignment:
    """A chain and where it was placed: the hadith-json key (kitab, index in kitab) of its hadith, or None."""

    row: int
    collection: str
    scholars: tuple[int, ...]
    status: str
    key: tuple[str, str] | None
    score: float


@dataclass(frozen=True)
class _Text:
    """A hadith-json hadith as the alignment reads it: its key, its links, the keys of its mentions' first
    units, and how many of its mentions are relations («أبيه»)."""

    seq: int
    key: tuple[str, str]
    links: list[Link]
    unit_keys: frozenset[str]
    relations: int


class _RememberedForms(NameForms):
    """The narrators' name forms, remembering each answer: the alignment reads the same mentions against the
    same narrators in many candidate texts."""

    def __init__(self, names: Iterable[tuple[int, str]]) -> None:
        super().__init__(names, [])
        self._names: dict[tuple[str, int], bool] = {}
        self._relations: dict[tuple[str, int, int], bool] = {}

    def names(self, mention: str, narrator: int) -> bool:
        key = (mention, narrator)
        if key not in self._names:
            self._names[key] = super().names(mention, narrator)
        return self._names[key]

    def relation_holds(self, mention: str, previous: int, narrator: int) -> bool:
        key = (mention, previous, narrator)
        if key not in self._relations:
            self._relations[key] = super().relation_holds(mention, previous, narrator)
        return self._relations[key]


@dataclass(frozen=True)
class _Names:
    forms: NameForms
    unit_keys: dict[int, frozenset[str]]  # the keys of each named narrator's units
    words: dict[str, int]  # normalized word -> how many narrators' names hold it


def unit_keys(unit: str) -> set[str]:
    """The unit and, from FUZZY_FROM letters, each form with one letter dropped: two units one letter apart (as
    ingest.narrator_names lets them agree) always share one of these."""
    keys = {unit}
    if len(unit) >= FUZZY_FROM:
        keys.update(unit[:i] + unit[i + 1 :] for i in range(len(unit)))
    return keys


def upstream_chains(ctx: ImportContext, purpose: str = CHAINS_PURPOSE) -> list[UpstreamChain]:
    found = ctx.json(CHAINS_FILE, purpose, "muslimscholars")
    try:
        return [
            UpstreamChain(row, int(item["hadith_id"]), tuple(int(s) for s in item["chain_indx"]))
            for row, item in enumerate(found["info"])
        ]
    except (KeyError, TypeError, ValueError) as exc:
        raise MissingInput(CHAINS_FILE, purpose, f"is not a list of hadith ids and chains ({exc})") from exc


def _names(ctx: ImportContext, chains: list[UpstreamChain]) -> _Names:
    """The words of every narrator's name (where the reading of a text cuts its mentions); the name forms and unit
    keys only of the narrators the chains name: a reading asks of no other (NameForms.names and relation_holds
    read only the narrators given), so the others' forms would be built for nothing."""
    names = {s.scholar_indx: name for s in narrator_sources(ctx) if (name := clean_name_ar(s.name_ar))}
    words: Counter[str] = Counter()
    for name in names.values():
        words.update(set(normalize(name).split()))
    named = {scholar for chain in chains for scholar in chain.scholars}
    theirs = {n: name for n, name in names.items() if n in named}
    keys = {n: frozenset(k for unit in name_units(name) for k in unit_keys(unit)) for n, name in theirs.items()}
    return _Names(_RememberedForms(theirs.items()), keys, dict(words))


def _texts(ctx: ImportContext, collection: str, words: dict[str, int]) -> dict[int, _Text]:
    """The collection's hadith by seq_in_collection (a record without Arabic has no links)."""
    texts = {}
    for _, obj in ctx.jsonl(HADITH_JSON.format(collection), PURPOSE, "hadith-json"):
        links = read_links(obj.get("arabic") or "", words)
        firsts = [units[0] for link in links if (units := mention_units(link.mention))]
        relations = sum(is_kinship_pronoun(link.mention) for link in links)
        key = (number_key(obj["chapterId"]) or "", str(obj["idInBook"]))
        seq = int(obj["seq_in_collection"])
        texts[seq] = _Text(seq, key, links, frozenset(k for unit in firsts for k in unit_keys(unit)), relations)
    return texts


def collection_blocks(chains: Iterable[UpstreamChain]) -> Iterator[tuple[UpstreamChain, int]]:
    """Each chain with the index of its collection: its id's block, never one before the previous row's."""
    block = 0
    for chain in chains:
        own = chain.hadith_id // BLOCK
        block = max(block, own) if own < len(COLLECTIONS) else block
        yield chain, block


class _Aligner:
    """Aligns the chains of one collection in order, keeping where the last one was placed."""

    def __init__(self, collection: str, texts: dict[int, _Text], names: _Names) -> None:
        self.collection, self.texts, self.names = collection, texts, names
        self.place = 0  # the id, less its block, of the last chain whose id was trusted
        self.last = 0  # the place (seq_in_collection) of the last chain aligned, or predicted
        self.offset = 0  # place less id, of the last chain aligned with a trusted id

    def _predicted(self, chain: UpstreamChain, block: int) -> int | None:
        """The predicted place of a chain whose id is trusted (None for another: it follows the last one)."""
        own = chain.hadith_id - block * BLOCK
        if chain.hadith_id // BLOCK != block or own < self.place - WINDOW:
            return None
        self.place = own
        return own + self.offset

    def align(self, chain: UpstreamChain, block: int) -> Alignment:
        predicted = self._predicted(chain, block)
        place = self.last + 1 if predicted is None else predicted
        narrators = [s if s in self.names.unit_keys else None for s in chain.scholars]
        named = sum(n is not None for n in narrators)
        borne, text = self._nearest(narrators, named, place) if named else (0, None)
        score = round(borne / named, 3) if named else 0.0
        if text is None:
            self.last = place
            return Alignment(chain.row, self.collection, chain.scholars, UNALIGNED, None, score)
        self.last = text.seq
        if predicted is not None:
            self.offset = self.last - self.place
        return Alignment(chain.row, self.collection, chain.scholars, ALIGNED, text.key, score)

    def _may_reach(self, narrators: list[int | None], named: int, text: _Text) -> bool:
        """Whether the text could bear out MIN_SCORE of the narrators: one whose units none of its mentions opens
        with (a letter apart allowed) is not borne out but by a relation («أبيه»)."""
        keys = self.names.unit_keys
        hits = sum(1 for n in narrators if n is not None and not keys[n].isdisjoint(text.unit_keys))
        return min(named, hits + text.relations) >= MIN_SCORE * named

    def _borne(self, narrators: list[int | None], text: _Text) -> int:
        """How many of the narrators the text bears out, in the chain's order."""
        return sum(reading.placed for reading in read_chain(narrators, text.links, self.names.forms))

    def _nearest(self, narrators: list[int | None], named: int, predicted: int) -> tuple[int, _Text | None]:
        """(how many narrators it bears out, the text) of the text nearest to the predicted place that bears out
        MIN_SCORE of them, the more borne out of two as near, the earlier of two as good; else (the most any text
        read bears out, None)."""
        most = 0
        for distance in range(WINDOW + 1):
            near = [
                self.texts[seq] for seq in sorted({predicted - distance, predicted + distance}) if seq in self.texts
            ]
            read = [
                (self._borne(narrators, text), -text.seq, text)
                for text in near
                if self._may_reach(narrators, named, text)
            ]
            most = max([most, *(borne for borne, _, _ in read)])
            kept = [found for found in read if found[0] >= MIN_SCORE * named]
            if kept:
                borne, _, text = max(kept, key=lambda found: found[:2])
                return borne, text
        return most, None


def computed_alignment(ctx: ImportContext) -> list[Alignment]:
    """Every chain of the upstream file, in its order, with where it was placed."""
    chains = upstream_chains(ctx)
    names = _names(ctx, chains)
    aligners: dict[int, _Aligner] = {}
    alignments = []
    for chain, block in collection_blocks(chains):
        if block not in aligners:
            collection = COLLECTIONS[block]
            aligners[block] = _Aligner(collection, _texts(ctx, collection, names.words), names)
        alignments.append(aligners[block].align(chain, block))
    return alignments


def alignment(ctx: ImportContext) -> list[Alignment]:
    """The computed alignment of this import's chains, computed at its first call and shared by the steps that
    read it."""
    return ctx.once(computed_alignment)


def source_key(row: int) -> str:
    """The provenance key of the chain in row `row` of the upstream file."""
    return f"all_hadiths_chain.json#kaggle_row={row}"
