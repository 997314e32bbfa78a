"""The version of the reference database's schema (ingest/schema.sql), which the importer and the API share: the
importer records it in `import_run`, and the API serves only a database of this version (app/data/data_version.py).

Bump it with any change of the statements of ingest/schema.sql (tests/ingest/test_schema_version.py holds the
fingerprint of the statements this version names)."""

SCHEMA_VERSION = 3
