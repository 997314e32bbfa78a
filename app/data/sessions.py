"""The session settings every connection of the API needs, and how they reach its sessions.

Connected straight to PostgreSQL (`ISNAD_DATABASE_POOLER=none`), each connection asks for them as
startup parameters. Behind PgBouncer in transaction mode (`=transaction`), a server session serves many
clients in turn and PgBouncer passes on no startup parameter but `application_name` and a few of libpq's,
so the settings must be the role's own in the database (docs/production.md), which `serve` checks once
before it starts (app/data/pooled_sessions.py); and no prepared statement may outlive its transaction, so
asyncpg's statement cache is off. asyncpg then prepares each statement unnamed and parses it again in the
message batch that runs it (asyncpg 0.29 and later): nothing is left on a server session for another client
to collide with, and no statement runs where it was not parsed.
"""

from collections.abc import Mapping
from typing import Any

from app.settings import Settings

NAME_WORD_SIMILARITY = 0.75  # pg_trgm word_similarity of a query within a name form (the `<%` pre-filter;
# docs/performance.md says why 0.75: at 0.6 every «عبد الله بن ...» passed for «عبد الله بن نمير»)


def session_settings(settings: Settings) -> dict[str, str]:
    """What every API session needs, as PostgreSQL takes them in a startup packet."""
    return {
        "default_transaction_read_only": "on",
        "statement_timeout": str(settings.statement_timeout_ms),
        "search_path": search_path(settings),
        # The `<%` pre-filter of the narrator fuzzy tier uses this threshold, so the trigram index returns
        # the candidates that can be kept, not thousands more.
        "pg_trgm.word_similarity_threshold": str(NAME_WORD_SIMILARITY),
        # A search tier reads the first CANDIDATES rows that match, in the order the scan finds them. A scan
        # that joins one already running (a synchronized scan) or that parallel workers share finds them in
        # an order that changes from run to run; each scan starts at the table's first page instead, alone,
        # so that the same query gives the same answer (the importer stores the table in its key's order).
        "synchronize_seqscans": "off",
        "max_parallel_workers_per_gather": "0",
    }


def search_path(settings: Settings) -> str:
    return f"{settings.db_schema}, public"


def connect_arguments(application_name: str, wanted: Mapping[str, str], pooled: bool) -> dict[str, Any]:
    """asyncpg's arguments for a connection whose session needs the settings `wanted`: startup parameters
    when it reaches PostgreSQL itself; behind a transaction pooler, only its name, and no statement cache."""
    if not pooled:
        return {"server_settings": {"application_name": application_name, **wanted}}
    return {"server_settings": {"application_name": application_name}, "statement_cache_size": 0}
