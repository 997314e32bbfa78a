"""The contract's JSON Schemas (schema/contract) as files: (b) valid draft 2020-12 schemas that keep the
contract's invariants; (c) each persisted document selects exactly the properties of the output schema, so no
contract field is forgotten or added silently; (d) each input schema names exactly the root field's arguments.
tests/schema/test_contract_schemas.py validates the API's responses against them.
"""

from collections.abc import Iterator
from importlib.resources import files
from typing import Any

import pytest
from graphql import (
    FieldNode,
    GraphQLArgument,
    GraphQLField,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLScalarType,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
    parse,
)
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from app.execution.framework import graphql_core_schema
from schema.build import build_schema
from schema.contract import TOOLS, input_schema, output_schema
from tests.graphql_client import PERSISTED, tool_document

Json = dict[str, Any]
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
EVIDENCE_STATUS = {"fact", "inference", "insufficient_evidence"}


# ---- (b) the schema files -----------------------------------------------------------------------


WEB_ENTRY_POINTS = ("collections", "collection", "random_hadith")  # the reader's, no tools: no contract schema


def _query_fields() -> dict[str, GraphQLField]:
    query = graphql_core_schema(build_schema()).query_type
    assert query is not None
    fields: dict[str, GraphQLField] = query.fields
    return fields


def _schema_files() -> list[str]:
    return sorted(entry.name for entry in files("schema.contract").iterdir() if entry.name.endswith(".json"))


def test_one_input_and_one_output_schema_per_tool() -> None:
    assert set(TOOLS) == {path.stem for path in PERSISTED.glob("*.graphql")}
    assert set(_query_fields()) == {*TOOLS, *WEB_ENTRY_POINTS}
    assert _schema_files() == sorted(f"{tool}.{kind}.json" for tool in TOOLS for kind in ("input", "output"))


@pytest.mark.parametrize("kind", ["input", "output"])
@pytest.mark.parametrize("tool", TOOLS)
def test_the_schema_files_are_valid_draft_2020_12(tool: str, kind: str) -> None:
    schema = input_schema(tool) if kind == "input" else output_schema(tool)
    assert schema["$schema"] == DRAFT_2020_12
    Draft202012Validator.check_schema(schema)


def _subschemas(node: Json, path: str = "") -> Iterator[tuple[str, Json]]:
    """Every schema that describes a value (not the conditions of an allOf), with its JSON pointer."""
    yield path, node
    for key in ("properties", "$defs"):
        for name, sub in node.get(key, {}).items():
            yield from _subschemas(sub, f"{path}/{key}/{name}")
    if "items" in node:
        yield from _subschemas(node["items"], f"{path}/items")


@pytest.mark.parametrize("tool", TOOLS)
def test_output_schemas_keep_the_contract_invariants(tool: str) -> None:
    schema = output_schema(tool)
    provenance = schema["$defs"]["provenance"]
    assert provenance["required"] == ["object_id", "object_type"]
    for path, node in _subschemas(schema):
        if "properties" in node:
            assert node.get("additionalProperties") is False, f"{path} accepts other properties"
            assert set(node["required"]) <= set(node["properties"]), path
        props = node.get("properties", {})
        if "evidence_status" in props:
            assert set(props["evidence_status"]["enum"]) <= EVIDENCE_STATUS, path
            if (tool, path) == ("get_transmission_relation", ""):
                # The contract's shape gives the overall status no provenance: it sums up the relations,
                # each of which carries its own.
                assert "provenance" not in props
                continue
            assert props["provenance"]["minItems"] == 1, f"{path}: a claim carries at least one provenance entry"
            assert props["provenance"]["items"] == {"$ref": "#/$defs/provenance"}, path
    bounds = {"results": 20, "chains": 20, "source_entries": 20, "items": 50, "relations": 20}
    bounds |= {"chain_observations": 20, "passages": 20}
    for name, most in bounds.items():
        if name in schema["properties"]:
            assert schema["properties"][name]["maxItems"] == most, name


@pytest.mark.parametrize("kind", ["input", "output"])
@pytest.mark.parametrize("tool", TOOLS)
def test_every_property_is_described(tool: str, kind: str) -> None:
    """The schemas are what an agent reads of a tool: each property says what it is."""
    schema = input_schema(tool) if kind == "input" else output_schema(tool)
    assert schema["description"].strip()
    undescribed = [
        f"{path}/properties/{name}"
        for path, node in _subschemas(schema)
        for name, sub in node.get("properties", {}).items()
        if not sub.get("description", "").strip()
    ]
    assert not undescribed, f"{tool}.{kind}: no description at {undescribed}"


@pytest.mark.parametrize("tool", TOOLS)
def test_input_limits_are_the_contract_bounds(tool: str) -> None:
    hard_max = {"get_narrator_hadiths": 50}.get(tool, 20)
    default = {"get_narrator_profile": 10, "get_narrator_hadiths": 10, "get_transmission_relation": 10}.get(tool, 5)
    properties = input_schema(tool)["properties"]
    for name in ("limit", "entry_limit"):
        if name in properties:
            assert properties[name]["type"] == ["integer", "null"]
            assert (properties[name]["minimum"], properties[name]["maximum"]) == (1, hard_max)
            assert properties[name]["default"] == default


# ---- (c) persisted documents select exactly the output schema's properties ----------------------


def _resolve(node: Json, root: Json) -> Json:
    ref = node.get("$ref")
    if ref is None:
        return node
    assert ref.startswith("#/$defs/"), ref
    resolved: Json = root["$defs"][ref.removeprefix("#/$defs/")]
    return resolved


def _schema_paths(node: Json, root: Json, prefix: str = "") -> Iterator[str]:
    """The dotted path of every property the schema lists, through arrays and nullable objects."""
    node = _resolve(node, root)
    types = node.get("type", [])
    types = {types} if isinstance(types, str) else set(types)
    if "array" in types:
        yield from _schema_paths(node["items"], root, prefix)
    elif "object" in types:
        for name, sub in node["properties"].items():
            yield f"{prefix}{name}"
            yield from _schema_paths(sub, root, f"{prefix}{name}.")


def _selected_paths(selection_set: SelectionSetNode | None, prefix: str = "") -> Iterator[str]:
    if selection_set is None:
        return
    for selection in selection_set.selections:
        assert isinstance(selection, FieldNode), "a persisted document spells its fields out: no fragments"
        assert selection.alias is None, f"{prefix}{selection.name.value} is aliased"
        name = selection.name.value
        yield f"{prefix}{name}"
        yield from _selected_paths(selection.selection_set, f"{prefix}{name}.")


def _root_field(tool: str) -> FieldNode:
    document = parse(tool_document(tool))
    assert len(document.definitions) == 1, "one operation per persisted document"
    operation = document.definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    assert operation.name is not None
    assert operation.name.value == tool
    (field,) = operation.selection_set.selections
    assert isinstance(field, FieldNode)
    assert field.name.value == tool
    assert field.alias is None
    return field


@pytest.mark.parametrize("tool", TOOLS)
def test_the_persisted_document_selects_exactly_the_output_schema(tool: str) -> None:
    schema = output_schema(tool)
    expected = list(_schema_paths(schema, schema))
    selected = list(_selected_paths(_root_field(tool).selection_set))
    assert len(selected) == len(set(selected)), f"{tool}: a field is selected twice"
    missing, extra = sorted(set(expected) - set(selected)), sorted(set(selected) - set(expected))
    assert not missing and not extra, f"{tool}: not selected: {missing}; not in the contract: {extra}"


# ---- (d) input schemas name exactly the root field's arguments -----------------------------------

JSON_TYPES = {"Int": "integer", "String": "string", "Boolean": "boolean", "Float": "number"}


def _json_type(type_: GraphQLInputType) -> str:
    named = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
    assert not isinstance(named, GraphQLList | GraphQLNonNull), "no list arguments in the contract"
    if isinstance(named, GraphQLInputObjectType):
        return "object"
    assert isinstance(named, GraphQLScalarType)
    return JSON_TYPES[named.name]


def _base_types(node: Json) -> set[str]:
    types = node["type"]
    return ({types} if isinstance(types, str) else set(types)) - {"null"}


def _check_arguments(where: str, arguments: dict[str, GraphQLArgument], schema: Json) -> None:
    assert set(schema["properties"]) == set(arguments), where
    required = {name for name, arg in arguments.items() if isinstance(arg.type, GraphQLNonNull)}
    assert set(schema.get("required", [])) == required, f"{where}: required arguments"
    for name, argument in arguments.items():
        assert _base_types(schema["properties"][name]) == {_json_type(argument.type)}, f"{where}.{name}"


@pytest.mark.parametrize("tool", TOOLS)
def test_the_input_schema_names_exactly_the_arguments(tool: str) -> None:
    field = _query_fields()[tool]
    schema = input_schema(tool)
    _check_arguments(tool, field.args, schema)
    for name, argument in field.args.items():
        named = argument.type.of_type if isinstance(argument.type, GraphQLNonNull) else argument.type
        if isinstance(named, GraphQLInputObjectType):
            fields = {key: GraphQLArgument(value.type) for key, value in named.fields.items()}
            _check_arguments(f"{tool}.{name}", fields, schema["properties"][name])


@pytest.mark.parametrize("tool", TOOLS)
def test_the_persisted_document_passes_every_argument_by_its_variable(tool: str) -> None:
    field = _root_field(tool)
    operation = parse(tool_document(tool)).definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    variables = {definition.variable.name.value for definition in operation.variable_definitions or ()}
    passed = {}
    for argument in field.arguments or ():
        assert isinstance(argument.value, VariableNode), f"{tool}.{argument.name.value} is not a variable"
        passed[argument.name.value] = argument.value.name.value
    properties = set(input_schema(tool)["properties"])
    assert variables == properties, tool
    assert passed == {name: name for name in properties}, tool
