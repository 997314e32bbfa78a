"""Automatic persisted queries (Apollo's APQ): the documents clients registered by hash, per process.

A client that may send free documents sends a hash alone; on `PersistedQueryNotFound` it sends the
hash with the full text, which is registered once its sha256 is checked and it has passed every check
a free document passes; later calls with the hash alone find it. The cache holds at most `size`
documents and forgets the least recently used first.
"""

from collections import OrderedDict

from app.errors import QueryRejected
from app.execution.persisted import document_id

HASH_MISMATCH = "provided sha does not match query"  # Apollo Server's words, which its clients know


def check_hash(hash_: str, text: str) -> None:
    """Refuse a text sent beside a hash that is not its sha256."""
    if document_id(text) != hash_:
        raise QueryRejected(HASH_MISMATCH)


class RegisteredDocuments:
    """The texts registered by hash, least recently used first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._texts: OrderedDict[str, str] = OrderedDict()

    def get(self, hash_: str) -> str | None:
        text = self._texts.get(hash_)
        if text is not None:
            self._texts.move_to_end(hash_)
        return text

    def register(self, hash_: str, text: str) -> None:
        """Keep `text` under its hash (checked by the caller), forgetting the oldest beyond `size`."""
        self._texts[hash_] = text
        self._texts.move_to_end(hash_)
        while len(self._texts) > self.size:
            self._texts.popitem(last=False)
