"""schema.graphql, the committed SDL, is the schema the code builds; and the schema is the contract's.

The schema is read-only (no Mutation, no Subscription), its root Query has exactly the eight tools (then the
web's entry points), and everything a client reads in GraphiQL or introspection carries a description.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from graphql import GraphQLEnumType, GraphQLInputObjectType, GraphQLInterfaceType, GraphQLObjectType, GraphQLSchema

from app.execution.framework import graphql_core_schema
from schema import export
from schema.build import build_schema
from schema.contract import TOOLS

CONTRACT_TOOLS = set(TOOLS)


def graphql_schema() -> GraphQLSchema:
    return graphql_core_schema(build_schema())


def test_schema_graphql_is_the_schema_of_the_code() -> None:
    committed = export.SDL_PATH.read_text(encoding="utf-8") if export.SDL_PATH.exists() else ""
    assert committed == export.sdl(), (
        "schema.graphql differs from the schema the code builds: run `python -m schema.export` and commit it."
    )


def test_export_writes_the_file_and_check_tells_a_stale_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "schema.graphql"
    monkeypatch.setattr(export, "SDL_PATH", target)
    assert export.main(["--check"]) == 1  # missing
    assert export.main([]) == 0
    assert target.read_text(encoding="utf-8") == export.sdl()
    assert target.read_text(encoding="utf-8").endswith("}\n")
    assert export.main(["--check"]) == 0
    target.write_text(export.sdl() + "# edited\n", encoding="utf-8")
    assert export.main(["--check"]) == 1


def test_no_mutation_and_no_subscription() -> None:
    schema = graphql_schema()
    assert schema.mutation_type is None
    assert schema.subscription_type is None
    assert "Mutation" not in schema.type_map
    assert "Subscription" not in schema.type_map


def test_the_root_query_has_exactly_the_eight_tools_then_the_webs_entry_points() -> None:
    query = graphql_schema().query_type
    assert query is not None
    fields = list(query.fields)
    assert set(fields[:8]) == CONTRACT_TOOLS
    assert fields[8:] == ["collections", "collection", "random_hadith"]


def _own_types(schema: GraphQLSchema) -> Iterator[tuple[str, object]]:
    """The schema's own named types: not introspection's (__Schema ...)."""
    for name, type_ in schema.type_map.items():
        if not name.startswith("__"):
            yield name, type_


def _undescribed(text: str | None) -> bool:
    return not (text or "").strip()


def test_every_type_and_field_has_a_description() -> None:
    missing = []
    for name, type_ in _own_types(graphql_schema()):
        if _undescribed(getattr(type_, "description", None)):
            missing.append(f"type {name}")
        if isinstance(type_, GraphQLObjectType | GraphQLInterfaceType | GraphQLInputObjectType):
            missing += [f"field {name}.{f}" for f, field in type_.fields.items() if _undescribed(field.description)]
    assert not missing, "no description: " + ", ".join(missing)


def test_every_argument_has_a_description() -> None:
    missing = []
    for name, type_ in _own_types(graphql_schema()):
        if isinstance(type_, GraphQLObjectType | GraphQLInterfaceType):
            for field_name, field in type_.fields.items():
                missing += [
                    f"{name}.{field_name}({arg})"
                    for arg, argument in field.args.items()
                    if _undescribed(argument.description)
                ]
    assert not missing, "no description: " + ", ".join(missing)


def test_every_enum_value_has_a_description() -> None:
    missing = []
    for name, type_ in _own_types(graphql_schema()):
        if isinstance(type_, GraphQLEnumType):
            missing += [f"{name}.{value}" for value, enum in type_.values.items() if _undescribed(enum.description)]
    assert not missing, "no description: " + ", ".join(missing)
