"""The text rules: Arabic normalization, Latin folding, citations of references; shared by the API and the importer."""
