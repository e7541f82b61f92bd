"""The layers below a target, measured (``run --down``): after the target's tests, the same
read tests on the block device under its file system and under each layer that has one (a
dm-crypt volume's partition, a loop device's backing file's device, an md array's first
member), each read exactly as a block device target is read (O_RDONLY and fio's
``--readonly``, :mod:`diskmark.engine.device`): never a write below the target. A layer
that cannot be read (no permission, smaller than the tested region) is named and passed
over; one with no block device (a network file system, memory) has nothing to measure.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Protocol

from diskmark.engine.errors import DiskmarkError
from diskmark.engine.sentence import Sentence
from diskmark.locale import N_
from diskmark.model.events import Event, Notice
from diskmark.model.results import SessionResult, Status
from diskmark.model.settings import Mode, Op, Settings
from diskmark.model.stack import Kind, Layer, Measured


class Runs(Protocol):
    """What is asked of the engine (:class:`diskmark.engine.runner.Engine`, or the app's)."""

    async def run(self, settings: Settings,
                  on_event: Callable[[Event], None] | None = None) -> SessionResult: ...


def devices_below(layers: list[Layer]) -> list[tuple[int, str]]:
    """(layer index, /dev path) of each block device to measure, outermost first: every
    layer with a device, but only down one member of an array or of a file system across
    devices (the first), and not a disk under its own partition (the same blocks, a few
    sectors further)."""
    found: list[tuple[int, str]] = []
    seen_at: dict[int, int] = {}  # depth -> how many layers at that depth since a shallower
    skip_below: int | None = None
    for i, layer in enumerate(layers):
        d = layer.depth
        for deeper in [k for k in seen_at if k > d]:
            del seen_at[deeper]
        seen_at[d] = seen_at.get(d, 0) + 1
        if skip_below is not None and d > skip_below:
            continue
        skip_below = None
        if seen_at[d] > 1:  # a later member: its whole subtree is passed over
            skip_below = d
            continue
        if not layer.device:
            continue
        above = layers[i - 1] if i else None
        if layer.kind is Kind.DISK and above is not None and above.kind is Kind.PARTITION:
            continue
        if layer.device not in (dev for _i, dev in found):
            found.append((i, layer.device))
    return found


async def measure_below(engine: Runs, session: SessionResult,
                        emit: Callable[[Event], None] | None = None) -> list[Measured]:
    """Each device under ``session``'s target read with the session's read tests, in turn;
    stopped (``engine.stop``) as any run is, leaving what was measured so far."""
    say = emit or (lambda event: None)
    reads = [t for t in session.tests if t.op is Op.READ]
    settings = dataclasses.replace(session.settings, mode=Mode.READ, mix=None, nocow=False)
    found: list[Measured] = []
    target = os.path.realpath(session.system.target or session.settings.target)
    for index, device in devices_below(session.stack):
        if not reads:
            break
        if os.path.realpath(device) == target:  # a device target: what is under it
            continue
        note = Sentence(N_("Measuring {device} under the target, read-only: the same read "
                           "tests."), device=device)
        say(Notice(note.said(), "information"))
        try:
            below = await engine.run(dataclasses.replace(settings, target=device), say)
        except DiskmarkError as e:
            found.append(Measured(index, device, skipped=e.message))
            continue
        measured = Measured(index, device)
        for t in below.tests:
            if t.runs and not t.error:
                measured.figures[t.key] = {"mb_s": t.best_mb_s, "iops": t.best_iops,
                                           "lat_us": t.best_lat_us}
        if below.status is not Status.COMPLETE:
            measured.skipped = below.error or below.status.value
            found.append(measured)
            break
        found.append(measured)
    return found
