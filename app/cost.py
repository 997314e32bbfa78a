"""The cost of a GraphQL document, checked before any SQL runs.

Every list field's `limit` argument (literal or variable) is checked against the contract's bounds
(app/limits.py). Then the document is measured in the manner of GitHub's node limit (each list
counts its size times the sizes of the lists above it; a limit left out counts as its default) and
of IBM's cost specification / Shopify (an object costs 1, a scalar 0, a list multiplies what it
holds). Depth and aliases are measured on the same walk. Fragments are measured once each and
multiplied where they are spread, so the walk stays linear whatever the fragments repeat, and a
fragment cycle is refused instead of followed.

A measure depends on the document and on the values of the variables its limits read, nothing else:
`MeasureCache` keeps it by those, so a persisted document is walked once per limit value it is sent
with, not once per request.
"""

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    NullValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValueNode,
    VariableNode,
)
from graphql.execution.values import get_variable_values

from app import limits
from app.errors import InvalidInput, QueryRejected

# (type, field) -> the bound of its `limit`-like argument, and the lists of its result that it sizes.
BOUNDED: Mapping[tuple[str, str], tuple[limits.ListBound, frozenset[str]]] = {
    ("Query", "search_hadith"): (limits.SEARCH_HADITH, frozenset({"results"})),
    ("Query", "get_hadith_chains"): (limits.HADITH_CHAINS, frozenset({"chains"})),
    ("Query", "search_narrator"): (limits.SEARCH_NARRATOR, frozenset({"results"})),
    ("Query", "get_narrator_profile"): (limits.NARRATOR_ENTRIES, frozenset({"source_entries"})),
    ("Query", "get_narrator_hadiths"): (limits.NARRATOR_HADITHS, frozenset({"items"})),
    ("Query", "get_transmission_relation"): (
        limits.TRANSMISSION_RELATION,
        frozenset({"relations", "chain_observations"}),
    ),
    ("Query", "get_hadith_commentary"): (limits.HADITH_COMMENTARY, frozenset({"passages"})),
    ("Hadith", "chains"): (limits.HADITH_CHAINS, frozenset({"chains"})),
    ("Hadith", "grades"): (limits.NAVIGATION, frozenset({"items"})),
    ("NarratorSummary", "hadiths"): (limits.NAVIGATION, frozenset({"items"})),
}
# Lists whose size no argument sets, at the most they hold: a chain has at most 18 nodes in the data,
# a profile lists up to NAME_VARIANTS_MAX name forms, a claim a handful of provenance entries.
FIXED_SIZES: Mapping[tuple[str, str], int] = {
    ("Chain", "nodes"): 20,
    ("NarratorIdentity", "variants"): limits.NAME_VARIANTS_MAX,
}
FIXED_LIST_SIZE = 10
Sized = frozenset[tuple[str, int]]


@dataclass(frozen=True)
class CostLimits:
    max_nodes: int
    max_cost: int
    max_depth: int
    max_aliases: int


@dataclass(frozen=True)
class Measure:
    """A selection's size, for one instance of its parent: nodes, cost, depth, aliases."""

    nodes: int = 0
    cost: int = 0
    depth: int = 0
    aliases: int = 0

    def __add__(self, other: "Measure") -> "Measure":
        return Measure(
            self.nodes + other.nodes,
            self.cost + other.cost,
            max(self.depth, other.depth),
            self.aliases + other.aliases,
        )

    def times(self, factor: int) -> "Measure":
        """The measure of `factor` instances of a list's items: aliases are written once, not per item."""
        return Measure(self.nodes * factor, self.cost * factor, self.depth, self.aliases)


class _Walk:
    def __init__(
        self, schema: GraphQLSchema, fragments: Mapping[str, FragmentDefinitionNode], variables: Mapping[str, Any]
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.measured: dict[tuple[str, Sized], Measure] = {}
        self.open: set[str] = set()
        self.read: set[str] = set()  # the variables the measure depends on

    def argument_value(self, node: ValueNode | None) -> Any:
        if node is None or isinstance(node, NullValueNode):
            return None
        if isinstance(node, VariableNode):
            self.read.add(node.name.value)
            return self.variables.get(node.name.value)
        if isinstance(node, IntValueNode):
            return int(node.value)
        return None

    def limit(self, field: FieldNode, bound: limits.ListBound) -> int:
        argument = next((a for a in field.arguments or () if a.name.value == bound.argument), None)
        value = self.argument_value(argument.value if argument else None)
        if value is not None and not isinstance(value, int):
            raise InvalidInput(f"{bound.argument} must be an integer.")
        return bound.resolve(value)

    def selection(self, parent: GraphQLObjectType, selections: SelectionSetNode | None, sized: Sized) -> Measure:
        total = Measure()
        for node in selections.selections if selections else ():
            if isinstance(node, FieldNode):
                total += self.field(parent, node, sized)
            elif isinstance(node, InlineFragmentNode):
                condition = node.type_condition
                target = self.schema.get_type(condition.name.value) if condition else parent
                inline_parent = target if isinstance(target, GraphQLObjectType) else parent
                total += self.selection(inline_parent, node.selection_set, sized)
            elif isinstance(node, FragmentSpreadNode):
                total += self.fragment(node.name.value, sized)
        return total

    def fragment(self, name: str, sized: Sized) -> Measure:
        if name in self.open:
            raise QueryRejected(f"Fragment {name} spreads itself.")
        key = (name, sized)
        if key not in self.measured:
            definition = self.fragments.get(name)
            if definition is None:
                raise QueryRejected(f"Unknown fragment {name}.")
            target = self.schema.get_type(definition.type_condition.name.value)
            if not isinstance(target, GraphQLObjectType):
                raise QueryRejected(f"Fragment {name} is not on an object type.")
            self.open.add(name)
            self.measured[key] = self.selection(target, definition.selection_set, sized)
            self.open.discard(name)
        return self.measured[key]

    def field(self, parent: GraphQLObjectType, node: FieldNode, sized: Sized) -> Measure:
        definition = parent.fields.get(node.name.value)
        if definition is None:  # __typename and introspection fields cost nothing
            return Measure(aliases=int(node.alias is not None))
        size, is_list, named, children = self._shape(parent, node, definition.type, dict(sized))
        inner = Measure()
        if isinstance(named, GraphQLObjectType):
            inner = self.selection(named, node.selection_set, children)
        own = Measure(
            nodes=size if is_list else 0,
            cost=size if isinstance(named, GraphQLObjectType) else 0,
            depth=inner.depth + 1,
            aliases=int(node.alias is not None),
        )
        return own + inner.times(size)

    def _shape(
        self, parent: GraphQLObjectType, node: FieldNode, field_type: Any, sized: dict[str, int]
    ) -> tuple[int, bool, Any, Sized]:
        """How many instances the field returns, whether it is a list, its named type, and the sizes it
        sets for the lists of its result."""
        key = (parent.name, node.name.value)
        unwrapped = field_type.of_type if isinstance(field_type, GraphQLNonNull) else field_type
        is_list = isinstance(unwrapped, GraphQLList)
        named = unwrapped
        while isinstance(named, GraphQLList | GraphQLNonNull):
            named = named.of_type
        size = sized.get(node.name.value) or FIXED_SIZES.get(key, FIXED_LIST_SIZE) if is_list else 1
        children: Sized = frozenset()
        if key in BOUNDED:
            bound, lists = BOUNDED[key]
            limit = self.limit(node, bound)
            size = limit if is_list else size
            children = frozenset((name, limit) for name in lists)
        return size, is_list, named, children


def _walk(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: Mapping[str, FragmentDefinitionNode],
    coerced: Mapping[str, Any],
) -> tuple[Measure, tuple[str, ...]]:
    """The operation's measure and the names of the variables it read."""
    root = schema.query_type
    if root is None:
        raise QueryRejected("The schema has no query type.")
    walk = _Walk(schema, fragments, coerced)
    return walk.selection(root, operation.selection_set, frozenset()), tuple(sorted(walk.read))


class MeasureCache:
    """Measures by operation and by the values of the variables they read (coerced `Int` limits).

    An operation is measured in full the first time it comes with given limit values; a walk that raises
    (a limit over its bound, a fragment cycle) is never kept, so it raises again every time."""

    MAX_ENTRIES = 10_000

    def __init__(self, schema: GraphQLSchema) -> None:
        self.schema = schema
        self._reads: dict[Hashable, tuple[str, ...]] = {}
        self._found: dict[tuple[Hashable, tuple[Any, ...]], Measure] = {}

    def measure(
        self,
        key: Hashable,
        operation: OperationDefinitionNode,
        fragments: Mapping[str, FragmentDefinitionNode],
        coerced: Mapping[str, Any],
    ) -> Measure:
        """The measure of `operation` (known to the cache as `key`) with these coerced variables."""
        reads = self._reads.get(key)
        if reads is not None:
            found = self._found.get((key, _values(reads, coerced)))
            if found is not None:
                return found
        found, reads = _walk(self.schema, operation, fragments, coerced)
        if len(self._found) >= self.MAX_ENTRIES:
            self._found.clear()
            self._reads.clear()
        self._reads[key] = reads
        self._found[(key, _values(reads, coerced))] = found
        return found


def _values(names: tuple[str, ...], coerced: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(coerced.get(name) for name in names)


def coerce_variables(
    schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Mapping[str, Any], suggestions: bool = False
) -> dict[str, Any]:
    """The variables as execution will see them (types coerced, defaults filled), or INVALID_INPUT (with
    "Did you mean ...?" only when `suggestions`)."""
    definitions = operation.variable_definitions or ()
    coerced = get_variable_values(schema, definitions, dict(variables), hide_suggestions=not suggestions)
    if isinstance(coerced, list):  # graphql-core's own messages name only the variable
        raise InvalidInput(coerced[0].message)
    return coerced.coerced


def check(found: Measure, allowed: CostLimits) -> None:
    """Refuse a document over any maximum, naming both figures."""
    over = [
        f"{name} {value} exceeds {maximum}"
        for name, value, maximum in (
            ("node count", found.nodes, allowed.max_nodes),
            ("cost", found.cost, allowed.max_cost),
            ("depth", found.depth, allowed.max_depth),
            ("aliases", found.aliases, allowed.max_aliases),
        )
        if value > maximum
    ]
    if over:
        raise QueryRejected(f"Query too costly: {'; '.join(over)} (nodes {found.nodes}, cost {found.cost}).")
