"""One DataLoader per lookup, built fresh for every request (a loader's cache never outlives it)."""

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from strawberry.dataloader import DataLoader

from app.data import hadith, narrators
from app.data.records import (
    AssertionRecord,
    ChainRecord,
    HadithRecord,
    LegacyFieldRecord,
    NarratorRecord,
    NodeRecord,
    NoticeLinkRecord,
    ObservationRecord,
    OccurrenceCounts,
    OccurrenceRecord,
    Page,
    PassageRecord,
    RelationRecord,
    VariantRecord,
)
from app.database import RequestDatabase

Bounded = tuple[int, int]
Paged = tuple[int, int, int]


@dataclass(frozen=True)
class Loaders:
    hadith_by_id: DataLoader[int, HadithRecord | None]
    chains_by_hadith_id: DataLoader[Bounded, Page[ChainRecord]]
    nodes_by_chain_id: DataLoader[int, list[NodeRecord]]
    passages_by_hadith_id: DataLoader[Bounded, Page[PassageRecord]]
    narrator_by_id: DataLoader[int, NarratorRecord | None]
    variants_by_narrator_id: DataLoader[Bounded, Page[VariantRecord]]
    legacy_fields_by_narrator_id: DataLoader[int, list[LegacyFieldRecord]]
    notice_links_by_narrator_id: DataLoader[Bounded, Page[NoticeLinkRecord]]
    assertions_by_narrator_id: DataLoader[int, list[AssertionRecord]]
    occurrences_by_narrator_id: DataLoader[Paged, Page[OccurrenceRecord]]
    occurrence_counts_by_narrator_id: DataLoader[int, OccurrenceCounts]
    hadith_ids_by_narrator_id: DataLoader[Bounded, Page[int]]
    relations_by_pair: DataLoader[Paged, Page[RelationRecord]]
    observations_by_pair: DataLoader[Paged, Page[ObservationRecord]]


Lookup = Callable[[RequestDatabase, Sequence[Any]], Awaitable[Sequence[Any]]]
LOOKUPS: dict[str, Lookup] = {
    "hadith_by_id": hadith.hadith_by_id,
    "chains_by_hadith_id": hadith.chains_by_hadith_id,
    "nodes_by_chain_id": hadith.nodes_by_chain_id,
    "passages_by_hadith_id": hadith.passages_by_hadith_id,
    "narrator_by_id": narrators.narrator_by_id,
    "variants_by_narrator_id": narrators.variants_by_narrator_id,
    "legacy_fields_by_narrator_id": narrators.legacy_fields_by_narrator_id,
    "notice_links_by_narrator_id": narrators.notice_links_by_narrator_id,
    "assertions_by_narrator_id": narrators.assertions_by_narrator_id,
    "occurrences_by_narrator_id": narrators.occurrences_by_narrator_id,
    "occurrence_counts_by_narrator_id": narrators.occurrence_counts_by_narrator_id,
    "hadith_ids_by_narrator_id": narrators.hadith_ids_by_narrator_id,
    "relations_by_pair": narrators.relations_by_pair,
    "observations_by_pair": narrators.observations_by_pair,
}


def create_loaders(db: RequestDatabase) -> Loaders:
    async def batch(lookup: Lookup, keys: list[Any]) -> Sequence[Any]:
        return await lookup(db, keys)

    return Loaders(**{name: DataLoader(load_fn=partial(batch, lookup)) for name, lookup in LOOKUPS.items()})
