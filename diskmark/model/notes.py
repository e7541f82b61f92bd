"""The notes a result carries in its saved document: why the CPU and not the drive set a
figure, passes that disagree, bandwidth dips. They are written in English into the
``diskmark.result/1`` document, for whoever reads it later without diskmark; the numbers
they are made from stay in the result, so a view can say them in its own words."""

from __future__ import annotations

from diskmark.model.cpu_limit import CpuLimit


def unstable_text(r_avg_pct: float | None) -> str | None:
    """The passes disagree: ``runs differ by 9%`` (None when they do not)."""
    return None if r_avg_pct is None else f"runs differ by {r_avg_pct:.0f}%"


def dip_note(pass_no: int, dips: list[tuple[int, float]], threshold_pct: float) -> str:
    """One pass's bandwidth dips (``(second, MB/s)`` pairs) in plain words, its worst one
    named."""
    second, lowest = min(dips, key=lambda d: d[1])
    return (f"pass {pass_no}: {len(dips)} s below {100 - threshold_pct:g}% of the median "
            f"(lowest {lowest:.1f} MB/s at {second} s)")


def dip_notes(passes: list[tuple[int, list[tuple[int, float]]]], threshold_pct: float) -> list[str]:
    """Every pass's dips in words (``passes``: what ``TestResult.dips()`` returns)."""
    return [dip_note(n, found, threshold_pct) for n, found in passes]


def cpu_limit_text(limit: CpuLimit | None) -> str | None:
    """Why the CPU, not the drive, set a figure (None: it did not): fio's threads were
    saturated, or every core of the machine was busy while fio wanted CPU."""
    if limit is None:
        return None
    threads, cpus = limit.threads, limit.cpus
    if limit.thread_pct is not None:
        return (f"fio's thread{'s were' if threads > 1 else ' was'} busy "
                f"{limit.thread_pct:.0f}% of the time")
    cores = f"all {cpus} CPU cores were" if cpus and cpus > 1 else "the CPU was"
    crowd = (f"; {threads} threads on {cpus} core{'s' if cpus > 1 else ''}"
             if cpus and threads > cpus else "")
    return f"{cores} busy {limit.machine_pct or 0:.0f}% of the time{crowd}"
