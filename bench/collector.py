"""Python's collector in the API under load: each generation's collections, their pauses and their share of the
API's CPU.

    python -m bench.collector [bench.load's options ...]

Runs bench.load with its options (say `--only search --no-postgraphile`), every Python process it starts with
bench/collector_hook/ on PYTHONPATH: its `sitecustomize` times each collection (`gc.callbacks`) and writes the
figures as the process ends. Prints bench.load's table, then the figures of the API's processes (`serve`): what
they spent in the collector, whatever the requests were. A script that prints figures, never a test.
"""

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

HOOK = Path(__file__).with_name("collector_hook")
OUT = Console(width=240, highlight=False, soft_wrap=True)


def _generation_line(generation: int, figures: dict[str, Any], cpu_ms: float) -> str:
    pauses = figures["pauses_ms"]
    if not pauses:
        return f"  generation {generation}: no collection"
    longest = ", ".join(f"{pause:.1f}" for pause in pauses[-3:][::-1])
    return (
        f"  generation {generation}: {len(pauses)} collections, {figures['cpu_ms']:.0f} ms of CPU "
        f"({100 * figures['cpu_ms'] / cpu_ms:.1f} % of the process's), pause p50 {pauses[len(pauses) // 2]:.2f} ms, "
        f"longest {longest} ms"
    )


def report(folder: Path) -> None:
    """The figures of each API process that wrote some in `folder`."""
    for written in sorted(folder.glob("*.json")):
        figures = json.loads(written.read_text())
        if "serve" not in figures["argv"]:
            continue
        OUT.print(f"API process {written.stem}: {figures['cpu_ms']:.0f} ms of CPU, thresholds {figures['threshold']}")
        for generation, collected in enumerate(figures["generations"]):
            OUT.print(_generation_line(generation, collected, figures["cpu_ms"]))


def main(argv: Sequence[str] | None = None) -> None:
    with tempfile.TemporaryDirectory(prefix="isnad-collector-") as folder:
        paths = [str(HOOK), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "ISNAD_COLLECTOR_DIR": folder}
        arguments = list(sys.argv[1:] if argv is None else argv)
        load = subprocess.run([sys.executable, "-m", "bench.load", *arguments], env=env, check=False)  # noqa: S603
        report(Path(folder))
    raise SystemExit(load.returncode)


if __name__ == "__main__":
    main()
