"""Compiled execution of the persisted tool documents.

A persisted document is one root field with arguments and a fixed selection of plain fields below
it. Its plan is built once, at start-up, from the document and the schema: which resolver to call,
how to read each argument, and for each selected field the attribute to read and the serializer that
graphql-core itself would apply. Running a plan calls the tool's resolver and walks its result along
the selection, which skips graphql-core's per-field machinery. The output is the same bytes as
normal execution (tests/test_compiled.py proves it over many real ids); a plan that meets anything
it does not handle (an error, a null where the schema says non-null) gives way to normal execution.
"""

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import strawberry
from graphql import (
    FieldNode,
    GraphQLEnumType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
    value_from_ast,
)
from graphql.pyutils import Undefined
from strawberry.types.base import StrawberryObjectDefinition, StrawberryOptional

from app.context import Context


class NotCompiled(Exception):
    """The plan cannot give this answer; normal execution will."""


@dataclass(frozen=True)
class PlanInfo:
    """What the resolvers read of `info` (the request's context), without graphql-core's resolve info."""

    context: Context


@dataclass(frozen=True)
class Field:
    key: str
    nullable: bool
    is_list: bool
    serialize: Callable[[Any], Any] | None  # leaves
    fields: tuple["Field", ...]  # objects

    def render(self, value: Any) -> Any:
        if value is None:
            if not self.nullable:
                raise NotCompiled(self.key)
            return None
        if self.is_list:
            return [self._one(item) for item in value]
        return self._one(value)

    def _one(self, value: Any) -> Any:
        if self.serialize is not None:
            return self.serialize(value)
        return {field.key: field.render(getattr(value, field.key)) for field in self.fields}


@dataclass(frozen=True)
class Plan:
    root_key: str
    resolver: Callable[..., Awaitable[Any]]
    arguments: tuple[tuple[str, Callable[[Mapping[str, Any]], Any]], ...]
    result: Field

    async def run(self, context: Context, variables: Mapping[str, Any]) -> dict[str, Any]:
        kwargs = {name: read(variables) for name, read in self.arguments}
        kwargs = {name: value for name, value in kwargs.items() if value is not Undefined}
        value = await self.resolver(None, info=PlanInfo(context), **kwargs)
        return {self.root_key: self.result.render(value)}


def _unwrap(graphql_type: Any) -> tuple[bool, bool, Any]:
    nullable = not isinstance(graphql_type, GraphQLNonNull)
    inner = graphql_type.of_type if not nullable else graphql_type
    is_list = isinstance(inner, GraphQLList)
    named = inner
    while isinstance(named, GraphQLList | GraphQLNonNull):
        named = named.of_type
    return nullable, is_list, named


class _Builder:
    def __init__(self, schema: strawberry.Schema) -> None:
        self.schema = schema

    def definition(self, name: str) -> StrawberryObjectDefinition:
        found = self.schema.get_type_by_name(name)
        if not isinstance(found, StrawberryObjectDefinition):
            raise NotCompiled(name)
        return found

    def field(self, parent: GraphQLObjectType, node: FieldNode) -> Field:
        if node.alias or node.arguments or node.directives or node.name.value not in parent.fields:
            raise NotCompiled(node.name.value)
        strawberry_field = self.definition(parent.name).get_field(node.name.value)
        if strawberry_field is None or strawberry_field.base_resolver is not None:
            raise NotCompiled(node.name.value)  # a resolver field (navigation) runs through graphql-core
        nullable, is_list, named = _unwrap(parent.fields[node.name.value].type)
        if isinstance(named, GraphQLScalarType | GraphQLEnumType):
            return Field(node.name.value, nullable, is_list, named.serialize, ())
        return Field(node.name.value, nullable, is_list, None, self.fields(named, node.selection_set))

    def fields(self, parent: GraphQLObjectType, selection: SelectionSetNode | None) -> tuple[Field, ...]:
        nodes = selection.selections if selection else ()
        if not all(isinstance(node, FieldNode) for node in nodes):
            raise NotCompiled("fragments")
        return tuple(self.field(parent, cast(FieldNode, node)) for node in nodes)


def _argument_reader(node: Any, argument: Any, input_class: type | None) -> Callable[[Mapping[str, Any]], Any]:
    def read(variables: Mapping[str, Any]) -> Any:
        if isinstance(node, VariableNode):
            value = variables.get(node.name.value, Undefined)
        else:
            value = value_from_ast(node, argument.type, dict(variables))
        if value is Undefined and argument.default_value is not Undefined:
            value = argument.default_value
        return input_class(**value) if input_class is not None and isinstance(value, dict) else value

    return read


def _input_class(strawberry_type: Any) -> type | None:
    """The Strawberry input class an argument takes (its value arrives as a dict), if any."""
    inner = strawberry_type.of_type if isinstance(strawberry_type, StrawberryOptional) else strawberry_type
    return cast(type, inner) if hasattr(inner, "__strawberry_definition__") else None


def compile_operation(schema: strawberry.Schema, operation: OperationDefinitionNode) -> Plan:
    """The plan of a one-root-field query; raises NotCompiled for any other shape."""
    root_type = schema._schema.query_type
    nodes = operation.selection_set.selections
    if root_type is None or len(nodes) != 1 or not isinstance(nodes[0], FieldNode) or nodes[0].alias:
        raise NotCompiled("shape")
    node = nodes[0]
    builder = _Builder(schema)
    root = builder.definition(root_type.name).get_field(node.name.value)
    if root is None or root.base_resolver is None:
        raise NotCompiled(node.name.value)
    graphql_field = root_type.fields[node.name.value]
    types = {argument.python_name: argument.type for argument in root.arguments}
    arguments = tuple(
        (name, _argument_reader(a.value, graphql_field.args[name], _input_class(types[name])))
        for a in node.arguments or ()
        for name in (a.name.value,)
    )
    nullable, is_list, named = _unwrap(graphql_field.type)
    result = Field(node.name.value, nullable, is_list, None, builder.fields(named, node.selection_set))
    resolver = cast(Callable[..., Awaitable[Any]], root.base_resolver.wrapped_func)
    return Plan(node.name.value, resolver, arguments, result)
