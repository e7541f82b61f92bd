"""Who else uses a block device: a mount, swap, or a holder (LVM and other device-mapper
targets, software RAID, bcache), on the device itself or on one of its partitions.

Writing to a device in use destroys a live filesystem or array, so diskmark refuses, and
says which use it found, so the user knows what to unmount or stop. These are the uses
visible from here (this mount namespace, sysfs); the exclusive open that a write session
also makes (``O_EXCL`` on a block device) catches any other claim the kernel knows of.
"""

from __future__ import annotations

import os
from pathlib import Path

from diskmark.drive import mounts as mt
from diskmark.drive.sysfs import read_sys
from diskmark.engine.sentence import Sentence
from diskmark.locale import N_

SYS_DEV_BLOCK = Path("/sys/dev/block")


def majmin(rdev: int) -> str:
    return f"{os.major(rdev)}:{os.minor(rdev)}"


def sys_dir(rdev: int) -> Path | None:
    """The device's directory in sysfs (``/sys/devices/.../sda``), or None when the kernel
    no longer knows the device (unplugged, a loop device detached)."""
    path = SYS_DEV_BLOCK / majmin(rdev)
    try:
        return path.resolve(strict=True)
    except OSError:
        return None


def partitions(disk: Path) -> list[Path]:
    """The partitions of a whole disk (none for a partition itself)."""
    try:
        return sorted(p for p in disk.iterdir() if (p / "partition").exists())
    except OSError:
        return []


def _holder_kind(name: str) -> Sentence:
    if name.startswith("dm-"):
        return Sentence(N_("device-mapper: LVM, LUKS or multipath"))
    if name.startswith("md"):
        return Sentence(N_("software RAID (md)"))
    if name.startswith("bcache"):
        return Sentence.verbatim("bcache")
    return Sentence(N_("another block device"))


def _rdev_of(path: str) -> int | None:
    try:
        return os.stat(path).st_rdev
    except OSError:
        return None


def users(sysdir: Path) -> list[Sentence]:
    """What uses the device whose sysfs directory is ``sysdir``, or one of its partitions,
    as sentences ("/dev/loop3p1 is mounted at /mnt/x"); empty when nothing visible does."""
    members = [sysdir, *partitions(sysdir)]
    numbers = {read_sys(m / "dev"): f"/dev/{m.name}" for m in members}
    numbers.pop("", None)
    found: list[Sentence] = []
    for member in members:
        try:
            holders = sorted(h.name for h in (member / "holders").iterdir())
        except OSError:
            holders = []
        for holder in holders:
            # TRANSLATORS: {holder} is a kernel name (dm-0, md127); {kind} what such a holder is
            found.append(Sentence(N_("{device} is held by {holder} ({kind})"),
                                  device=f"/dev/{member.name}", holder=holder,
                                  kind=_holder_kind(holder)))
    for mount in mt.mount_table():
        name = numbers.get(mount.majmin)
        if name is None and mount.source.startswith("/"):
            rdev = _rdev_of(mount.source)
            name = numbers.get(majmin(rdev)) if rdev else None
        if name is not None:
            found.append(Sentence(N_("{device} is mounted at {mountpoint}"), device=name,
                                  mountpoint=mount.mountpoint))
    try:
        with open("/proc/swaps", encoding="utf-8", errors="replace") as f:
            swaps = [line.split()[0] for line in f.read().splitlines()[1:] if line.split()]
    except OSError:
        swaps = []
    for swap in swaps:
        rdev = _rdev_of(swap.replace("\\040", " "))
        name = numbers.get(majmin(rdev)) if rdev else None
        if name is not None:
            found.append(Sentence(N_("{device} is in use as swap"), device=name))
    return list(dict.fromkeys(found))
