"""GraphQL documents, parsed and validated once: the persisted ones at start-up, free ones through
a bounded cache keyed by their text."""

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    DocumentNode,
    FragmentDefinitionNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
    parse,
    validate,
)

from app.errors import QueryRejected

FREE_DOCUMENT_CACHE = 1024


class DocumentRejected(Exception):
    """A document that cannot run: it does not parse (stage 'parse') or does not validate ('validation')."""

    def __init__(self, stage: str, errors: list[GraphQLError]) -> None:
        super().__init__(stage)
        self.stage = stage
        self.errors = errors


@dataclass(frozen=True)
class Prepared:
    text: str
    document: DocumentNode | None
    errors: tuple[GraphQLError, ...]
    stage: str  # 'ok', 'parse' or 'validation'
    fragments: dict[str, FragmentDefinitionNode] = field(default_factory=dict)

    @property
    def valid_document(self) -> DocumentNode:
        if self.errors or self.document is None:
            raise DocumentRejected(self.stage, list(self.errors))
        return self.document

    def operation(self, name: str | None) -> OperationDefinitionNode:
        """The operation to run: the named one, or the only one."""
        operations = [d for d in self.valid_document.definitions if isinstance(d, OperationDefinitionNode)]
        chosen = [op for op in operations if name is None or (op.name and op.name.value == name)]
        if len(chosen) != 1:
            raise QueryRejected("Name the operation to run (operationName)." if chosen else "Unknown operation.")
        return chosen[0]


def only_queries(prepared: Prepared, name: str | None) -> bool:
    """Whether the operations the request may run are queries (read before validation, which refuses
    any mutation of this schema, so that GET can answer 405 for one)."""
    if prepared.document is None:
        return True
    operations = [d for d in prepared.document.definitions if isinstance(d, OperationDefinitionNode)]
    named = [op for op in operations if name is None or (op.name and op.name.value == name)]
    return all(op.operation is OperationType.QUERY for op in named)


class Documents:
    def __init__(self, schema: GraphQLSchema, max_tokens: int, suggestions: bool = False) -> None:
        self.schema = schema
        self.max_tokens = max_tokens
        self.suggestions = suggestions  # "Did you mean ...?" in validation errors
        self._cache: OrderedDict[str, Prepared] = OrderedDict()

    def prepare(self, text: str) -> Prepared:
        """Parse and validate `text`, or return the result of doing so earlier."""
        cached = self._cache.get(text)
        if cached is not None:
            self._cache.move_to_end(text)
            return cached
        prepared = self._prepare(text)
        self._cache[text] = prepared
        if len(self._cache) > FREE_DOCUMENT_CACHE:
            self._cache.popitem(last=False)
        return prepared

    def _prepare(self, text: str) -> Prepared:
        try:
            document = parse(text, max_tokens=self.max_tokens)
        except GraphQLError as error:
            return Prepared(text, None, (error,), "parse")
        errors = validate(self.schema, document, hide_suggestions=not self.suggestions)
        fragments: dict[str, Any] = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        return Prepared(text, document, tuple(errors), "validation" if errors else "ok", fragments)
