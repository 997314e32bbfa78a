"""Imported by every Python process started with this folder on PYTHONPATH (bench/collector.py): times each
collection of Python's collector, by generation, and writes the figures as the process ends, to a JSON file in
ISNAD_COLLECTOR_DIR named by the process id."""

import atexit
import gc
import json
import os
import sys
import time
from pathlib import Path

_started: dict[int, tuple[float, float]] = {}
_pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}  # wall ms of each collection
_cpu: dict[int, float] = {0: 0.0, 1: 0.0, 2: 0.0}


def _timed(phase: str, info: dict[str, int]) -> None:
    generation = info["generation"]
    if phase == "start":
        _started[generation] = (time.perf_counter(), time.thread_time())
    elif generation in _started:
        wall, cpu = _started.pop(generation)
        _pauses[generation].append((time.perf_counter() - wall) * 1000)
        _cpu[generation] += (time.thread_time() - cpu) * 1000


def _written() -> None:
    figures = {"argv": sys.argv, "cpu_ms": time.process_time() * 1000, "threshold": gc.get_threshold()}
    figures["generations"] = [
        {"collections": len(_pauses[g]), "cpu_ms": _cpu[g], "pauses_ms": sorted(_pauses[g])} for g in range(3)
    ]
    Path(os.environ["ISNAD_COLLECTOR_DIR"], f"{os.getpid()}.json").write_text(json.dumps(figures))


if os.environ.get("ISNAD_COLLECTOR_DIR"):
    gc.callbacks.append(_timed)
    atexit.register(_written)
