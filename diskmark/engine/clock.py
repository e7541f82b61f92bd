"""Time and the CPUs while a session runs: its timestamps, its ETA (corrected as steps
finish), the CPUs it may use and how busy they were, to tell a figure the CPU set from one
the drive did."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import datetime

import psutil


def now_iso(timespec: str = "seconds") -> str:
    """Now, local time with its offset, to the second (a session's start and end), or to
    the millisecond (``"milliseconds"``: a test's, which several targets take in turn)."""
    return datetime.now().astimezone().isoformat(timespec=timespec)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity), else all of them."""
    try:
        return len(os.sched_getaffinity(0))
    except OSError:
        return os.cpu_count() or 1


@dataclass
class MachineLoad:
    """How busy all CPUs were over a stretch of time, from /proc/stat (steal counts as
    busy: the hypervisor gave the time to someone else; I/O wait does not)."""

    busy: float = 0.0
    total: float = 0.0

    @staticmethod
    def now() -> tuple[float, float]:
        t = psutil.cpu_times()
        total = sum(t)
        return total - t.idle - getattr(t, "iowait", 0.0), total

    def add(self, before: tuple[float, float], after: tuple[float, float]) -> None:
        self.busy += after[0] - before[0]
        self.total += after[1] - before[1]

    @property
    def pct(self) -> float | None:
        return 100.0 * self.busy / self.total if self.total > 0 else None


class Eta:
    """Session ETA from the plan's expected durations, corrected as steps finish."""

    def __init__(self, total: float):
        self.total = total
        self.done = 0.0
        self.step = 0.0
        self.step_started = time.monotonic()

    def begin(self, expected: float) -> None:
        self.step = expected
        self.step_started = time.monotonic()

    def end(self) -> None:
        self.done += self.step
        self.step = 0.0

    def replace_estimate(self, expected: float, actual: float) -> None:
        self.total += actual - expected

    def remaining(self) -> float:
        into = min(time.monotonic() - self.step_started, self.step)
        return max(self.total - self.done - into, 0.0)

    def percent(self) -> float:
        return 100.0 * (1 - self.remaining() / self.total) if self.total else 100.0
