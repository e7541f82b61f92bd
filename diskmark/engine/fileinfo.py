"""Facts about the test file and the page cache that explain a figure (black_cat's filesystem
measurements, "Linux でディスクのアクセス速度を測定する その4", and the RAID6 offset and fragmentation
article).

- Extents via the FIEMAP ioctl, as ``filefrag`` reports them: a fragmented test file makes
  sequential figures worse on spinning disks, and where it starts on the disk matters too
  (outer tracks are faster).
- Dirty and Writeback from /proc/meminfo: what a buffered write left for the kernel to flush.
- A figure faster than the device's link can carry: a cache answered, not the disk.
"""

from __future__ import annotations

import fcntl
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass

from diskmark.engine.errors import DOING
from diskmark.engine.sentence import Sentence
from diskmark.locale import N_
from diskmark.model.facts import SystemFacts
from diskmark.model.file_layout import FileLayout
from diskmark.model.results import TestResult

FS_IOC_FIEMAP = 0xC020660B
FIEMAP_FLAG_SYNC = 0x1
FIEMAP_EXTENT_LAST = 0x1
_HEADER = struct.Struct("=QQLLLL")  # fm_start, fm_length, fm_flags, mapped, count, reserved
_EXTENT = struct.Struct("=QQQQQLLLL")  # logical, physical, length, 2×reserved64, flags, 3×reserved
_BATCH = 256


@dataclass(frozen=True)
class Extent:
    logical: int
    physical: int
    length: int


def extents(path: str | os.PathLike[str] | int) -> list[Extent] | None:
    """The file's extents (of a path, or of an open descriptor, which stays open), or None
    where the filesystem has no FIEMAP (tmpfs, ramfs, NFS)."""
    out: list[Extent] = []
    start = 0
    own = not isinstance(path, int)
    fd = path if isinstance(path, int) else os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        while True:
            buf = bytearray(_HEADER.size + _EXTENT.size * _BATCH)
            _HEADER.pack_into(buf, 0, start, 2**64 - 1 - start, FIEMAP_FLAG_SYNC, 0, _BATCH, 0)
            try:
                fcntl.ioctl(fd, FS_IOC_FIEMAP, buf)
            except OSError:
                return None
            mapped = _HEADER.unpack_from(buf, 0)[3]
            if mapped == 0:
                return out
            last = False
            for i in range(mapped):
                logical, physical, length, _, _, flags, *_ = _EXTENT.unpack_from(
                    buf, _HEADER.size + i * _EXTENT.size)
                out.append(Extent(logical, physical, length))
                last = bool(flags & FIEMAP_EXTENT_LAST)
            if last:
                return out
            start = out[-1].logical + out[-1].length
    finally:
        if own:
            os.close(fd)


def fragments(exts: list[Extent]) -> int:
    """Physically discontiguous runs: adjacent extents that continue on disk count as one
    (ext4 splits contiguous space into 128 MiB extents, which is not fragmentation)."""
    count, end = 0, None
    for e in exts:
        if e.physical != end:
            count += 1
        end = e.physical + e.length
    return count


def meminfo(keys: tuple[str, ...] = ("Dirty", "Writeback")) -> dict[str, int]:
    """Selected /proc/meminfo values in bytes."""
    out: dict[str, int] = {}
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                name, _, rest = line.partition(":")
                if name in keys:
                    out[name] = int(rest.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return out


def file_layout(fd: int, disk_bytes: int | None) -> FileLayout | None:
    """Where the open file lies on its disk: its extents, how fragmented, where it starts
    (as a fraction of the disk when its size is known). None when FIEMAP says nothing."""
    exts = extents(fd)
    if not exts:
        return None
    start = exts[0].physical
    fraction = start / disk_bytes if disk_bytes else None
    return FileLayout(len(exts), fragments(exts), start,
                      min(fraction, 1.0) if fraction is not None else None)


def layout_of(open_file: Callable[[], int], disk_bytes: int | None) -> FileLayout | None:
    """The layout of the file ``open_file`` opens (a descriptor this closes), or None."""
    try:
        fd = open_file()
    except OSError:
        return None
    try:
        return file_layout(fd, disk_bytes)
    finally:
        os.close(fd)


def faster_than_link(result: TestResult, facts: SystemFacts) -> Sentence | None:
    """A figure above what the device's link can carry came from a cache, not the disk."""
    ceiling = facts.interface_mb_s
    if not ceiling or result.best_mb_s <= ceiling * 1.05:
        return None
    # TRANSLATORS: {test} is a test and what it does ("SEQ1M Q8T1 read"); {link} the device's
    # link ("SATA 6.0 Gb/s", "PCIe 4.0 x4 (16.0 GT/s)")
    return Sentence(N_("{test}: {mb_s} MB/s is faster than the {link} link can carry ({ceiling} "
                       "MB/s): a cache answered, not the disk."),
                    test=Sentence(DOING[result.op], test=result.label),
                    mb_s=f"{result.best_mb_s:.0f}", link=facts.interface, ceiling=f"{ceiling:.0f}")
