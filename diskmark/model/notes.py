"""The notes a result carries in its saved document: why the CPU and not the drive set a
figure, passes that disagree, bandwidth dips. They are written in English into the
``diskmark.result/1`` document, for whoever reads it later without diskmark (``voice``
:data:`~diskmark.model.voice.ENGLISH`); the numbers they are made from stay in the result,
so a view says them in the user's language (:data:`~diskmark.model.voice.LOCAL`)."""

from __future__ import annotations

from diskmark.model.cpu_limit import CpuLimit
from diskmark.model.voice import ENGLISH, LOCAL, Voice


def unstable_text(r_avg_pct: float | None, voice: Voice = LOCAL) -> str | None:
    """The passes disagree: ``runs differ by 9%`` (None when they do not)."""
    if r_avg_pct is None:
        return None
    # TRANSLATORS: the passes of one test disagree by this much (range over mean)
    return voice._("runs differ by {pct}%").format(pct=f"{r_avg_pct:.0f}")


def dip_note(pass_no: int, dips: list[tuple[int, float]], threshold_pct: float,
             voice: Voice = LOCAL) -> str:
    """One pass's bandwidth dips (``(second, MB/s)`` pairs) in plain words, its worst one
    named."""
    second, lowest = min(dips, key=lambda d: d[1])
    # TRANSLATORS: {seconds} seconds of pass {pass_no} fell below {share}% of its median bandwidth
    return voice._("pass {pass_no}: {seconds} s below {share}% of the median (lowest {lowest} "
                   "MB/s at {second} s)").format(
        pass_no=pass_no, seconds=len(dips), share=f"{100 - threshold_pct:g}",
        lowest=f"{lowest:.1f}", second=second)


def dip_notes(passes: list[tuple[int, list[tuple[int, float]]]], threshold_pct: float,
              voice: Voice = LOCAL) -> list[str]:
    """Every pass's dips in words (``passes``: what ``TestResult.dips()`` returns)."""
    return [dip_note(n, found, threshold_pct, voice) for n, found in passes]


def cpu_limit_text(limit: CpuLimit | None, voice: Voice = ENGLISH) -> str | None:
    """Why the CPU, not the drive, set a figure (None: it did not): fio's threads were
    saturated, or every core of the machine was busy while fio wanted CPU. English by
    default: the engine keeps it in the result's document."""
    if limit is None:
        return None
    threads, cpus = limit.threads, limit.cpus
    if limit.thread_pct is not None:
        return voice.ngettext("fio's thread was busy {pct}% of the time",
                              "fio's threads were busy {pct}% of the time",
                              threads).format(pct=f"{limit.thread_pct:.0f}")
    pct = f"{limit.machine_pct or 0:.0f}"
    if cpus and cpus > 1:
        busy = voice.ngettext("all {cpus} CPU core was busy {pct}% of the time",
                              "all {cpus} CPU cores were busy {pct}% of the time",
                              cpus).format(cpus=cpus, pct=pct)
    else:
        busy = voice._("the CPU was busy {pct}% of the time").format(pct=pct)
    if not (cpus and threads > cpus):
        return busy
    crowd = voice.ngettext("{threads} threads on {cpus} core", "{threads} threads on {cpus} cores",
                           cpus).format(threads=threads, cpus=cpus)
    # TRANSLATORS: {busy}: how busy the CPU was; {crowd}: "16 threads on 2 cores"
    return voice._("{busy}; {crowd}").format(busy=busy, crowd=crowd)
