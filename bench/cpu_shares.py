"""Who used the machine's CPUs during a run, from /proc (Linux): the API's processes, the load generator
(this process's children that finished, wrk), PostgreSQL's processes (every one of the server's, other
clients' included) and the rest of the machine, each as a share of the CPUs' time over the interval.

    before = CpuClock.now(); ...run wrk...; print(CpuClock.now().shares_since(before, api_pid, seconds))
"""

import os
import resource
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[str, int, float] | None:
    """A process's name, parent and CPU seconds (user + system); None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name, fields = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()
    return name, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def _processes() -> dict[int, tuple[str, int, float]]:
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            found[int(entry.name)] = stat
    return found


def _descendants(root: int, processes: dict[int, tuple[str, int, float]]) -> set[int]:
    family = {root} & set(processes)
    while grown := {pid for pid, (_, parent, _) in processes.items() if parent in family} - family:
        family |= grown
    return family


@dataclass(frozen=True)
class CpuClock:
    busy_s: float  # the machine's CPUs, all of them, not idle
    processes: dict[int, tuple[str, int, float]]  # by pid: name, parent, CPU seconds
    children_s: float  # this process's children that have been waited for: the load generator
    own_s: float  # this process (its probe threads)

    @classmethod
    def now(cls) -> "CpuClock":
        values = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = values[3] + values[4]  # idle and iowait
        children, own = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
        return cls((sum(values[:8]) - idle) / TICKS, _processes(), children.ru_utime + children.ru_stime,
                   own.ru_utime + own.ru_stime)  # fmt: skip

    def used_since(self, before: "CpuClock", pids: set[int]) -> float:
        """CPU seconds `pids` used since `before` (a process that ended meanwhile is not counted)."""
        return sum(self.processes[pid][2] - before.processes.get(pid, ("", 0, 0.0))[2] for pid in pids)

    def server_since(self, before: "CpuClock", server_pid: int) -> float:
        """CPU seconds the server (`server_pid` and its children) used since `before`."""
        return self.used_since(before, _descendants(server_pid, self.processes))

    def postgres_since(self, before: "CpuClock") -> float:
        """CPU seconds PostgreSQL's processes (every client's) used since `before`."""
        postgres = {pid for pid, (name, _, _) in self.processes.items() if name.startswith("postgres")}
        return self.used_since(before, postgres)

    def shares_since(self, before: "CpuClock", api_pid: int, seconds: float) -> str:
        """Each party's CPU time over `seconds` as a share of the machine's CPUs."""
        parts = {
            "API": self.server_since(before, api_pid),
            "wrk": self.children_s - before.children_s,
            "PostgreSQL (all its clients)": self.postgres_since(before),
            "probes": self.own_s - before.own_s,
        }
        parts["the rest of the machine"] = max(0.0, self.busy_s - before.busy_s - sum(parts.values()))
        total = seconds * (os.cpu_count() or 1)
        shares = ", ".join(f"{name} {used / total:.0%}" for name, used in parts.items())
        return f"CPU shares of {os.cpu_count()} CPUs over {seconds:.0f} s: {shares}"
