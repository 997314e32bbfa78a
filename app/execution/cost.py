"""The cost of a GraphQL document, checked before any SQL runs.

Every list field's `limit` argument (literal or variable) is checked against the contract's bounds
(app/limits.py). Then the document is measured in the manner of GitHub's node limit (each list
counts its size times the sizes of the lists above it; a limit left out counts as its default) and
of IBM's cost specification / Shopify (an object costs 1, a scalar 0, a list multiplies what it
holds). Depth and aliases are measured on the same walk. Fragments are measured once each and
multiplied where they are spread, so the walk stays linear whatever the fragments repeat, and a
fragment cycle is refused instead of followed.

A field whose resolver reads the database adds its weight (`WEIGHTS`) each time it is called: the
database time one call claims, in units of one lookup by key, measured on the full database by
`bench/field_costs.py` (a search ~100 lookups). Introspection is measured like the rest: `__schema` and
`__type` are walked, their lists sized from the schema itself (`ListSizes`), so that an aliased
introspection bomb is refused while a client's full introspection query passes.

A measure depends on the document and on the values of the variables its limits read, nothing else:
`MeasureCache` keeps it by those, so a persisted document is walked once per limit value it is sent
with, not once per request.
"""

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    NullValueNode,
    OperationDefinitionNode,
    SchemaMetaFieldDef,
    SelectionSetNode,
    TypeMetaFieldDef,
    ValueNode,
    VariableNode,
)
from graphql.execution.values import get_variable_values

from app import limits
from app.errors import InvalidInput, QueryRejected
from app.execution.list_sizes import FIXED_LIST_SIZE, ListSizes, Sized

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
    ("NarratorProfile", "teachers"): (limits.NARRATOR_RELATIONS, frozenset({"items"})),
    ("NarratorProfile", "students"): (limits.NARRATOR_RELATIONS, frozenset({"items"})),
    ("Collection", "books"): (limits.READING_LIST, frozenset({"items"})),
    ("Book", "chapters"): (limits.READING_LIST, frozenset({"items"})),
    ("Book", "hadiths"): (limits.READING_HADITH, frozenset({"items"})),
    ("Chapter", "hadiths"): (limits.READING_HADITH, frozenset({"items"})),
    ("Hadith", "parallels"): (limits.NAVIGATION, frozenset({"items"})),
    ("Hadith", "isnad_tree"): (limits.NAVIGATION, frozenset({"versions"})),
}
# The database time of one call of a field's resolver, in units of one lookup by key (get_hadith's median,
# 0.40 ms), to the nearest: medians of bench/field_costs.py on the full database (README, "Limits"). A
# navigation field is batched (one statement for all its calls): under half a lookup a call, it adds
# nothing to the 1 its object costs.
WEIGHTS: Mapping[tuple[str, str], int] = {
    ("Query", "search_hadith"): 100,
    ("Query", "search_narrator"): 100,
    ("Query", "get_hadith"): 1,
    ("Query", "get_hadith_chains"): 1,
    ("Query", "get_narrator_profile"): 2,
    ("Query", "get_narrator_hadiths"): 1,
    ("Query", "get_transmission_relation"): 1,
    ("Query", "get_hadith_commentary"): 1,
    ("Hadith", "chains"): 1,
    ("Hadith", "grades"): 1,
    ("Hadith", "parallels"): 1,
    ("Hadith", "isnad_tree"): 2,
    ("NarratorSummary", "hadiths"): 2,
    ("NarratorHit", "narrator"): 1,
    # The reader's fields (not yet measured by bench/field_costs.py): one per statement they run, as the
    # navigation above measured at about a lookup each.
    ("Query", "collections"): 1,
    ("Query", "random_hadith"): 2,
    ("Collection", "sources"): 1,
    ("Collection", "books"): 1,
    ("Collection", "book"): 1,
    ("Collection", "hadith"): 2,
    ("Book", "chapters"): 1,
    ("Book", "chapter"): 1,
    ("Book", "hadiths"): 2,
    ("Chapter", "hadiths"): 2,
    ("Hadith", "previous"): 1,
    ("Hadith", "next"): 1,
    # A narrator's teachers and students (not yet measured by bench/field_costs.py): one statement each, which
    # reads and ranks all his relations on that side through an index (EXPLAIN ANALYZE on the test subset: about
    # 1 ms for Yahya bin Sa'id's 84 teachers, 1.8 to 6 ms for the 417 of the narrator who has the most).
    ("NarratorProfile", "teachers"): 2,
    ("NarratorProfile", "students"): 2,
}
META_FIELDS: Mapping[str, GraphQLField] = {
    "__schema": SchemaMetaFieldDef,
    "__type": TypeMetaFieldDef,
}  # on the query type only


@dataclass(frozen=True)
class CostLimits:
    max_nodes: int
    max_cost: int
    max_depth: int
    max_aliases: int


@dataclass(frozen=True)
class Measure:
    """A selection's size, for one instance of its parent: nodes, cost, depth, aliases. Inside a walk,
    nodes and cost may be fractional (averages below `__schema`); a measured operation's are whole."""

    nodes: float = 0
    cost: float = 0
    depth: int = 0
    aliases: int = 0

    def __add__(self, other: "Measure") -> "Measure":
        return Measure(
            self.nodes + other.nodes,
            self.cost + other.cost,
            max(self.depth, other.depth),
            self.aliases + other.aliases,
        )

    def times(self, factor: float) -> "Measure":
        """The measure of `factor` instances of a list's items: aliases are written once, not per item."""
        return Measure(self.nodes * factor, self.cost * factor, self.depth, self.aliases)


class _Walk:
    def __init__(
        self,
        schema: GraphQLSchema,
        sizes: ListSizes,
        fragments: Mapping[str, FragmentDefinitionNode],
        variables: Mapping[str, Any],
    ) -> None:
        self.schema = schema
        self.sizes = sizes
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
        definition = self._definition(parent, node.name.value)
        aliases = int(node.alias is not None)
        if definition is None:  # __typename
            return Measure(aliases=aliases)
        size, is_list, named, children = self._shape(parent, node, definition.type, dict(sized))
        if size == 0:  # a list known empty, an ofType known null: nothing below is resolved
            return Measure(depth=1, aliases=aliases)
        inner = Measure()
        if isinstance(named, GraphQLObjectType):
            inner = self.selection(named, node.selection_set, children)
        own = Measure(
            nodes=size if is_list else 0,
            cost=(size if isinstance(named, GraphQLObjectType) else 0) + WEIGHTS.get((parent.name, node.name.value), 0),
            depth=inner.depth + 1,
            aliases=aliases,
        )
        return own + inner.times(size)

    def _definition(self, parent: GraphQLObjectType, name: str) -> GraphQLField | None:
        """The field's definition; `__schema` and `__type` on the query type too."""
        if parent is self.schema.query_type and name in META_FIELDS:
            return META_FIELDS[name]
        field: GraphQLField | None = parent.fields.get(name)
        return field

    def _shape(
        self, parent: GraphQLObjectType, node: FieldNode, field_type: Any, sized: dict[str, float]
    ) -> tuple[float, bool, Any, Sized]:
        """How many instances the field returns, whether it is a list, its named type, and the sizes it
        sets below it: for the lists of its result, and for lists further down (`name.list`)."""
        name = node.name.value
        key = (parent.name, name)
        unwrapped = field_type.of_type if isinstance(field_type, GraphQLNonNull) else field_type
        is_list = isinstance(unwrapped, GraphQLList)
        named = unwrapped
        while isinstance(named, GraphQLList | GraphQLNonNull):
            named = named.of_type
        size = sized.get(name, self.sizes.fixed.get(key, FIXED_LIST_SIZE) if is_list else 1)
        below = {  # the later win: what the parent passes down, then what this field sets, then the defaults
            **dict(self.sizes.of_type if named.name == "__Type" and name != "ofType" else ()),
            **dict(self.sizes.below.get(key, ())),
            **{inner.removeprefix(f"{name}."): n for inner, n in sized.items() if inner.startswith(f"{name}.")},
        }
        children = frozenset(below.items())
        if key in BOUNDED:
            bound, lists = BOUNDED[key]
            limit = self.limit(node, bound)
            size = limit if is_list else size
            children = frozenset((listed, limit) for listed in lists)
        return size, is_list, named, children


def _walk(
    schema: GraphQLSchema,
    sizes: ListSizes,
    operation: OperationDefinitionNode,
    fragments: Mapping[str, FragmentDefinitionNode],
    coerced: Mapping[str, Any],
) -> tuple[Measure, tuple[str, ...]]:
    """The operation's measure and the names of the variables it read."""
    root = schema.query_type
    if root is None:
        raise QueryRejected("The schema has no query type.")
    walk = _Walk(schema, sizes, fragments, coerced)
    found = walk.selection(root, operation.selection_set, frozenset())
    whole = Measure(_whole(found.nodes), _whole(found.cost), found.depth, found.aliases)
    return whole, tuple(sorted(walk.read))


def _whole(value: float) -> int:
    """A count made of averages, rounded up (after the float error of summing them)."""
    return math.ceil(round(value, 6))


class MeasureCache:
    """Measures by operation and by the values of the variables they read (coerced `Int` limits).

    An operation is measured in full the first time it comes with given limit values; a walk that raises
    (a limit over its bound, a fragment cycle) is never kept, so it raises again every time."""

    MAX_ENTRIES = 10_000

    def __init__(self, schema: GraphQLSchema) -> None:
        self.schema = schema
        self.sizes = ListSizes(schema)
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
        found, reads = _walk(self.schema, self.sizes, operation, fragments, coerced)
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
