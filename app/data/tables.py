"""The tables and the view the API reads, as the importer's schema (ingest/schema.sql) defines them.

Only the columns the API reads are declared. The schema is chosen by the connection's search_path.
"""

from typing import Any

from sqlalchemy import Boolean, Column, DateTime, Float, Integer, MetaData, Table, Text
from sqlalchemy.dialects.postgresql import ARRAY, TSVECTOR

metadata = MetaData()


def _text(name: str) -> Column[str]:
    return Column(name, Text)


def _int(name: str) -> Column[int]:
    return Column(name, Integer)


def _relation_columns() -> list[Column[Any]]:
    """A teacher -> student relation's columns, in transmission_relation and in pair_relation, its derived copy."""
    return [
        _int("relation_id"),
        _int("teacher_id"),
        _int("student_id"),
        _text("status"),
        _text("method"),
        Column("confidence", Float),
        _text("source_id"),
        _text("source_key"),
    ]


source = Table(
    "source",
    metadata,
    _text("source_id"),
    _text("title"),
    _text("source_type"),
    _text("author"),
    _text("repository"),
    _text("commit_sha"),
    _text("upstream_path"),
    _text("licence"),
)
edition = Table("edition", metadata, _text("edition_id"), _text("source_id"), _text("language"), _text("title"))
import_run = Table(
    "import_run",
    metadata,
    _int("schema_version"),
    _int("normalizer_version"),
    Column("finished_at", DateTime(timezone=True)),
    _text("manifest_sha256"),
    _text("content_checksum"),
)
collection = Table(
    "collection",
    metadata,
    _int("collection_id"),
    _text("code"),
    _text("name_en"),
    _text("name_ar"),
    _text("name_fr"),
    _int("hadith_count"),
)
book = Table(
    "book",
    metadata,
    _int("book_id"),
    _int("collection_id"),
    _text("number"),
    _text("title_ar"),
    _text("title_en"),
    _text("title_fr"),
    _int("hadith_count"),
    _int("seq_in_collection"),
)
chapter = Table(
    "chapter",
    metadata,
    _int("chapter_id"),
    _int("book_id"),
    _text("number"),
    _text("title_ar"),
    _text("title_en"),
    _int("hadith_count"),
    _int("seq_in_collection"),
)
collection_source = Table(
    "collection_source",
    metadata,
    _int("collection_id"),
    _int("source_rank"),
    _text("role"),
    _text("source_id"),
    _text("edition_id"),
    _int("hadith_count"),
)
hadith = Table(
    "hadith",
    metadata,
    _int("hadith_id"),
    _int("collection_id"),
    _int("book_id"),
    _int("chapter_id"),
    _text("canonical_number"),
    _text("canonical_reference"),
    _text("in_book_reference"),
    _int("seq_in_collection"),
    _text("numbering_method"),
    _text("text_ar"),
    _text("text_ar_normalized"),
    _text("text_ar_stems"),
    Column("text_ar_pairs", ARRAY(Text)),
    Column("text_ar_terms", TSVECTOR),
    _int("matn_length"),
    _text("text_fr"),
    _text("text_fr_normalized"),
    Column("text_fr_terms", TSVECTOR),
    Column("text_fr_words", TSVECTOR),
    _text("text_fr_edition_id"),
    _text("source_id"),
    _text("edition_id"),
    _text("source_key"),
)
hadith_source_record = Table(
    "hadith_source_record",
    metadata,
    _int("hadith_id"),
    _text("role"),
    _text("source_id"),
    _text("edition_id"),
    _text("source_key"),
)
hadith_grade = Table(
    "hadith_grade",
    metadata,
    _int("hadith_id"),
    _text("grader"),
    _text("grade"),
    _text("grade_class"),
    _text("source_id"),
    _text("edition_id"),
    _text("source_key"),
)
narrator = Table(
    "narrator",
    metadata,
    _int("narrator_id"),
    _text("name_ar"),
    _text("name_latin"),
    _text("canonical_display"),
    _text("name_fr"),
    _int("generation"),
    _text("grade_tier"),
    _text("region"),
    _text("region_key"),
    _int("birth_year_hijri"),
    _int("death_year_hijri"),
    _int("chain_node_count"),
    _int("occurrence_count"),
    _int("distinct_hadith_count"),
    _text("source_id"),
    _text("source_key"),
)
narrator_search_form = Table(
    "narrator_search_form",
    metadata,
    _int("narrator_id"),
    _text("form"),
    _text("search_key"),
    _text("skeleton"),
    _text("script"),
    Column("prior", Float),
    _text("source_id"),
    _text("source_key"),
)
search_name_word = Table("search_name_word", metadata, _text("script"), _text("key"), _text("word"))
search_term_key = Table(
    "search_term_key",
    metadata,
    _text("language"),
    _text("key"),
    _text("term"),
    _int("doc_count"),
    Column("indexed", Boolean),
)
search_common_pair = Table("search_common_pair", metadata, _text("pair"), _int("doc_count"))
narrator_legacy_field = Table(
    "narrator_legacy_field",
    metadata,
    _int("narrator_id"),
    _text("field"),
    _text("value"),
    _text("source_id"),
    _text("source_key"),
)
scholarly_assertion = Table(
    "scholarly_assertion",
    metadata,
    _int("narrator_id"),
    _text("field"),
    _text("value"),
    _text("scholar"),
    _text("source_id"),
    _int("notice_id"),
    _text("locator"),
    _text("source_key"),
)
chain = Table(
    "chain",
    metadata,
    _int("chain_id"),
    _int("hadith_id"),
    _int("chain_number"),
    _text("origin"),
    Column("alignment_score", Float),
    _text("source_id"),
    _text("source_key"),
)
chain_node = Table(
    "chain_node",
    metadata,
    _int("node_id"),
    _int("chain_id"),
    _int("position"),
    _int("narrator_id"),
    _text("mention_ar"),
    _text("transmission_term_ar"),
    _text("resolution_status"),
    Column("confidence", Float),
    _text("method"),
    _text("source_key"),
)
chain_check = Table(
    "chain_check",
    metadata,
    _int("chain_id"),
    _int("check_number"),
    _text("code"),
    _text("reason"),
)
profile_variant = Table(
    "profile_variant",
    metadata,
    _int("narrator_id"),
    _int("variant_rank"),
    _text("form"),
    _text("script"),
    _text("kind"),
    _text("source_id"),
    _text("source_key"),
)
profile_entry = Table(
    "profile_entry",
    metadata,
    _int("narrator_id"),
    _int("entry_rank"),
    _int("notice_id"),
    _text("entry_id"),
    _text("text"),
    _text("page"),
    _text("work_source_id"),
    _text("status"),
    _text("method"),
    Column("confidence", Float),
    _text("link_source_id"),
)
narrator_occurrence = Table(
    "narrator_occurrence",
    metadata,
    _int("narrator_id"),
    _int("occurrence_rank"),
    _int("hadith_id"),
    _text("canonical_reference"),
    _int("chain_id"),
    _text("chain_source_id"),
    _text("chain_source_key"),
    _int("node_id"),
    _int("position"),
    _text("node_source_key"),
)
transmission_relation = Table("transmission_relation", metadata, *_relation_columns())
pair_relation = Table(
    "pair_relation",
    metadata,
    _int("least_narrator_id"),
    _int("greatest_narrator_id"),
    _int("relation_rank"),
    *_relation_columns(),
)
pair_observation = Table(
    "pair_observation",
    metadata,
    _int("least_narrator_id"),
    _int("greatest_narrator_id"),
    _int("observation_rank"),
    _int("hadith_id"),
    _text("canonical_reference"),
    _int("chain_id"),
    _text("chain_source_id"),
    _text("chain_source_key"),
    _int("upper_node_id"),
    _int("lower_node_id"),
    Column("chain_checks_passed", Boolean),
)
public_commentary_passage = Table(
    "public_commentary_passage",
    metadata,
    _int("passage_id"),
    _text("source_id"),
    _int("hadith_id"),
    _int("collection_id"),
    _text("marker_no"),
    _int("seq"),
    _text("passage_kind"),
    _text("heading"),
    _text("text"),
    _text("page"),
    _text("alignment_status"),
    Column("alignment_confidence", Float),
    _text("source_key"),
)
hadith_matn = Table(
    "hadith_matn",
    metadata,
    _int("hadith_id"),
    _text("matn_ar_normalized"),
    _text("source_id"),
    _text("source_key"),
)
hadith_parallel = Table(
    "hadith_parallel",
    metadata,
    _int("hadith_id"),
    _int("parallel_rank"),
    _int("parallel_hadith_id"),
    Column("similarity", Float),
)
