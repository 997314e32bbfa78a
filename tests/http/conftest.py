"""What the tests of the HTTP edge share: a clock for admission that moves only when a test moves it."""

import math

import pytest

from app.http import admission
from app.http.admission import Places


class Clock:
    """A `time` module for admission whose monotonic clock moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(admission, "time", clock)
    return clock


def overload(places: Places, clock: Clock, seconds: float, every: float) -> list[int]:
    """Refuse a request every `every` seconds for `seconds`, then once more; each refusal's Retry-After."""
    steps = math.ceil(seconds / every)
    waits = []
    for _ in range(steps):
        waits.append(places.refuse("queue_full"))
        clock.now += every
    return [*waits, places.refuse("queue_full")]
