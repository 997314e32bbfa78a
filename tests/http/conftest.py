"""What the tests of the HTTP edge share: a wait for a condition while requests progress, a transport that
records what a protocol does to it, and a clock for admission that moves only when a test moves it."""

import asyncio
import math
from collections.abc import Callable
from typing import Any

import pytest

from app.http import admission
from app.http.admission import Places


async def eventually(condition: Callable[[], bool]) -> None:
    """Wait until `condition` holds, letting the requests in flight progress; fail after 1,000 turns."""
    for _ in range(1_000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


class Transport(asyncio.Transport):
    """What the protocol writes, and whether it reads."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.reading = True
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += bytes(data)

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("192.0.2.7", 40000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


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
