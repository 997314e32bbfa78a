"""Compiled execution of query operations.

An operation of plain field selections (no fragment, no directive; aliases and arguments allowed) gets
a plan, built once from the document and the schema: for each selected field, the attribute to read
or the resolver to call, how to read each argument, and the serializer that graphql-core itself would
apply. Running a plan walks the results along the selection and calls the resolvers level by level,
each level's calls together (so that their DataLoaders batch them, as in graphql-core), which skips
graphql-core's per-field machinery. The output is the same bytes as normal execution
(tests/execution/test_compiled.py proves it over many real ids and documents); a plan that meets anything it
does not handle (an error, a null where the schema says non-null) gives way to normal execution.
"""

import asyncio
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, cast

import strawberry
from graphql import (
    GRAPHQL_MAX_INT,
    GRAPHQL_MIN_INT,
    FieldNode,
    GraphQLArgument,
    GraphQLBoolean,
    GraphQLEnumType,
    GraphQLID,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLString,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    value_from_ast,
)
from graphql.pyutils import Undefined
from strawberry.schema.schema_converter import CustomGraphQLEnumType
from strawberry.types.base import StrawberryObjectDefinition, StrawberryOptional
from strawberry.types.field import StrawberryField

from app.execution.context import Context
from app.execution.framework import graphql_core_schema

TYPENAME = "__typename"
Reader = Callable[[Mapping[str, Any]], Any]
UNCHANGED = ((GraphQLString, str), (GraphQLID, str), (GraphQLBoolean, bool))  # values these serialize to themselves


class NotCompiled(Exception):
    """The plan cannot give this answer; normal execution will."""


@dataclass(frozen=True)
class PlanInfo:
    """What the resolvers read of `info` (the request's context), without graphql-core's resolve info."""

    context: Context


Convert = Callable[["_Run", Any], Any]  # a field's value as read -> its value in the response


@dataclass(frozen=True)
class Field:
    key: str  # its key in the response: the alias, else the name
    convert: Convert
    read: Callable[[Any], Any] | None = None  # its value from the parent object, when it has no resolver
    resolver: Callable[..., Any] | None = None  # a field with a resolver of its own
    arguments: tuple[tuple[str, Reader], ...] = ()

    def call(self, parent: Any, info: PlanInfo, variables: Mapping[str, Any]) -> Any:
        kwargs = {name: read(variables) for name, read in self.arguments}
        resolver = cast(Callable[..., Any], self.resolver)
        return resolver(parent, info=info, **{name: v for name, v in kwargs.items() if v is not Undefined})


class _Run:
    """One run of a plan: the fields waiting for their resolvers, with the object each one fills."""

    def __init__(self, context: Context, variables: Mapping[str, Any]) -> None:
        self.info = PlanInfo(context)
        self.variables = variables
        self.waiting: list[tuple[dict[str, Any], Field, Any]] = []

    def object(self, fields: tuple[Field, ...], value: Any) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for field in fields:
            if field.read is not None:
                found[field.key] = field.convert(self, field.read(value))
            else:
                found[field.key] = None  # keeps the key's place until its resolver answers
                self.waiting.append((found, field, value))
        return found

    async def settle(self) -> None:
        """Call the waiting resolvers, one level of the tree at a time, each level's calls together. A level
        ends when all its calls have: none is cancelled midway through its statement."""
        while self.waiting:
            level, self.waiting = self.waiting, []
            for (found, field, _), result in zip(level, await self.answers(level), strict=True):
                found[field.key] = field.convert(self, result)

    async def answers(self, level: list[tuple[dict[str, Any], Field, Any]]) -> list[Any]:
        """The level's resolvers' answers; a lone call (a tool's root field) is awaited as it is, without
        the task that gathering would wrap it in."""
        calls = [_call(field, parent, self.info, self.variables) for _, field, parent in level]
        if len(calls) == 1:
            return [await calls[0]]
        results = await asyncio.gather(*calls, return_exceptions=True)
        failed = next((result for result in results if isinstance(result, BaseException)), None)
        if failed is not None:
            raise failed
        return results


async def _call(field: Field, parent: Any, info: PlanInfo, variables: Mapping[str, Any]) -> Any:
    value = field.call(parent, info, variables)
    return await value if inspect.isawaitable(value) else value


def _leaf(named: GraphQLScalarType | GraphQLEnumType) -> Convert:
    """The type's own serializer, with a shortcut for the values it would return unchanged."""
    serialize = named.serialize
    kept = next((python for graphql, python in UNCHANGED if graphql is named), None)
    if kept is not None:
        return lambda run, value: value if type(value) is kept else serialize(value)
    if named is GraphQLInt:
        return lambda run, value: (
            value if type(value) is int and GRAPHQL_MIN_INT <= value <= GRAPHQL_MAX_INT else serialize(value)
        )
    if isinstance(named, CustomGraphQLEnumType):
        names = _enum_names(named)
        return lambda run, value: names[value] if type(value) is named.wrapped_cls else serialize(value)
    return lambda run, value: serialize(value)


def _enum_names(enum: CustomGraphQLEnumType) -> dict[Any, str]:
    """What Strawberry's serializer answers for each member of the enum's class."""
    members: list[Any] = list(enum.wrapped_cls)
    return {member: enum.serialize(member) for member in members}


def _as_is(run: "_Run", value: Any) -> Any:
    return value


def _constant(value: str) -> Callable[[Any], str]:
    return lambda parent: value


def _object(fields: tuple[Field, ...]) -> Convert:
    return lambda run, value: run.object(fields, value)


def _wrapped(inner: Convert, nullable: bool, is_list: bool, key: str) -> Convert:
    """`inner` over a list's items or on the value itself; a null where the schema says non-null is
    left to normal execution (it answers the error)."""
    convert = (lambda run, value: [inner(run, item) for item in value]) if is_list else inner

    def wrapped(run: _Run, value: Any) -> Any:
        if value is None:
            if not nullable:
                raise NotCompiled(key)
            return None
        return convert(run, value)

    return wrapped


@dataclass(frozen=True)
class Plan:
    fields: tuple[Field, ...]  # the root fields

    async def run(self, context: Context, variables: Mapping[str, Any]) -> dict[str, Any]:
        run = _Run(context, variables)
        data = run.object(self.fields, None)
        await run.settle()
        return data


def _unwrap(graphql_type: Any) -> tuple[bool, bool, Any]:
    nullable = not isinstance(graphql_type, GraphQLNonNull)
    inner = graphql_type.of_type if not nullable else graphql_type
    is_list = isinstance(inner, GraphQLList)
    named = inner.of_type if is_list else inner
    named = named.of_type if isinstance(named, GraphQLNonNull) else named
    if isinstance(named, GraphQLList | GraphQLNonNull):
        raise NotCompiled("a list of lists")
    return nullable, is_list, named


def _argument_reader(node: Any, argument: GraphQLArgument, input_class: type | None) -> Reader:
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


def _resolver(field: StrawberryField) -> Callable[..., Any]:
    """The function a field's resolver wraps, when it takes (self, info, arguments) and nothing else."""
    resolver = field.base_resolver
    if resolver is None or field.extensions or field.permission_classes or field.directives:
        raise NotCompiled(field.python_name)
    if resolver.root_parameter or resolver.parent_parameter or (resolver.info_parameter or _NO_INFO).name != "info":
        raise NotCompiled(field.python_name)
    return cast(Callable[..., Any], resolver.wrapped_func)


_NO_INFO = inspect.Parameter("no_info", inspect.Parameter.POSITIONAL_OR_KEYWORD)


class _Builder:
    def __init__(self, schema: strawberry.Schema) -> None:
        self.schema = schema

    def definition(self, name: str) -> StrawberryObjectDefinition:
        found = self.schema.get_type_by_name(name)
        if not isinstance(found, StrawberryObjectDefinition):
            raise NotCompiled(name)
        return found

    def field(self, parent: GraphQLObjectType, node: FieldNode) -> Field:
        name = node.name.value
        key = node.alias.value if node.alias else name
        if node.directives:
            raise NotCompiled(name)
        if name == TYPENAME:
            return Field(key, _as_is, read=_constant(parent.name))
        strawberry_field = self.definition(parent.name).get_field(name)
        if strawberry_field is None or name not in parent.fields:
            raise NotCompiled(name)
        graphql_field = parent.fields[name]
        nullable, is_list, named = _unwrap(graphql_field.type)
        leaf = isinstance(named, GraphQLScalarType | GraphQLEnumType)
        inner = _leaf(named) if leaf else _object(self.fields(named, node.selection_set))
        convert = _wrapped(inner, nullable, is_list, key)
        if strawberry_field.base_resolver is None:
            if node.arguments:
                raise NotCompiled(name)
            return Field(key, convert, read=attrgetter(strawberry_field.python_name))
        types = {argument.python_name: argument.type for argument in strawberry_field.arguments}
        arguments = tuple(
            (
                a.name.value,
                _argument_reader(a.value, graphql_field.args[a.name.value], _input_class(types[a.name.value])),
            )
            for a in node.arguments or ()
        )
        resolver = _resolver(strawberry_field)
        return Field(key, convert, resolver=resolver, arguments=arguments)

    def fields(self, parent: GraphQLObjectType, selection: SelectionSetNode | None) -> tuple[Field, ...]:
        nodes = selection.selections if selection else ()
        if not all(isinstance(node, FieldNode) for node in nodes):
            raise NotCompiled("fragments")
        fields = tuple(self.field(parent, cast(FieldNode, node)) for node in nodes)
        if len({field.key for field in fields}) != len(fields):
            raise NotCompiled("a key selected twice")  # graphql-core merges those selections
        return fields


def compile_operation(schema: strawberry.Schema, operation: OperationDefinitionNode) -> Plan:
    """The plan of a query of plain field selections; raises NotCompiled for any other shape."""
    root = graphql_core_schema(schema).query_type
    if root is None or operation.operation is not OperationType.QUERY or operation.directives:
        raise NotCompiled("shape")
    return Plan(_Builder(schema).fields(root, operation.selection_set))
