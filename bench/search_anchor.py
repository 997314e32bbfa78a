"""The search anchor: the API's two searches answered by a dedicated full-text engine (tantivy) over the same
texts, built once from the database's own normalized columns.

    with built_anchor(url, schema) as anchor:    # a temporary folder, removed on exit
        anchor.search_hadith("إنما الأعمال بالنيات")    # [Hit(...), ...], best first, 5 at most

The hadith index holds, per hadith, what the API's search reads: `text_ar_normalized` (the exact tier's
phrase), `text_ar_stems` (the fulltext and fuzzy tiers' words), `text_fr_normalized` (French: the words as
written for phrases and typos, stemmed with tantivy's French stemmer and stop words for the fulltext tier)
and the citation keys (`code:canonical_number`, `code:book/hadith`). The narrator index holds one document
per name form of `narrator_search_form`: its script, its `search_key` whole and word by word.

A query is read as the API reads it (app.text: citations, Arabic normalization and stems, Latin words, name
keys), then answered tier by tier as the API's tiers are, each filling what the earlier ones left: a phrase
query, then every word (a boolean of terms), then the words each one edit off (tantivy's fuzzy term queries,
distance 1, a transposition counting one), each ranked by BM25. What tantivy does not do (the API's coverage,
proximity and trigram rescoring, its transliterations, skeletons and priors) it does not do here.
"""

import asyncio
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import tantivy

from app.text import arabic, latin
from app.text.references import parse_citation
from app.text.spoken_references import spoken_citation

LIMIT = 5  # both tools' default limit, the one the benchmark's bodies get
MIN_FUZZY_LETTERS = 4  # as the API's: a shorter word must be said right
FRENCH = "fr_stem"  # the analyzer of the French fulltext field
HEAP_BYTES = 200_000_000  # the index writer's memory

HADITH_ROWS = """
SELECT h.hadith_id, h.canonical_reference, c.code, h.canonical_number, h.in_book_reference,
       h.text_ar_normalized, h.text_ar_stems, h.text_fr_normalized
  FROM hadith h JOIN collection c USING (collection_id) ORDER BY h.hadith_id
"""
NARRATOR_ROWS = "SELECT narrator_id, script, search_key FROM narrator_search_form ORDER BY narrator_id, search_key"


@dataclass(frozen=True)
class Hit:
    id: int  # hadith_id or narrator_id
    reference: str  # the hadith's canonical reference, the narrator's name form
    tier: str
    score: float


def _french() -> tantivy.TextAnalyzer:
    builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
    return builder.filter(tantivy.Filter.stopword("french")).filter(tantivy.Filter.stemmer("french")).build()


def _hadith_schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, indexed=True)
    builder.add_text_field("reference", stored=True, tokenizer_name="raw")
    builder.add_text_field("cited", tokenizer_name="raw", index_option="basic")
    for name in ("ar", "ar_stems", "fr"):
        builder.add_text_field(name, tokenizer_name="whitespace")
    builder.add_text_field("fr_stems", tokenizer_name=FRENCH)
    return builder.build()


def _narrator_schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, indexed=True)
    builder.add_text_field("reference", stored=True, tokenizer_name="raw")
    builder.add_text_field("script", tokenizer_name="raw", index_option="basic")
    builder.add_text_field("key", tokenizer_name="raw", index_option="basic")
    builder.add_text_field("words", tokenizer_name="whitespace")
    return builder.build()


def _opened(schema: tantivy.Schema, folder: Path) -> tantivy.Index:
    folder.mkdir(exist_ok=True)
    index = tantivy.Index(schema, path=str(folder))
    index.register_tokenizer(FRENCH, _french())
    return index


def _hadith_document(row: asyncpg.Record) -> tantivy.Document:
    return tantivy.Document(
        id=row["hadith_id"],
        reference=row["canonical_reference"],
        cited=[f"{row['code']}:{number}" for number in (row["canonical_number"], row["in_book_reference"]) if number],
        ar=row["text_ar_normalized"] or "",
        ar_stems=row["text_ar_stems"] or "",
        fr=row["text_fr_normalized"] or "",
        fr_stems=row["text_fr_normalized"] or "",
    )


def _narrator_document(row: asyncpg.Record) -> tantivy.Document:
    key = row["search_key"] or ""
    return tantivy.Document(id=row["narrator_id"], reference=key, script=row["script"], key=key, words=key)


def _write(index: tantivy.Index, documents: Iterator[tantivy.Document]) -> int:
    writer = index.writer(HEAP_BYTES, 1)
    count = 0
    for document in documents:
        writer.add_document(document)
        count += 1
    writer.commit()
    writer.wait_merging_threads()
    return count


async def _rows(url: str, schema: str) -> tuple[list[asyncpg.Record], list[asyncpg.Record]]:
    connection = await asyncpg.connect(url, server_settings={"search_path": f"{schema}, public"})
    try:
        return await connection.fetch(HADITH_ROWS), await connection.fetch(NARRATOR_ROWS)
    finally:
        await connection.close()


def build(url: str, schema: str, folder: Path) -> tuple[int, int]:
    """Both indexes under `folder`, from the database at `url`: how many hadith and name forms they hold."""
    hadith, narrators = asyncio.run(_rows(url, schema))
    return (
        _write(_opened(_hadith_schema(), folder / "hadith"), (_hadith_document(row) for row in hadith)),
        _write(_opened(_narrator_schema(), folder / "narrator"), (_narrator_document(row) for row in narrators)),
    )


# -- the queries ------------------------------------------------------------------------------------

Tiers = list[tuple[str, tantivy.Query]]  # best first


def _phrase(schema: tantivy.Schema, field: str, words: Sequence[str]) -> tantivy.Query:
    if len(words) == 1:
        return tantivy.Query.term_query(schema, field, words[0])
    return tantivy.Query.phrase_query(schema, field, list(words))


def _every(schema: tantivy.Schema, field: str, words: Sequence[str], *also: tantivy.Query) -> tantivy.Query:
    terms = [(tantivy.Occur.Must, tantivy.Query.term_query(schema, field, word)) for word in words]
    return tantivy.Query.boolean_query(terms + [(tantivy.Occur.Must, query) for query in also])


def _fuzzy(schema: tantivy.Schema, field: str, words: Sequence[str], *also: tantivy.Query) -> tantivy.Query:
    """Any of the words, each one edit off (a word under MIN_FUZZY_LETTERS letters: as said)."""
    terms = [
        tantivy.Query.fuzzy_term_query(schema, field, word, 1, True)
        if len(word) >= MIN_FUZZY_LETTERS
        else tantivy.Query.term_query(schema, field, word)
        for word in words
    ]
    should = [(tantivy.Occur.Should, term) for term in terms]
    return tantivy.Query.boolean_query(should + [(tantivy.Occur.Must, query) for query in also])


def _words_tiers(schema: tantivy.Schema, fields: tuple[str, str, str], phrase: list[str], words: list[str]) -> Tiers:
    """Exact (the phrase on the first field), fulltext (every word on the second), fuzzy (on the third)."""
    exact, full, fuzzy = fields
    tiers = [("exact", _phrase(schema, exact, phrase))] if phrase else []
    if words:
        tiers += [("fulltext", _every(schema, full, words)), ("fuzzy", _fuzzy(schema, fuzzy, phrase or words))]
    return tiers


class Anchor:
    """Both indexes, opened for reading; each search runs its tiers in turn, as the API's do."""

    def __init__(self, folder: Path) -> None:
        self.hadith = _opened(_hadith_schema(), folder / "hadith")
        self.narrators = _opened(_narrator_schema(), folder / "narrator")
        self._french = _french()

    def _hadith_tiers(self, query: str) -> Tiers:
        schema = self.hadith.schema
        citation = parse_citation(query) or spoken_citation(query)
        if citation is not None:
            in_book = ["/".join(citation.in_book)] if citation.in_book else []
            cited = [f"{citation.code}:{number}" for number in citation.numbers() + in_book]
            return [("reference", tantivy.Query.term_set_query(schema, "cited", cited))] if cited else []
        if arabic.is_arabic(query):
            phrase = arabic.tokens(query)
            stems = list(dict.fromkeys(arabic.stem(word) for word in phrase))
            return _words_tiers(schema, ("ar", "ar_stems", "ar_stems"), phrase, stems)
        said = latin.words(query)
        stems = list(dict.fromkeys(self._french.analyze(" ".join(said))))
        return _words_tiers(schema, ("fr", "fr_stems", "fr"), said, stems)

    def _narrator_tiers(self, query: str) -> Tiers:
        schema = self.narrators.schema
        script = "ar" if arabic.is_arabic(query) else "latin"
        key = arabic.name_key(query) if script == "ar" else latin.name_key(query)
        words = key.split()
        if not words:
            return []
        of_script = tantivy.Query.term_query(schema, "script", script)
        exact = tantivy.Query.term_query(schema, "key", key)
        return [
            ("exact", tantivy.Query.boolean_query([(tantivy.Occur.Must, exact), (tantivy.Occur.Must, of_script)])),
            ("fulltext", _every(schema, "words", words, of_script)),
            ("fuzzy", _fuzzy(schema, "words", words, of_script)),
        ]

    def search_hadith(self, query: str, limit: int = LIMIT) -> list[Hit]:
        return _tiered(self.hadith, self._hadith_tiers(query), limit)

    def search_narrator(self, query: str, limit: int = LIMIT) -> list[Hit]:
        return _tiered(self.narrators, self._narrator_tiers(query), limit)


def _tiered(index: tantivy.Index, tiers: Tiers, limit: int) -> list[Hit]:
    """The hits of each tier in turn, best first, each id once, `limit` at most."""
    searcher = index.searcher()
    found: dict[int, Hit] = {}
    for name, query in tiers:
        # a narrator has several name forms: ask for enough of them to find `limit` narrators
        for score, address in searcher.search(query, limit * 4, count=False).hits:
            document: Any = searcher.doc(address)
            hit_id = int(document["id"][0])
            if hit_id not in found:
                found[hit_id] = Hit(hit_id, str(document["reference"][0]), name, float(score))
            if len(found) == limit:
                return list(found.values())
    return list(found.values())


@contextmanager
def built_anchor(url: str, schema: str) -> Iterator[Anchor]:
    """The anchor's indexes built from the database in a temporary folder, opened; the folder removed on exit."""
    with tempfile.TemporaryDirectory(prefix="isnad-anchor-") as folder:
        build(url, schema, Path(folder))
        yield Anchor(Path(folder))
