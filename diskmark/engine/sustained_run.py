"""Running the sustained write: one fio job for the duration or the amount, its status
objects every 100 ms kept as (time, bytes) points and turned into MB/s over time and the
knee (:mod:`diskmark.model.sustained_write`, :mod:`diskmark.model.knee`).

The session's machinery (its run control, the fio process, the checks of the target while
it runs) does the rest; this module only knows what is particular to a write
that is drawn over time instead of cut into passes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from diskmark.engine import parse
from diskmark.engine.clock import Eta, MachineLoad
from diskmark.engine.control import RunControl
from diskmark.engine.errors import reading_output
from diskmark.engine.fio_run import run_fio
from diskmark.engine.place import Place, Throttle, check_place
from diskmark.engine.plan import PROCESS_OVERHEAD_S, Plan, PlannedTest, sustained_args
from diskmark.locale import _
from diskmark.model.events import Event, Phase, Progress, RunFinished
from diskmark.model.results import TestResult
from diskmark.model.settings import Op
from diskmark.model.sustained_write import Sustained, bins

#: The live figure averages the status objects of about this long (ms): 100 ms alone jitter.
LIVE_MS = 1000.0


async def run_sustained(control: RunControl, fio_path: str, plan: Plan, ioengine: str,
                        test: PlannedTest, result: TestResult, ws: Place, eta: Eta,
                        emit: Callable[[Event], None]) -> None:
    """Write for the plan's duration or amount and put the one run and its course over
    time on ``result``."""
    settings = plan.settings
    duration, threads = settings.duration, test.spec.threads
    eta.begin(duration + PROCESS_OVERHEAD_S)
    points: list[tuple[float, int]] = [(0.0, 0)]
    t0, cpu0 = time.monotonic(), MachineLoad.now()

    def progress(mb_s: float | None) -> Progress:
        t_s, written = points[-1][0] / 1000, points[-1][1]
        done = t_s / duration
        if settings.amount:
            done = max(done, written / settings.amount)
        return Progress(Phase.MEASURING, test.title, test_index=test.index,
                        test_key=test.key, run=1, runs=1, percent=min(100.0, 100 * done),
                        mb_s=mb_s, eta_s=eta.remaining(), session_percent=eta.percent())

    throttle = Throttle()  # the target is checked now and then while fio runs

    def on_status(obj: dict[str, Any]) -> None:
        check_place(ws, throttle)
        snap = parse.snapshot(parse.job(obj), Op.WRITE, threads)
        wall_ms = (time.monotonic() - t0) * 1000
        # before the first I/O fio's clock can be meaningless; it never runs ahead of the
        # wall clock and never goes back (as in a continuous test's windows)
        if sum(snap.bytes) and points[-1][0] < snap.t_ms <= wall_ms + 250:
            points.append((snap.t_ms, sum(snap.bytes)))
        emit(progress(_live_mb_s(points)))

    emit(progress(None))
    # TRANSLATORS: what fio was doing, put where {what} stands in "fio failed while {what} …"
    what = _("the sustained {test} write").format(test=test.spec.label)
    final = await run_fio(control, ws, sustained_args(fio_path, plan, test, ioengine),
                          on_status, what)
    with reading_output(what):
        end = parse.snapshot(parse.job(final), Op.WRITE, threads)
        if end.t_ms > points[-1][0]:
            points.append((end.t_ms, sum(end.bytes)))
        run = parse.run_result(parse.job(final), Op.WRITE)
    load = MachineLoad()
    load.add(cpu0, MachineLoad.now())
    run.machine_busy_pct = load.pct
    result.sustained = Sustained.measured(points, duration, settings.amount)
    # the chart of every second in the details, as for any other pass
    run.bw_samples = bins(points, 1.0)
    result.runs = [run]
    emit(RunFinished(test.index, result, warmup=False))
    eta.end()


def _live_mb_s(points: list[tuple[float, int]]) -> float | None:
    """MB/s over the last :data:`LIVE_MS` of points."""
    t, b = points[-1]
    for t_a, b_a in reversed(points[:-1]):
        if t - t_a >= LIVE_MS or t_a == 0.0:
            return (b - b_a) / (t - t_a) / 1000 if t > t_a else None
    return None
