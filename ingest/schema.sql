-- The reference database of the hadith and narrator graph (its version: app/schema_version.py).
--
-- The importer creates every object below inside a fresh build schema (the search_path names it)
-- and swaps it in as `isnad` at the end. Every row that carries a claim names its source
-- (source_id, and where the record has one, source_key / edition_id / locator).

-- provenance -------------------------------------------------------------------------------------

CREATE TABLE source (
    source_id      text PRIMARY KEY,            -- e.g. 'hadith-json', 'openiti-taqrib'
    title          text NOT NULL,
    source_type    text NOT NULL CHECK (source_type IN ('corpus', 'scholarly_work', 'commentary', 'dataset')),
    author         text,                        -- the scholar, for scholarly works and commentaries
    repository     text,                        -- upstream repository, as stated
    commit_sha     text,
    upstream_path  text,
    licence        text,                        -- the licence as stated upstream, verbatim summary
    note           text
);

CREATE TABLE edition (
    edition_id  text PRIMARY KEY,               -- e.g. 'ara-bukhari', 'fra-bukhari'
    source_id   text NOT NULL REFERENCES source,
    language    text NOT NULL,                  -- ISO 639-1: 'ar', 'fr', 'en'
    title       text,
    note        text                            -- what the source says of the text (translator ...)
);

CREATE TABLE dataset_file (                     -- every staged file the import read
    path         text PRIMARY KEY,              -- relative to the data folder
    source_id    text NOT NULL REFERENCES source,
    purpose      text NOT NULL,
    derived      boolean NOT NULL,              -- produced by the data scout, not an upstream copy
    sha256       text NOT NULL,
    rows_read    integer NOT NULL,
    rows_skipped integer NOT NULL
);

CREATE TABLE import_run (
    schema_version integer NOT NULL,
    normalizer_version integer NOT NULL,
    started_at     timestamptz NOT NULL,
    finished_at    timestamptz NOT NULL,
    data_dir       text NOT NULL,
    manifest_sha256 text NOT NULL,                -- the manifest the data folder was checked against
    manifest_derived_from text,                   -- for a folder cut from the full data: the committed manifest's sha256
    altered_files  text[] NOT NULL,               -- files imported although they differ from it (--allow-altered)
    table_checksums jsonb,                        -- {table: {rows, md5}}: ingest/checksums.py
    content_checksum text                         -- sha256 over table_checksums: equal for two imports of the same data
);

-- search ---------------------------------------------------------------------------------------------

-- French text search that folds accents alike in texts and queries (the French stemmer after unaccent).
CREATE TEXT SEARCH CONFIGURATION french_unaccent (COPY = pg_catalog.french);
ALTER TEXT SEARCH CONFIGURATION french_unaccent
    ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, french_stem;

CREATE TABLE search_term (                      -- the vocabulary the fuzzy search corrects query words against
    language   text NOT NULL,                   -- 'ar': hadith.text_ar_stems words; 'fr': app.latin.words of text_fr
    term       text NOT NULL,
    doc_count  integer NOT NULL,                -- hadith whose text holds the term
    PRIMARY KEY (language, term)
);

CREATE TABLE search_term_key (                  -- derived (ingest/derived.py): the vocabulary, by key
    language   text NOT NULL,
    key        text NOT NULL,                   -- the term itself, or the term with one letter deleted
    term       text NOT NULL,                   -- search_term.term, with its doc_count
    doc_count  integer NOT NULL,
    indexed    boolean NOT NULL,                -- the fulltext tier's text search indexes it (no French stop word)
    PRIMARY KEY (language, key, term) INCLUDE (doc_count, indexed)
);

CREATE TABLE search_common_pair (              -- derived (ingest/derived.py): what most Arabic texts hold
    pair       text PRIMARY KEY,                -- a word or two words standing together (hadith.text_ar_pairs)
    doc_count  integer NOT NULL                 -- hadith that hold it: COMMON_PAIR_SHARE of them at least
);

-- corpus -----------------------------------------------------------------------------------------

CREATE TABLE collection (
    collection_id  integer PRIMARY KEY,         -- fixed per code, see ingest/ids.py
    code           text NOT NULL UNIQUE,        -- sunnah.com code: 'bukhari', 'muslim', 'nawawi40' ...
    name_en        text,
    name_ar        text,
    name_fr        text,
    hadith_count   integer NOT NULL DEFAULT 0   -- its hadith rows (ingest/reading_order.py)
);

CREATE TABLE book (                             -- kitab
    book_id        integer PRIMARY KEY,
    collection_id  integer NOT NULL REFERENCES collection,
    number         text,                        -- the kitab number of the source ('0' = introduction)
    title_ar       text,
    title_en       text,
    title_fr       text,
    source_id      text NOT NULL REFERENCES source,
    source_key     text,
    hadith_count   integer NOT NULL DEFAULT 0,  -- its hadith rows (ingest/reading_order.py)
    seq_in_collection integer                   -- its first hadith's: its place in the collection's order
);
CREATE INDEX book_collection_idx ON book (collection_id, seq_in_collection);

CREATE TABLE chapter (                          -- bab
    chapter_id     integer PRIMARY KEY,
    book_id        integer NOT NULL REFERENCES book,
    number         text,
    title_ar       text,
    title_en       text,
    source_id      text NOT NULL REFERENCES source,
    source_key     text,
    hadith_count   integer NOT NULL DEFAULT 0,  -- its hadith rows (ingest/reading_order.py)
    seq_in_collection integer                   -- its first hadith's: its place in the book's order
);
CREATE INDEX chapter_book_idx ON chapter (book_id, seq_in_collection);

CREATE TABLE hadith (
    hadith_id            integer PRIMARY KEY,
    collection_id        integer NOT NULL REFERENCES collection,
    book_id              integer REFERENCES book,
    chapter_id           integer REFERENCES chapter,
    canonical_number     text,                  -- '1', '8a', '402.2'; null when no number is verified (ingest/numbering.py)
    canonical_reference  text NOT NULL UNIQUE,  -- 'bukhari:1', 'muslim:8a'; in-book 'bukhari/51/56' when unnumbered
    in_book_reference    text,                  -- '<kitab>/<index in kitab>' of the Arabic source
    seq_in_collection    integer NOT NULL,
    text_ar              text,                  -- with isnad and diacritics
    text_ar_normalized   text,                  -- app.arabic.normalize(text_ar)
    text_ar_stems        text,                  -- app.arabic.stem of each normalized word
    text_ar_pairs        text[],                -- app.arabic.word_pairs(text_ar_normalized): the exact tier's index
    text_ar_terms        tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce(text_ar_stems, ''))) STORED,
    matn_length          integer,               -- characters of the normalized matn (LK corpus split), else of the text
    text_fr              text,
    text_fr_normalized   text,                  -- the words of text_fr, lower case, accents folded (app.latin.words)
    text_fr_terms        tsvector GENERATED ALWAYS AS (to_tsvector('french_unaccent'::regconfig, coalesce(text_fr, ''))) STORED,
    text_fr_words        tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce(text_fr_normalized, ''))) STORED,
    text_fr_edition_id   text REFERENCES edition,
    text_en              text,
    numbering_method     text,                  -- how the canonical number was obtained (crosswalk method)
    refused_number       text,                  -- the crosswalk's hadith-api number, where it was refused
    numbering_refusal    text CHECK (numbering_refusal IN
                             ('no_kitab_to_compare', 'kitab_differs', 'arabic_differs', 'no_arabic_to_compare',
                              'number_taken')),
    source_id            text NOT NULL REFERENCES source,
    edition_id           text REFERENCES edition,
    source_key           text NOT NULL
);
CREATE INDEX hadith_collection_idx ON hadith (collection_id, seq_in_collection);
CREATE INDEX hadith_number_idx ON hadith (collection_id, canonical_number);
CREATE INDEX hadith_book_idx ON hadith (book_id, seq_in_collection);
CREATE INDEX hadith_chapter_idx ON hadith (chapter_id, seq_in_collection);
CREATE INDEX hadith_text_ar_pairs_idx ON hadith USING gin (text_ar_pairs);
CREATE INDEX hadith_text_ar_terms_idx ON hadith USING gin (text_ar_terms);
CREATE INDEX hadith_text_fr_terms_idx ON hadith USING gin (text_fr_terms);
CREATE INDEX hadith_text_fr_words_idx ON hadith USING gin (text_fr_words);

CREATE TABLE hadith_source_record (             -- every source record a hadith row came from
    hadith_id    integer NOT NULL REFERENCES hadith,
    role         text NOT NULL,                 -- 'text_ar', 'text_fr', 'numbering', 'numbering_refused', 'chapter',
                                                -- 'grades', 'isnad'
    source_id    text NOT NULL REFERENCES source,
    edition_id   text REFERENCES edition,
    source_key   text NOT NULL,
    PRIMARY KEY (hadith_id, role, source_id, source_key)
);

CREATE TABLE hadith_grade (
    hadith_id    integer NOT NULL REFERENCES hadith,
    grader       text NOT NULL,                 -- the scholar who graded (the provenance of the grade)
    grade        text NOT NULL,                 -- as the source words it
    grade_class  text NOT NULL,                 -- its class by the table of ingest/grades.py
    source_id    text NOT NULL REFERENCES source,
    edition_id   text REFERENCES edition,
    source_key   text,
    PRIMARY KEY (hadith_id, grader, source_id)
);

-- narrators --------------------------------------------------------------------------------------

CREATE TABLE narrator (
    narrator_id       integer PRIMARY KEY,      -- the muslimscholars scholar_indx
    name_ar           text,                     -- as the dataset gives it, honorific formula removed
    name_latin        text,                     -- the dataset's Latin transliteration
    canonical_display text,                     -- display form (the Latin transliteration)
    name_fr           text,                     -- a French form given by a source; none does today
    generation        integer,                  -- tabaqa 1-12 from the dataset's bracketed generation label
    grade_tier        text,                     -- from the linked Taqrib verdict, see ingest/narrators.py
    region            text,                     -- from AR-Sanad living_city, where a bridge exists
    region_key        text,                     -- app.arabic.normalize(region): what the search's region filter compares
    birth_year_hijri  integer,
    death_year_hijri  integer,
    chain_node_count  integer NOT NULL DEFAULT 0,
    occurrence_count  integer NOT NULL DEFAULT 0, -- its chain nodes resolved 'confirmed' (ingest/derived.py)
    distinct_hadith_count integer NOT NULL DEFAULT 0, -- the hadith of those nodes' chains
    source_id         text NOT NULL REFERENCES source,
    source_key        text NOT NULL
);
CREATE INDEX narrator_generation_idx ON narrator (generation);
CREATE INDEX narrator_grade_tier_idx ON narrator (grade_tier);
CREATE INDEX narrator_region_idx ON narrator (region_key);

CREATE TABLE narrator_name_variant (
    narrator_id  integer NOT NULL REFERENCES narrator,
    form         text NOT NULL,
    form_normalized text NOT NULL,              -- Arabic: app.arabic.normalize; Latin: lower-cased
    script       text NOT NULL CHECK (script IN ('ar', 'latin')),
    kind         text NOT NULL,                 -- 'dataset_name', 'isnad_form', 'rijal_headword'
    source_id    text NOT NULL REFERENCES source,
    source_key   text,
    PRIMARY KEY (narrator_id, form, source_id)
);

CREATE TABLE narrator_search_form (             -- every name form the narrator search compares, with its keys
    narrator_id  integer NOT NULL REFERENCES narrator,
    form         text NOT NULL,                 -- as the source writes it
    search_key   text NOT NULL,                 -- app.arabic.name_key / app.latin.name_key of form
    skeleton     text NOT NULL,                 -- app.arabic.skeleton / app.latin.skeleton of form
    script       text NOT NULL CHECK (script IN ('ar', 'latin')),
    kind         text NOT NULL,                 -- a narrator_name_variant kind, or 'chain_mention'
    prior        double precision NOT NULL,     -- log(1 + chain nodes) / log(1 + the most any narrator has)
    source_id    text NOT NULL REFERENCES source,
    source_key   text,
    PRIMARY KEY (narrator_id, search_key)
);
CREATE INDEX search_form_key_trgm_idx ON narrator_search_form USING gin (search_key gin_trgm_ops);
CREATE INDEX search_form_words_idx ON narrator_search_form USING gin (string_to_array(search_key, ' '));  -- fulltext tier
CREATE INDEX search_form_skeleton_idx ON narrator_search_form (skeleton text_pattern_ops);
CREATE INDEX search_form_key_idx ON narrator_search_form (search_key, script);  -- exact tier
-- The planner tries each trigram operator of the search (<%) on the column's statistics at every execution:
-- a short sample keeps that planning cheap (2 ms per search with the default 100).
ALTER TABLE narrator_search_form ALTER COLUMN search_key SET STATISTICS 10;

CREATE TABLE search_name_word (                 -- derived (ingest/derived.py): the words of the name forms' keys, by key
    script  text NOT NULL,                      -- narrator_search_form.script
    key     text NOT NULL,                      -- the word itself, or the word with one letter deleted
    word    text NOT NULL,                      -- a word of narrator_search_form.search_key
    PRIMARY KEY (script, key, word)
);

CREATE TABLE narrator_legacy_field (            -- dataset fields, kept apart from scholarly assertions
    narrator_id  integer NOT NULL REFERENCES narrator,
    field        text NOT NULL,                 -- 'generation_label', 'birth_date_hijri', 'death_date_hijri', ...
    value        text NOT NULL,
    source_id    text NOT NULL REFERENCES source,
    source_key   text,
    PRIMARY KEY (narrator_id, field, source_id)
);

CREATE TABLE rijal_notice (
    notice_id    integer PRIMARY KEY,
    entry_id     text NOT NULL UNIQUE,          -- 'taqrib:1', 'kashif:12', 'kashif:12#2' for a repeated number
    source_id    text NOT NULL REFERENCES source,
    entry_number text,
    page         text,                          -- OpenITI page milestone, e.g. 'PageV01P076'
    headword     text,
    text         text NOT NULL,
    grade_term   text,                          -- Taqrib only: Ibn Hajar's verdict read whole (ingest/verdicts.py)
    tabaqa       integer                        -- Taqrib only
);

CREATE TABLE narrator_notice_link (
    narrator_id  integer NOT NULL REFERENCES narrator,
    notice_id    integer NOT NULL REFERENCES rijal_notice,
    status       text NOT NULL CHECK (status IN ('LINKED', 'AMBIGUOUS', 'CONFLICTED')),
    method       text NOT NULL,
    confidence   double precision,
    source_id    text NOT NULL REFERENCES source, -- the file that proposed the link
    PRIMARY KEY (narrator_id, notice_id)
);
CREATE INDEX notice_link_notice_idx ON narrator_notice_link (notice_id);

CREATE TABLE scholarly_assertion (              -- a scholar's verdict on a narrator, with its locator
    narrator_id  integer NOT NULL REFERENCES narrator,
    field        text NOT NULL,                 -- 'ibn_hajar_verdict', 'ibn_hajar_tabaqa', 'dhahabi_verdict'
    value        text NOT NULL,
    scholar      text NOT NULL,
    source_id    text NOT NULL REFERENCES source,
    notice_id    integer REFERENCES rijal_notice,
    locator      text,
    source_key   text,
    PRIMARY KEY (narrator_id, field, source_id)
);

CREATE TABLE transmission_relation (            -- teacher -> student, as a source records it
    relation_id  integer PRIMARY KEY,
    teacher_id   integer NOT NULL REFERENCES narrator,
    student_id   integer NOT NULL REFERENCES narrator,
    status       text NOT NULL CHECK (status IN ('attested', 'probable', 'ambiguous', 'unresolved')),
    method       text NOT NULL,
    confidence   double precision,
    source_id    text NOT NULL REFERENCES source,
    source_key   text NOT NULL,
    UNIQUE (teacher_id, student_id, source_id),
    CHECK (status <> 'attested' OR source_key IS NOT NULL)
);
CREATE INDEX relation_student_idx ON transmission_relation (student_id, teacher_id);

-- chains -----------------------------------------------------------------------------------------

CREATE TABLE chain (
    chain_id       integer PRIMARY KEY,
    hadith_id      integer NOT NULL REFERENCES hadith,
    chain_number   integer NOT NULL,            -- 1-based within the hadith
    origin         text NOT NULL CHECK (origin IN ('dataset', 'parsed_isnad')),
    alignment_score double precision, -- dataset chains: the alignment's name-overlap score
    source_id      text NOT NULL REFERENCES source,
    source_key     text NOT NULL,
    UNIQUE (hadith_id, chain_number)
);

CREATE TABLE chain_node (
    node_id              integer PRIMARY KEY,
    chain_id             integer NOT NULL REFERENCES chain,
    position             integer NOT NULL,      -- 1 = the compiler's end
    narrator_id          integer REFERENCES narrator,
    mention_ar           text,
    transmission_term_ar text,
    resolution_status    text NOT NULL CHECK (resolution_status IN ('confirmed', 'probable', 'ambiguous', 'unresolved')),
    confidence           double precision,
    method               text NOT NULL,
    source_key           text NOT NULL,
    UNIQUE (chain_id, position),
    CHECK (resolution_status <> 'confirmed' OR narrator_id IS NOT NULL)
);
CREATE INDEX chain_node_narrator_idx ON chain_node (narrator_id, resolution_status);

CREATE TABLE chain_check (                      -- an integrity check a dataset chain fails (ingest/chain_checks.py)
    chain_id       integer NOT NULL REFERENCES chain,
    check_number   integer NOT NULL,            -- 1-based, in the order the checks run
    code           text NOT NULL CHECK (code IN ('repeated_narrator', 'order_against_text', 'narrator_missing',
                                                 'tahwil_flattened', 'co_narrators_flattened',
                                                 'no_companion_at_top', 'impossible_meeting',
                                                 'homonym_contradicted')),
    reason         text NOT NULL,
    PRIMARY KEY (chain_id, check_number)
);

-- derived at import ------------------------------------------------------------------------------

-- The lists the narrator tools page through, each in the order a tool lists it, with each row's rank in it:
-- filled by SQL (ingest/derived.py) from the tables above once they are written. No foreign keys: every row
-- is read from rows that passed theirs. A pair of narrators is keyed by its lower and its higher id.

CREATE TABLE profile_variant (                  -- narrator_name_variant, by narrator
    narrator_id          integer NOT NULL,
    variant_rank         integer NOT NULL,      -- 1-based among the narrator's, by kind, script, form, source_id
    form                 text NOT NULL,
    script               text NOT NULL,
    kind                 text NOT NULL,
    source_id            text NOT NULL,
    source_key           text,
    PRIMARY KEY (narrator_id, variant_rank)
);

CREATE TABLE profile_entry (                    -- narrator_notice_link with its rijal_notice, by narrator
    narrator_id          integer NOT NULL,
    entry_rank           integer NOT NULL,      -- 1-based: LINKED, AMBIGUOUS, CONFLICTED; confidence (highest,
                                                -- then none); entry_id
    notice_id            integer NOT NULL,
    entry_id             text NOT NULL,         -- the notice's
    text                 text NOT NULL,         -- the notice's
    page                 text,                  -- the notice's
    work_source_id       text NOT NULL,         -- the notice's source_id
    status               text NOT NULL,         -- the link's
    method               text NOT NULL,         -- the link's
    confidence           double precision,      -- the link's
    link_source_id       text NOT NULL,         -- the link's source_id
    PRIMARY KEY (narrator_id, entry_rank)
);

CREATE TABLE narrator_occurrence (              -- each chain node resolved 'confirmed', by narrator
    narrator_id          integer NOT NULL,
    occurrence_rank      integer NOT NULL,      -- 1-based among the narrator's, by hadith_id, chain_number, position
    hadith_id            integer NOT NULL,      -- the chain's
    canonical_reference  text NOT NULL,         -- the hadith's
    chain_id             integer NOT NULL,
    chain_source_id      text NOT NULL,         -- the chain's source_id and source_key
    chain_source_key     text NOT NULL,
    node_id              integer NOT NULL,
    position             integer NOT NULL,
    node_source_key      text NOT NULL,         -- the node's source_key
    PRIMARY KEY (narrator_id, occurrence_rank)
);
CREATE INDEX narrator_occurrence_hadith_idx ON narrator_occurrence (narrator_id, hadith_id); -- navigation's pages

CREATE TABLE pair_relation (                    -- transmission_relation, by the pair of its two narrators
    least_narrator_id    integer NOT NULL,
    greatest_narrator_id integer NOT NULL,
    relation_rank        integer NOT NULL,      -- 1-based: attested, probable, ambiguous, unresolved; source_id;
                                                -- teacher_id
    relation_id          integer NOT NULL,
    teacher_id           integer NOT NULL,
    student_id           integer NOT NULL,
    status               text NOT NULL,
    method               text NOT NULL,
    confidence           double precision,
    source_id            text NOT NULL,
    source_key           text NOT NULL,
    PRIMARY KEY (least_narrator_id, greatest_narrator_id, relation_rank),
    CHECK (least_narrator_id < greatest_narrator_id)
);

-- Two different narrators on adjacent nodes of a chain, both nodes 'confirmed' or 'probable'.
CREATE TABLE pair_observation (
    least_narrator_id    integer NOT NULL,
    greatest_narrator_id integer NOT NULL,
    observation_rank     integer NOT NULL,      -- 1-based among the pair's, by hadith_id, chain_id, lower position
    hadith_id            integer NOT NULL,      -- the chain's
    canonical_reference  text NOT NULL,         -- the hadith's
    chain_id             integer NOT NULL,
    chain_source_id      text NOT NULL,         -- the chain's source_id and source_key
    chain_source_key     text NOT NULL,
    upper_node_id        integer NOT NULL,      -- the node at position + 1: nearer the Prophet
    lower_node_id        integer NOT NULL,
    chain_checks_passed  boolean NOT NULL,      -- the chain fails no check of chain_check
    PRIMARY KEY (least_narrator_id, greatest_narrator_id, observation_rank),
    CHECK (least_narrator_id < greatest_narrator_id)
);

-- The reader's list of what a collection's texts come from (ingest/reading_order.py fills it, with the
-- hadith counts and first hadith of collection, book and chapter).
CREATE TABLE collection_source (                -- the records a collection's hadith rows come from, by role
    collection_id        integer NOT NULL,
    source_rank          integer NOT NULL,      -- 1-based: by role, source_id, edition_id
    role                 text NOT NULL,         -- a hadith_source_record role
    source_id            text NOT NULL,
    edition_id           text,
    hadith_count         integer NOT NULL,      -- the collection's hadith with a record of this role and edition
    PRIMARY KEY (collection_id, source_rank)
);

-- commentary -------------------------------------------------------------------------------------

CREATE TABLE commentary_passage (
    passage_id           integer PRIMARY KEY,
    source_id            text NOT NULL REFERENCES source,  -- the commentary work
    hadith_id            integer REFERENCES hadith,
    collection_id        integer NOT NULL REFERENCES collection,
    marker_no            text,                  -- the editor's [N] marker
    seq                  integer NOT NULL,
    passage_kind         text NOT NULL,         -- 'sharh' (a passage of a commentary on the hadith)
    heading              text,
    text                 text NOT NULL,
    page                 text,
    alignment_status     text NOT NULL,         -- 'lemma_verified', 'number_only', 'unresolved_number'
    alignment_confidence double precision,      -- a verified passage's: 1 - the share of the collection's hadith
                                                -- whose Arabic holds its quotation (ingest/commentary.py)
    validation_status    text NOT NULL CHECK (validation_status IN ('VALIDATED', 'UNVALIDATED')),
    publication_status   text NOT NULL CHECK (publication_status IN ('PUBLISHED', 'UNPUBLISHED')),
    source_key           text NOT NULL
);
CREATE INDEX passage_hadith_idx ON commentary_passage (hadith_id, source_id, seq);

-- The only commentary surface the API reads.
CREATE VIEW public_commentary_passage AS
    SELECT passage_id, source_id, hadith_id, collection_id, marker_no, seq, passage_kind, heading,
           text, page, alignment_status, alignment_confidence, source_key
      FROM commentary_passage
     WHERE publication_status = 'PUBLISHED' AND validation_status = 'VALIDATED';

-- takhrij ----------------------------------------------------------------------------------------

CREATE TABLE hadith_matn (                      -- the LK corpus's matn of a hadith (its isnad and matn split)
    hadith_id            integer PRIMARY KEY REFERENCES hadith,
    matn_ar_normalized   text NOT NULL,         -- app.arabic.normalize of the LK Arabic_Matn
    source_id            text NOT NULL REFERENCES source,
    source_key           text NOT NULL          -- the LK row
);

CREATE TABLE hadith_parallel (                  -- two hadith whose matns are the same report (ingest/parallels.py)
    hadith_id            integer NOT NULL REFERENCES hadith,
    parallel_rank        integer NOT NULL,      -- 1-based among the hadith's: similarity (highest first), then id
    parallel_hadith_id   integer NOT NULL REFERENCES hadith,
    similarity           double precision NOT NULL, -- shared content words over the shorter matn's
    PRIMARY KEY (hadith_id, parallel_rank),
    CHECK (hadith_id <> parallel_hadith_id)
);
