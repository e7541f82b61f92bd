"""Several targets in one session, interleaved test by test: test 1 on A, test 1 on B, test 2
on A, test 2 on B…, so that the machine's heat, the time of day and whatever else runs fall on
every target alike. "Compare two drives" otherwise means two runs at two times
(KDiskMark#117).

Every target is opened before anything runs (a private workspace in a directory, or a block
device; a target that cannot be used stops everything before it starts, as a fleet's host
does), and every test file is laid out before the first test. CrystalDiskMark's rest comes
before every test but the first, whichever target it is on. A target that fails part-way
(removed, out of space) ends only its own session; a stop ends them all. Whatever happens,
every workspace is removed before this returns or raises.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path

from diskmark.drive.sharing import placement, sharing
from diskmark.engine.clock import Eta
from diskmark.engine.control import RunControl
from diskmark.engine.device import block_device
from diskmark.engine.drive_watch import DriveWatch
from diskmark.engine.errors import TargetError
from diskmark.engine.fio import Fio
from diskmark.engine.plan import Plan, build_plan
from diskmark.engine.session_run import SessionRun
from diskmark.engine.side import Side
from diskmark.locale import _
from diskmark.model.events import Event
from diskmark.model.settings import Settings
from diskmark.model.sides import TargetsResult

#: Where a session on several targets says what happens: the target's place in the list,
#: and the event.
SideSink = Callable[[int, Event], None]


def target_label(target: str) -> str:
    """How reports, the history and the baselines (``NAME@LABEL``) name a target: its
    absolute path, links followed (what the session measures)."""
    path = Path(target).expanduser()
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a loop of links
        return os.path.abspath(path)


def distinct_targets(targets: list[str]) -> list[str]:
    """The targets' labels, or TargetError when one is given twice (by another path to the
    same directory or device, too): each target is measured once."""
    labels = [target_label(t) for t in targets]
    seen: dict[tuple[int, int] | str, str] = {}
    for label in labels:
        try:
            st = os.stat(label)
            key: tuple[int, int] | str = ((st.st_rdev, 0) if block_device(Path(label))
                                          else (st.st_dev, st.st_ino))
        except OSError:
            key = label  # it does not exist: opening it says so
        if key in seen:
            same = seen[key]
            raise TargetError(
                (_("--target {path} is given twice.") if same == label else
                 _("--target {path} and --target {other} are the same target.")).format(
                     path=label, other=same),
                _("Give each target once: each is measured once, side by side with the "
                  "others."))
        seen[key] = label
    return labels


def destroy_for(targets: list[str], destroy: str | None) -> list[str | None]:
    """``--destroy-data DEVICE`` is given to the target that is that device; named but
    none of the targets, it goes to the first device (or, without one, the first target),
    whose check refuses it, naming both."""
    if destroy is None:
        return [None] * len(targets)
    named = block_device(Path(destroy).expanduser())
    devices = [block_device(Path(t).expanduser()) for t in targets]
    given = [named is not None and d is not None and d.st_rdev == named.st_rdev for d in devices]
    if not any(given):
        first = next((i for i, d in enumerate(devices) if d is not None), 0)
        given = [i == first for i in range(len(targets))]
    return [destroy if g else None for g in given]


async def run_interleaved(control: RunControl, fio: Fio, plan: Plan, settings: list[Settings],
                          emit: SideSink, destroy: str | None) -> TargetsResult:
    """Run ``plan`` (the first target's) on every target of ``settings`` (one each, the
    same but for the target, or a device's own: see :func:`diskmark.engine.plan.on_device`),
    interleaved; the first target is the reference."""
    labels = distinct_targets([s.target for s in settings])
    destroys = destroy_for([s.target for s in settings], destroy)
    result = TargetsResult(labels)
    sides: list[Side] = []

    def sink(index: int) -> Callable[[Event], None]:
        return lambda event: emit(index, event)

    try:
        for i, (st, wrecked) in enumerate(zip(settings, destroys)):
            sides.append(await Side.open(build_plan(plan.preset, st) if i else plan, wrecked))
        places = await asyncio.to_thread(lambda: [placement(s.check.path) for s in sides])
        result.sharing = sharing(labels, places)
        for i, side in enumerate(sides):
            result.sessions.append(await side.begin(fio, sink(i)))
        async with AsyncExitStack() as stack:
            runs = []
            for i, (side, session) in enumerate(zip(sides, result.sessions)):
                drive = await stack.enter_async_context(
                    DriveWatch(session, side.check.path, control.wake))
                runs.append(SessionRun.begin(control, fio, side.plan, session,
                                             side.check.workspace, side.check.device,
                                             drive.observe(sink(i))))
            # one ETA for the whole session: each target's, and a rest between them
            eta = Eta(sum(r.eta.total for r in runs) + (len(runs) - 1) * plan.interval)
            for run in runs:
                run.eta = eta
            await _interleave(control, runs)
    finally:
        control.kill_all()
        for i, side in enumerate(sides):
            side.close(sink(i))
    return result


async def _interleave(control: RunControl, runs: list[SessionRun]) -> None:
    """Every test file laid out, then each test on every target in turn (a target that
    lacks a test, a device's writes without consent, passes it by), then the end of each."""
    for run in runs:
        if control.stopping:
            break
        await run.attempt(run.lay_out())
    order: list[str] = []
    for run in runs:
        order += [t.key for t in run.plan.tests if t.key not in order]
    first = True
    for key in order:
        for run in runs:
            test = next((t for t in run.plan.tests if t.key == key), None)
            if test is None or not run.going or control.stopping:
                continue
            await run.attempt(run.measure(test, rest=not first))
            first = False
    for run in runs:
        if run.going:
            await run.attempt(run.finish())
        run.close()


def each_target(settings: Settings, targets: list[str]) -> list[Settings]:
    """``settings`` for each of ``targets``."""
    return [replace(settings, target=t) for t in targets]
