"""Results side by side: a session per side, the first the reference the others are judged
against. A side is a fleet's host (:class:`~diskmark.model.fleet.FleetResult`) or a target
of one session on this machine (:class:`TargetsResult`); the side-by-side reports
(:mod:`diskmark.report.side_by_side`), the history and the app read either alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from diskmark.model.results import SessionResult, Status

#: What two targets can share: the same file system, or (on different file systems) a disk.
FILESYSTEM, DEVICE = "filesystem", "device"


class Sides(Protocol):
    """Sessions lined up under their labels, in the order given."""

    @property
    def labels(self) -> list[str]: ...

    @property
    def sessions(self) -> list[SessionResult]: ...


def failed_labels(sides: Sides) -> list[str]:
    """The sides whose session failed, by label."""
    return [label for label, s in zip(sides.labels, sides.sessions) if s.status is Status.FAILED]


@dataclass(frozen=True)
class Sharing:
    """Two targets on one file system, or on one disk: measured one after the other, their
    figures do not disturb each other, but they are not two drives either."""

    first: str  # the earlier target's label
    second: str
    what: str  # FILESYSTEM or DEVICE
    name: str  # the file system's mount point, or the disk's name ("vda", "nvme0n1")

    def to_dict(self) -> dict[str, Any]:
        return {"targets": [self.first, self.second], "shares": self.what, "name": self.name}


@dataclass
class TargetsResult:
    """Several targets measured in one session on this machine, interleaved test by test
    (each test on every target in turn), a session per target, in the order given; the
    first is the reference."""

    targets: list[str]  # each target as its label: its absolute path
    sessions: list[SessionResult] = field(default_factory=list)
    sharing: list[Sharing] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        return self.targets

    @property
    def reference(self) -> str:
        return self.targets[0]

    def pairs(self) -> list[tuple[str, SessionResult]]:
        return list(zip(self.targets, self.sessions))

    def failed(self) -> list[str]:
        return failed_labels(self)

    def cancelled(self) -> bool:
        return any(s.status is Status.CANCELLED for s in self.sessions)
