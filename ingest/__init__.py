"""The database builder: the only code of the project that writes, and only to the database it builds."""
