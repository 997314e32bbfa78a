"""All the read-only checks, as one report: each check with its verdict and what it saw."""

from dataclasses import dataclass
from pathlib import Path

from app.data.database import create_engine
from app.execution.framework import graphql_core_schema
from app.settings import Settings
from migrations_readonly_check import live, static
from schema.build import build_schema

SHIPPED_MIGRATION_DIRS = ("migrations", "alembic", "app/migrations")


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    detail: str


def code_checks(root: Path) -> list[Check]:
    findings = static.scan(root)
    schema = graphql_core_schema(build_schema())
    roots = [name for name, t in (("Mutation", schema.mutation_type), ("Subscription", schema.subscription_type)) if t]
    unknown = live.undocumented_reads()
    shipped = [d for d in SHIPPED_MIGRATION_DIRS if (root / d).exists()]
    return [
        Check("no write in app/, schema/, resolvers/", not findings, "; ".join(map(str, findings)) or "none found"),
        Check("no Mutation, no Subscription", not roots, ", ".join(roots) or "Query only"),
        Check("reads only what ingest/schema.sql creates", not unknown, ", ".join(unknown) or "all documented"),
        Check("ships no migration of its own", not shipped, ", ".join(shipped) or "none"),
    ]


async def database_checks(settings: Settings, url: str) -> list[Check]:
    engine = create_engine(settings, url)
    try:
        read_only = await live.transaction_read_only(engine)
        sqlstate = await live.write_sqlstate(engine)
    finally:
        await engine.dispose()
    return [
        Check("every API transaction is READ ONLY", read_only == "on", f"transaction_read_only = {read_only}"),
        Check(
            "a write through the API's engine fails with 25006",
            sqlstate == live.READ_ONLY_SQLSTATE,
            f"SQLSTATE {sqlstate}",
        ),
    ]
