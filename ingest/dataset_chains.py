"""The dataset's chains (origin 'dataset'), each read against its hadith's written isnad.

The muslimscholars chains give ordered scholar ids (`chain_indx`, from the compiler's teacher up); the
project aligns them to hadith-json hadith (ingest.chain_alignment). Only the aligned chains are placed on a
hadith; the others are counted, not imported. Each placed chain is read against the Arabic of its hadith
(ingest.chain_reading): the mention and the transmission term of a node are the text's own span, and its
status says whether the text names him. Each chain's failed integrity checks (ingest.chain_checks) are
written to chain_check.
"""

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from ingest import ids
from ingest.chain_alignment import ALIGNED, SOURCE, Alignment, alignment, source_key
from ingest.chain_checks import ChainText, Life, failed_checks
from ingest.chain_reading import NodeReading, read_chain
from ingest.context import ImportContext, Row
from ingest.homonyms import StudentLists, weigh_homonyms
from ingest.isnad_reading import Link, read_links
from ingest.narrator_names import NameForms

MAX_POSITION = 99  # node ids leave two digits to the position
ATTESTED = "attested"  # the student lists' relations; AR-Sanad's, bridged by name, are only probable
NAME_WORD_KINDS = frozenset({"dataset_name", "isnad_form"})  # the clean name forms: no notice text

HadithIndex = dict[tuple[int, str], int]


@dataclass(frozen=True)
class DatasetChain:
    kaggle_row: int
    hadith_id: int
    score: float
    scholars: list[int]


@dataclass(frozen=True)
class Reader:
    """What reading a chain against its text needs: the texts, the names (every form; the clean forms alone,
    whose words say who else a mention names), the narrators' lives, the student lists."""

    texts: Mapping[int, str]
    forms: NameForms
    clean_forms: NameForms
    name_words: Mapping[str, int]
    lives: Mapping[int, Life]
    lists: StudentLists


def add_dataset_chains(ctx: ImportContext, hadith_index: HadithIndex, tally: Counter[str]) -> dict[int, set[int]]:
    """Add the aligned dataset chains; returns the narrator ids of each hadith's chains."""
    chains = sorted(_chain_records(ctx, hadith_index, tally), key=lambda chain: (chain.hadith_id, chain.kaggle_row))
    reader = _reader(ctx)
    numbers: Counter[int] = Counter()
    narrators: dict[int, set[int]] = {}
    for chain in chains:
        numbers[chain.hadith_id] += 1
        _add_chain(ctx, chain, numbers[chain.hadith_id], reader)
        narrators.setdefault(chain.hadith_id, set()).update(chain.scholars)
    return narrators


def _reader(ctx: ImportContext) -> Reader:
    narrators = ctx.tables["narrator"]
    variants = [v for v in ctx.tables["narrator_name_variant"] if v["script"] == "ar"]
    names = [(row["narrator_id"], row["name_ar"]) for row in narrators if row.get("name_ar")]
    forms = NameForms(names, [(v["narrator_id"], v["form"]) for v in variants])
    clean = NameForms(names, [(v["narrator_id"], v["form"]) for v in variants if v["kind"] in NAME_WORD_KINDS])
    words: Counter[str] = Counter()
    for variant in variants:
        if variant["kind"] in NAME_WORD_KINDS:
            words.update(set(variant["form_normalized"].split()))
    lives = {
        row["narrator_id"]: Life(row.get("generation"), row.get("birth_year_hijri"), row.get("death_year_hijri"))
        for row in narrators
    }
    texts = {row["hadith_id"]: row["text_ar"] for row in ctx.tables["hadith"] if row.get("text_ar")}
    relations = ctx.tables["transmission_relation"]
    lists = StudentLists.of((r["teacher_id"], r["student_id"]) for r in relations if r["status"] == ATTESTED)
    return Reader(texts, forms, clean, words, lives, lists)


def _chain_records(ctx: ImportContext, hadith_index: HadithIndex, tally: Counter[str]) -> list[DatasetChain]:
    chains = []
    for chain in alignment(ctx):
        if chain.status != ALIGNED:
            tally[f"dataset chains not placed ({chain.status})"] += 1
        elif (found := _chain_record(chain, hadith_index)) is None:
            tally["dataset chains aligned to a hadith not imported"] += 1
        elif not 0 < len(found.scholars) <= MAX_POSITION:
            tally[f"dataset chains of more than {MAX_POSITION} narrators"] += 1
        else:
            chains.append(found)
    return chains


def _chain_record(chain: Alignment, hadith_index: HadithIndex) -> DatasetChain | None:
    kitab, index = chain.key or ("", "")
    hadith = hadith_index.get((ids.COLLECTIONS[chain.collection], f"{kitab}/{index}"))
    return None if hadith is None else DatasetChain(chain.row, hadith, chain.score, list(chain.scholars))


def _add_chain(ctx: ImportContext, chain: DatasetChain, number: int, reader: Reader) -> None:
    chain_id = ids.dataset_chain_id(chain.kaggle_row)
    ctx.add(
        "chain",
        {
            "chain_id": chain_id,
            "hadith_id": chain.hadith_id,
            "chain_number": number,
            "origin": "dataset",
            "alignment_score": chain.score,
            "source_id": SOURCE,
            "source_key": source_key(chain.kaggle_row),
        },
    )
    text = reader.texts.get(chain.hadith_id, "")
    links = read_links(text, reader.name_words)
    narrators = [scholar if scholar in reader.lives else None for scholar in chain.scholars]
    read = read_chain(narrators, links, reader.forms)
    readings = weigh_homonyms(narrators, read, links, reader.clean_forms, reader.lists)
    confirmed_share = sum(reading.status == "confirmed" for reading in readings) / len(readings)
    for position, (scholar, reading) in enumerate(zip(chain.scholars, readings, strict=True), start=1):
        row = _node(chain_id, position, reading, links, scholar)
        row["source_key"] = f"{source_key(chain.kaggle_row)}&position={position}&scholar_indx={scholar}"
        row["confidence"] = _confidence(reading, chain.score, confirmed_share)
        ctx.add("chain_node", row)
    checks = failed_checks(ChainText(narrators, readings, links, text), reader.forms, reader.lives)
    for rank, check in enumerate(checks, start=1):
        ctx.add("chain_check", {"chain_id": chain_id, "check_number": rank, "code": check.code, "reason": check.reason})


def _node(chain_id: int, position: int, reading: NodeReading, links: list[Link], scholar: int) -> Row:
    link = links[reading.link] if reading.link is not None else None
    return {
        "node_id": ids.node_id(chain_id, position),
        "chain_id": chain_id,
        "position": position,
        "narrator_id": scholar if reading.narrator_shown else None,
        "mention_ar": link.mention if link else None,
        "transmission_term_ar": link.term if link else None,
        "resolution_status": reading.status,
        "method": reading.method,
    }


def _confidence(reading: NodeReading, score: float, confirmed_share: float) -> float | None:
    if reading.status == "confirmed":
        return score
    if reading.status == "probable":
        return round(score * confirmed_share, 3)
    return None
