"""The name keys' trigrams, held in memory: which keys of a script the narrator search's trigram branch may keep,
found without reading the trigram index.

The branch keeps the forms whose key holds the query (`query <% key`: pg_trgm's word similarity at least
NAME_WORD_SIMILARITY) and resembles it (`similarity` at least FUZZY_NAME_THRESHOLD). Read through the GIN index,
the test costs most of the search's time: every form that holds three quarters of the query's trigrams is found by
reading, for each of the rarest ones, where every other one stands (docs/performance.md). Here each distinct key's
trigrams (app/data/search/trigrams.py, computed as pg_trgm computes them) are counted against the query's: a key
holding fewer than NAME_WORD_SIMILARITY of them cannot pass `<%` (the index's own bound), nor one whose whole
similarity is under the threshold. The keys left are handed to the statement, the most similar first, each with its
similarity as pg_trgm computes it (the same trigrams, the same division in single precision). The statement reads
their forms by the key's B-tree in that order, runs `<%` on each key as it reads it, and stops once it holds the
forms that may be the most similar (app/data/search/names.py, `_by_key`): the answer is the index's, computed on fewer
rows. The keys' words also tell which words of a slipped name no name holds and which of their slips some name holds,
where search_name_word would be read after the statement (app/data/search/names.py, `_indexed_slips`), and when no
key may hold a query, as the key tiers after the exact one read it (`may_hold`).

The keys are read from the database the API serves, with the content checksum of its last import, in one snapshot.
The statement compares that checksum with the live import's, and reads the trigram index instead when they differ
(an import swapped in since, a replica on another one): no answer mixes two imports. `following` reads the keys
again when the served import changes."""

import asyncio
import bisect
import contextlib
import dataclasses
import logging
from array import array
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.data import tables as t
from app.data.data_version import LAST_RUN, ServedVersion
from app.data.search.trigrams import trigrams

logger = logging.getLogger("isnad_graphql")
SLACK = 1e-6  # below each bound: a key the float arithmetic of PostgreSQL might keep is handed over
LAST_CHECKSUM = LAST_RUN.with_only_columns(t.import_run.c.content_checksum)  # the last import's
KEYS = select(t.narrator_search_form.c.script, t.narrator_search_form.c.search_key).distinct()


@dataclass(frozen=True)
class Similar:
    """What the statements need: the keys that may pass, the most similar to the query first, with their similarity
    (`similarities`, pg_trgm's `similarity` as PostgreSQL computes it, in single precision), and every word of the
    script's keys (`words`), all of the import of `checksum` ("" when the trigram index and search_name_word must be
    read instead)."""

    checksum: str
    keys: list[str]
    similarities: list[float] = dataclasses.field(default_factory=list)
    words: frozenset[str] = frozenset()
    may_hold: bool = True  # some key may hold the query as the key tiers read it (`_ScriptKeys.may_hold`)


READ_THE_INDEX = Similar("", [])


@dataclass(frozen=True)
class _ScriptKeys:
    """One script's distinct keys and their trigrams (dense ids), both ways: each key's, and each trigram's keys; and
    the keys' words (as search_name_word holds them under themselves)."""

    keys: list[str]
    words: frozenset[str]
    word_starts: list[str]  # the words, sorted
    word_ends: list[str]  # the words written backwards, sorted
    ids: dict[int, int]  # a trigram (pg_trgm's three bytes) -> its dense id
    key_start: NDArray[np.int64]  # where each key's trigrams start in `key_trigrams`; one more at the end
    key_trigrams: NDArray[np.int32]
    key_lengths: NDArray[np.int32]  # how many distinct trigrams each key has
    posting_start: NDArray[np.int64]  # where each trigram's keys start in `postings`; one more at the end
    postings: NDArray[np.int32]

    @classmethod
    def build(cls, keys: list[str]) -> "_ScriptKeys | None":
        """From the keys, sorted; None when one holds a character `trigrams` does not read."""
        ids: dict[int, int] = {}
        flat, lengths = array("i"), array("i")
        for key in keys:
            grams = trigrams(key)
            if grams is None:
                return None
            flat.extend(sorted(ids.setdefault(g, len(ids)) for g in grams))
            lengths.append(len(grams))
        key_trigrams, key_lengths = np.frombuffer(flat, dtype=np.int32), np.frombuffer(lengths, dtype=np.int32)
        owners = np.repeat(np.arange(len(keys), dtype=np.int32), key_lengths)
        words = frozenset(word for key in keys for word in key.split(" "))
        return cls(
            keys=keys,
            words=words,
            word_starts=sorted(words),
            word_ends=sorted(word[::-1] for word in words),
            ids=ids,
            key_start=np.concatenate(([0], np.cumsum(key_lengths, dtype=np.int64))),
            key_trigrams=key_trigrams,
            key_lengths=key_lengths,
            posting_start=np.concatenate(([0], np.cumsum(np.bincount(key_trigrams, minlength=len(ids))))),
            postings=owners[np.argsort(key_trigrams, kind="stable")],
        )

    def may_hold(self, query: str) -> bool:
        """Some key may hold `query`, as a key tier's LIKE '%query%' reads it: True unless a word within it is no
        key's word, or its first word ends none, or its last starts none (its words then are not all some key's
        either, as the fulltext tier reads them). A word alone, or words apart by more than one space: True."""
        words = query.split(" ")
        if len(words) < 2 or "" in words:
            return True
        first, *within, last = words
        return (
            all(word in self.words for word in within)
            and _starts_one(self.word_ends, first[::-1])
            and _starts_one(self.word_starts, last)
        )

    def _keys_of(self, gram: int) -> NDArray[np.int32]:
        return self.postings[self.posting_start[gram] : self.posting_start[gram + 1]]

    def passing(self, grams: frozenset[int], word_share: float, similarity: float) -> tuple[list[str], list[float]]:
        """The keys holding at least `word_share` of `grams` whose similarity with them is at least `similarity`, the
        most similar first (then in the keys' order), with their similarity."""
        known = [self.ids[g] for g in grams if g in self.ids]
        least = int(np.ceil(len(grams) * (word_share - SLACK)))
        if not grams or len(known) < least:
            return [], []
        # A key holding `least` of the known trigrams misses `spare` of them at most: of the `spare` + 1 + `more`
        # rarest, it holds `more` + 1 at least. Counting them over twice the fewest rarest it must hold one of
        # leaves a few dozen keys to count the others of, where holding one of the fewest leaves a thousand.
        known.sort(key=lambda g: self.posting_start[g + 1] - self.posting_start[g])
        spare = len(known) - least
        more = min(spare + 1, len(known) - spare - 1)
        rarest = np.concatenate([self._keys_of(gram) for gram in known[: spare + 1 + more]])
        found = np.flatnonzero(np.bincount(rarest, minlength=len(self.keys)) > more)
        if len(found) == 0:
            return [], []
        held = self._held(found, known)
        # pg_trgm's cnt_sml: the shared trigrams over the union's, a division of single-precision floats
        union = len(grams) + self.key_lengths[found] - held
        similar = held.astype(np.float32) / union.astype(np.float32)
        kept = (held >= least) & (held / union >= similarity - SLACK)
        order = np.lexsort((found[kept], -similar[kept]))
        return [self.keys[k] for k in found[kept][order]], similar[kept][order].tolist()

    def _held(self, found: NDArray[np.intp], known: list[int]) -> NDArray[np.int32]:
        """How many of the trigrams `known` each key of `found` holds."""
        wanted = np.zeros(len(self.ids), dtype=np.int32)
        wanted[known] = 1
        lengths = self.key_lengths[found]
        ends = np.cumsum(lengths)
        begins = ends - lengths
        at = np.repeat(self.key_start[found] - begins, lengths) + np.arange(ends[-1])
        held: NDArray[np.int32] = np.add.reduceat(wanted[self.key_trigrams[at]], begins)
        return held


def _starts_one(ordered: list[str], start: str) -> bool:
    """Some string of `ordered` (sorted) starts with `start`."""
    at = bisect.bisect_left(ordered, start)
    return at < len(ordered) and ordered[at].startswith(start)


@dataclass(frozen=True)
class NameKeys:
    """The distinct keys of one import, by script."""

    checksum: str
    scripts: dict[str, _ScriptKeys]

    @classmethod
    def build(cls, checksum: str, rows: Iterable[tuple[str, str]]) -> "NameKeys | None":
        """The keys' index; None when a key holds a character `trigrams` does not read."""
        by_script: dict[str, list[str]] = {}
        for script, key in sorted(rows):
            by_script.setdefault(script, []).append(key)
        scripts = {script: _ScriptKeys.build(keys) for script, keys in by_script.items()}
        readable = {script: keys for script, keys in scripts.items() if keys is not None}
        return cls(checksum, readable) if len(readable) == len(scripts) else None


class NameIndex:
    """The keys of the import the API serves, once read; `similar` answers READ_THE_INDEX until then, and for a
    query of other characters than the keys' (`trigrams` reads none other)."""

    def __init__(self, word_share: float, similarity: float) -> None:
        self.word_share, self.similarity = word_share, similarity
        self.current: NameKeys | None = None
        self._read_for: str | None = None  # the served import's checksum when the keys were last read

    def similar(self, query: str, script: str) -> Similar:
        keys, grams = self.current, trigrams(query)
        if keys is None or grams is None or script not in keys.scripts:
            return READ_THE_INDEX
        of_script = keys.scripts[script]
        passing, similarities = of_script.passing(grams, self.word_share, self.similarity)
        return Similar(keys.checksum, passing, similarities, of_script.words, of_script.may_hold(query))

    def as_written(self, query: str, script: str) -> bool:
        """Some key of the script is `query` or starts with its words."""
        of_script = self.current.scripts.get(script) if self.current else None
        if of_script is None:
            return False
        keys = of_script.keys
        at = bisect.bisect_left(keys, query)
        return at < len(keys) and (keys[at] == query or keys[at].startswith(f"{query} "))

    async def load(self, engine: AsyncEngine) -> None:
        """Read the keys and the last import's checksum in one snapshot; an import with no checksum, or keys of
        other characters than `trigrams` reads, leave the index unread (the trigram index serves)."""
        async with engine.connect() as opened:
            connection = await opened.execution_options(isolation_level="REPEATABLE READ")
            async with connection.begin():
                checksum = await connection.scalar(LAST_CHECKSUM)
                rows = [(row.script, row.search_key) for row in await connection.execute(KEYS)]
        self.current = await asyncio.to_thread(NameKeys.build, checksum, rows) if isinstance(checksum, str) else None
        logger.info("name keys read: %s", f"{len(rows)} keys" if self.current else "none the index can use")

    @contextlib.asynccontextmanager
    async def following(self, engine: AsyncEngine, served: ServedVersion, every_s: float) -> AsyncIterator[None]:
        """Read the keys now, before the block (a worker's first request meets them), then again whenever the served
        import's checksum is another than the one they were read for."""
        await self._catch_up(engine, served)
        task = asyncio.create_task(self._follow(engine, served, every_s))
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _follow(self, engine: AsyncEngine, served: ServedVersion, every_s: float) -> None:
        while True:
            await asyncio.sleep(every_s)
            await self._catch_up(engine, served)

    async def _catch_up(self, engine: AsyncEngine, served: ServedVersion) -> None:
        wanted = served.current.content_checksum if served.current else None
        if wanted is None or wanted == self._read_for:
            return
        try:
            await self.load(engine)
            self._read_for = wanted
        except Exception:
            logger.exception("the name keys could not be read; the trigram index serves")
