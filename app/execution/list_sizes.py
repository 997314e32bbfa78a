"""The sizes of the lists that no argument sizes, for the cost of a document (app/execution/cost.py): the
fixed ones, and introspection's, read from the schema itself.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLUnionType,
    get_introspection_query,
    graphql_sync,
)

from app import limits

# Lists whose size no argument sets, at the most they hold: a chain has at most 18 nodes in the data,
# a profile lists up to NAME_VARIANTS_MAX name forms, a claim a handful of provenance entries.
# An isnad tree of 20 parallels holds at most 25 chains (a hadith at most 5), 88 nodes and 96 edges on the full
# data; a node has at most the 4 statuses.
TREE_CHAINS_MAX = 25
TREE_SIZES: Mapping[tuple[str, str], int] = {
    ("IsnadTree", "nodes"): 88,
    ("IsnadTree", "edges"): 96,
    ("IsnadTree", "chains"): TREE_CHAINS_MAX,
    ("TreeNode", "resolution_statuses"): 4,
    ("TreeChain", "node_keys"): 20,
    ("TreeVersion", "chain_ids"): 5,
    ("TreeVersion", "differences"): limits.WORDING_DIFFERENCES_MAX,
    ("Madar", "unidentified_chain_ids"): TREE_CHAINS_MAX,
    ("Madar", "provenance"): TREE_CHAINS_MAX,
}
FIXED_SIZES: Mapping[tuple[str, str], int] = {
    ("Chain", "nodes"): 20,
    ("NarratorIdentity", "variants"): limits.NAME_VARIANTS_MAX,
    **TREE_SIZES,
}
FIXED_LIST_SIZE = 10
# Every option of graphql-js's getIntrospectionQuery on: the most a client's introspection selects.
FULL_INTROSPECTION = {
    "descriptions": True,
    "specified_by_url": True,
    "directive_is_repeatable": True,
    "schema_description": True,
    "input_value_deprecation": True,
    "one_of": True,
}
Sized = frozenset[tuple[str, float]]  # a list's name (or `list.list` below it) and its size


class ListSizes:
    """The sizes of the lists that no argument sizes: the fixed ones above, and introspection's, read
    from the schema.

    Under `__schema`, each list or object counts, per instance of its parent, the average that the
    schema's full introspection holds there (e.g. `types.fields`: 254 fields over 63 types, 4.03 a type), so
    that the whole introspection query counts what it answers, not its types times the largest type. A
    `__Type` reached alone (`__type`, or beyond what that query selects) counts the largest list of any
    type, and `ofType` is an object as deep as the schema's deepest wrapping (`[X!]!`: three), null below.
    """

    def __init__(self, schema: GraphQLSchema) -> None:
        types = list(schema.type_map.values())
        shaped = [t for t in types if isinstance(t, GraphQLObjectType | GraphQLInterfaceType)]
        fields = [f for t in shaped for f in t.fields.values()]
        self.fixed: dict[tuple[str, str], int] = {
            **FIXED_SIZES,
            ("__Type", "fields"): max(len(t.fields) for t in shaped),
            ("__Type", "inputFields"): max(
                (len(t.fields) for t in types if isinstance(t, GraphQLInputObjectType)), default=0
            ),
            ("__Type", "enumValues"): max((len(t.values) for t in types if isinstance(t, GraphQLEnumType)), default=0),
            ("__Type", "interfaces"): max(len(t.interfaces) for t in shaped),
            ("__Type", "possibleTypes"): max(_possible_types(schema, t) for t in types),
            ("__Field", "args"): max(len(f.args) for f in fields),
        }
        self.below: dict[tuple[str, str], Sized] = {("Query", "__schema"): _introspection_averages(schema)}
        deepest = max(_wrappers(f.type) for f in _typed(schema))
        self.of_type: Sized = frozenset(
            {*(("ofType" + ".ofType" * k, 1) for k in range(deepest)), ("ofType" + ".ofType" * deepest, 0)}
        )


def _introspection_averages(schema: GraphQLSchema) -> Sized:
    """Per path below `__schema`: how many it holds per instance of its parent in the full introspection."""
    result = graphql_sync(schema, get_introspection_query(**FULL_INTROSPECTION))
    counts: dict[str, int] = {}
    _count((result.data or {})["__schema"], "", counts)
    return frozenset((path, n / counts.get(path.rpartition(".")[0], 1) if n else 0) for path, n in counts.items())


def _count(value: Mapping[str, Any], path: str, counts: dict[str, int]) -> None:
    """Add the objects and list items under `value` to `counts`, by path (`types.fields.args`)."""
    for key, held in value.items():
        below = f"{path}.{key}" if path else key
        items = held if isinstance(held, list) else [] if held is None else [held]
        if isinstance(held, list | dict) or held is None:
            counts[below] = counts.get(below, 0) + len(items)
        for item in items:
            if isinstance(item, dict):
                _count(item, below, counts)


def _possible_types(schema: GraphQLSchema, named: Any) -> int:
    return len(schema.get_possible_types(named)) if isinstance(named, GraphQLInterfaceType | GraphQLUnionType) else 0


def _typed(schema: GraphQLSchema) -> Iterable[Any]:
    """Every field, argument and input field of the schema: what carries a (possibly wrapped) type."""
    for named in schema.type_map.values():
        if isinstance(named, GraphQLObjectType | GraphQLInterfaceType):
            for field in named.fields.values():
                yield field
                yield from field.args.values()
        elif isinstance(named, GraphQLInputObjectType):
            yield from named.fields.values()


def _wrappers(field_type: Any) -> int:
    """How many NonNull and List wrap the named type."""
    return 1 + _wrappers(field_type.of_type) if isinstance(field_type, GraphQLList | GraphQLNonNull) else 0
