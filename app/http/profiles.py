"""Client profiles: who may send free GraphQL documents and who only the persisted ones.

A profile is chosen by the `X-API-Key` header, compared in constant time against the configured keys
(ISNAD_API_KEYS = "name:mode:key,..."); a request without a key gets the default profile
(ISNAD_DEFAULT_CLIENT_MODE, free documents unless set to persisted). Keys are never logged.
"""

import hmac
from dataclasses import dataclass, field

from app.errors import QueryRejected

PERSISTED = "persisted"
FREE = "free"
MODES = (PERSISTED, FREE)
API_KEY_HEADER = "x-api-key"


@dataclass(frozen=True)
class Profile:
    name: str
    persisted_only: bool


@dataclass(frozen=True)
class _Key:
    profile: Profile
    secret: bytes = field(repr=False)


class Profiles:
    def __init__(self, keys: str, default_mode: str) -> None:
        self.default = Profile("default", default_mode == PERSISTED)
        self._keys = [self._parse(entry) for entry in keys.split(",") if entry.strip()]

    @staticmethod
    def _parse(entry: str) -> _Key:
        name, mode, secret = (part.strip() for part in [*entry.split(":", 2), "", ""][:3])
        if not name or mode not in MODES or not secret:
            raise SystemExit("ISNAD_API_KEYS entries must read name:persisted|free:key")
        return _Key(Profile(name, mode == PERSISTED), secret.encode())

    @property
    def names(self) -> frozenset[str]:
        """Every profile's name, the default's included."""
        return frozenset({self.default.name, *(key.profile.name for key in self._keys)})

    def for_key(self, key: str | None) -> Profile:
        """The profile of an API key; an unknown key is refused, never treated as anonymous."""
        if key is None:
            return self.default
        given = key.encode()
        found = None
        for candidate in self._keys:  # every key is compared, so the time does not tell which matched
            if hmac.compare_digest(candidate.secret, given):
                found = candidate.profile
        if found is None:
            raise QueryRejected("Unknown API key.")
        return found
