"""Where a session's fio works: a private test directory with its test file
(:class:`~diskmark.engine.workspace.Workspace`) or a block device measured as it is
(:class:`~diskmark.engine.device.DeviceWorkspace`). The runner holds either the same way,
and checks either the same way that it is still what the run started on."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Protocol

from diskmark.engine.errors import FioFailed
from diskmark.engine.sentence import Sentence

#: While fio runs, how often the target is checked (seconds): four stat calls on every
#: status object (10 a second) competed with a Q1 test (benchmarks/steps_ab.py: a session
#: without them 1.18 and 1.23 of one with them).
CHECK_EVERY_S = 1.0

#: How long a loss is given to finish before it is named (seconds). A removal works from
#: the inside out (``rm -rf`` unlinks the test file, then its directory, then the target),
#: so a check in the middle of one sees only the test file gone; looking again a moment
#: later names what the user did (the target removed) rather than its first step.
SETTLE_S = 0.3


class Place(Protocol):
    """What the runner needs of where fio works."""

    @property
    def fd(self) -> int:
        """fio's working directory, open."""

    @property
    def target(self) -> Path: ...

    def create_test_file(self, size: int) -> None: ...

    def open_test_file(self, flags: int = os.O_RDONLY) -> int: ...

    def lost(self) -> str | None:
        """Why the run can no longer be trusted (the target vanished or was replaced), or
        None."""

    def remove(self) -> list[Sentence]:
        """Remove what the session made; what could not be removed, in words."""


class Throttle:
    """True at most every :data:`CHECK_EVERY_S`: the checks while fio runs."""

    def __init__(self, every: float = CHECK_EVERY_S) -> None:
        self.every = every
        self._at = 0.0

    def due(self) -> bool:
        now = time.monotonic()
        if now - self._at < self.every:
            return False
        self._at = now
        return True


def check_place(place: Place, throttle: Throttle | None = None) -> None:
    """Between steps (every time) and while fio runs (with a ``throttle``: now and then):
    a target that vanished fails the run with :class:`FioFailed` saying what happened."""
    if throttle is not None and not throttle.due():
        return
    lost = place.lost()
    if lost:
        time.sleep(SETTLE_S)
        raise FioFailed(place.lost() or lost)
