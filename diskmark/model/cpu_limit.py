"""When the CPU and not the drive set a figure: the thresholds, and what a pass's CPU
figures say. fio's own per-thread figures undercount when its threads outnumber the cores
(16 threads on 2 cores showed 6% each while the machine was 99% busy), so the machine's
busy share counts too."""

from __future__ import annotations

from dataclasses import dataclass

#: fio's threads busier than this (% of a core each), or all of the machine's cores this
#: busy, mean the CPU and not the drive set the figure.
CPU_BUSY_PCT = 85.0
#: … but a busy machine limits only a pass whose fio wanted CPU: threads this busy, or more
#: threads than cores (a disk-bound pass waits for the disk, not for a core).
CPU_WANTED_PCT = 25.0
#: … and with twice as many threads as cores or more, the run queue never empties: a machine
#: this busy held them back already (RND4K Q32T16 on 2 cores, memory disk: 86–99 % busy).
CPU_CROWDED_BUSY_PCT = 70.0


@dataclass(frozen=True)
class CpuLimit:
    """The CPU set a figure: fio's threads were saturated (``thread_pct``, % of a core
    each), or every core of the machine was busy (``machine_pct``) while fio wanted CPU.
    :func:`diskmark.model.notes.cpu_limit_text` says it in words."""

    threads: int
    cpus: int | None
    thread_pct: float | None = None
    machine_pct: float | None = None


def cpu_limit(thread_pct: float | None, machine_pct: float | None, threads: int,
              cpus: int | None) -> CpuLimit | None:
    """Whether the CPU set a pass's figure: a fio thread busy all the time cannot submit
    faster; and when every core was busy while fio wanted CPU, it waited for one, whoever
    kept the machine busy. None when it did not, or when nothing is known."""
    if thread_pct is not None and thread_pct >= CPU_BUSY_PCT:
        return CpuLimit(threads, cpus, thread_pct=thread_pct)
    wanted = (thread_pct is not None and thread_pct >= CPU_WANTED_PCT) or bool(cpus and threads > cpus)
    bar = CPU_CROWDED_BUSY_PCT if cpus and threads >= 2 * cpus else CPU_BUSY_PCT
    if machine_pct is not None and machine_pct >= bar and wanted:
        return CpuLimit(threads, cpus, machine_pct=machine_pct)
    return None
