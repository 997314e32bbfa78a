"""Data access: the only code of the API that knows table and column names, and the only SQL."""
