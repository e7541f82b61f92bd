"""Which of several targets share a file system or a disk.

Two directories on one file system, or on two file systems of one disk (two partitions, two
loop devices whose image files lie on the same disk), are not two drives: measured at once
their figures would disturb each other. diskmark measures several targets one test at a
time, so they do not, but a reader comparing them should know that the same hardware is
under both. A loop device is followed to the disks under its image file, as far as
:data:`LOOP_DEPTH` loops deep; a dm or md device to its members (:func:`probe.disks_for`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from diskmark.drive import mounts as mt
from diskmark.drive.probe import disks_for
from diskmark.drive.sysfs import read_sys
from diskmark.model.sides import DEVICE, FILESYSTEM, Sharing

LOOP_DEPTH = 4


@dataclass(frozen=True)
class Placement:
    """Where a target lies: its file system (None for a block device measured itself) and
    the disks under it, by their names in /sys/block."""

    filesystem: int | None  # st_dev
    mountpoint: str
    disks: frozenset[str]


def disks_under(path: str | Path, depth: int = 0) -> frozenset[str]:
    """The names of the physical disks that hold ``path``, a loop device's image file
    followed to the disks under it. Empty when nothing says (tmpfs, NFS). Never raises."""
    found: set[str] = set()
    for disk in disks_for(path):
        backing = read_sys(disk / "loop" / "backing_file")
        if backing and depth < LOOP_DEPTH:
            under = disks_under(backing.removesuffix(" (deleted)"), depth + 1)
            found |= under or {disk.name}
        else:
            found.add(disk.name)
    return frozenset(found)


def placement(path: str | Path) -> Placement:
    """Where ``path`` lies (a directory, or a block device). Never raises."""
    try:
        st = os.stat(path)
    except OSError:
        return Placement(None, "", frozenset())
    if not os.path.isdir(path):  # a block device measured itself: no file system
        return Placement(None, "", disks_under(path))
    try:
        mount = mt.locate(path)[3]
    except OSError:
        mount = None
    return Placement(st.st_dev, mount.mountpoint if mount else "", disks_under(path))


def sharing(labels: list[str], places: list[Placement]) -> list[Sharing]:
    """For each target after the first, the first earlier one it shares a file system
    with, else a disk; none for a target on hardware of its own."""
    found = []
    for j in range(1, len(labels)):
        for i in range(j):
            a, b = places[i], places[j]
            if a.filesystem is not None and a.filesystem == b.filesystem:
                found.append(Sharing(labels[i], labels[j], FILESYSTEM, a.mountpoint))
                break
            common = a.disks & b.disks
            if common:
                found.append(Sharing(labels[i], labels[j], DEVICE, ", ".join(sorted(common))))
                break
    return found
