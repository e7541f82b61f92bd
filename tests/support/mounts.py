"""Throw-away filesystems for tests: ext4/xfs/btrfs on loop devices, tmpfs and ramfs.

Each helper is a context manager yielding the mount directory and always unmounting (and
detaching the loop device, removing the sparse image) on the way out, even after a failure.
Call ``can_loop_mount(fstype)`` first and skip with its reason when it says no: these need
root, and loop devices need /dev/loop-control, losetup and the filesystem's mkfs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

#: mkfs command (the image or device is appended) and the smallest image it accepts, in MiB.
MKFS = {
    "ext4": (["mkfs.ext4", "-q", "-F"], 2),
    "xfs": (["mkfs.xfs", "-q", "-f"], 300),
    "btrfs": (["mkfs.btrfs", "-q", "-f"], 114),
}
MEMORY_FS = ("tmpfs", "ramfs")


def can_loop_mount(fstype: str = "ext4") -> tuple[bool, str]:
    """(True, "") if this process can make and mount ``fstype`` here, else (False, why).

    tmpfs and ramfs need only root; disk filesystems also need loop devices and mkfs.
    """
    if fstype not in MKFS and fstype not in MEMORY_FS:
        return False, f"unsupported filesystem {fstype!r} (choose {', '.join([*MKFS, *MEMORY_FS])})"
    if os.geteuid() != 0:
        return False, "mounting needs root"
    if not shutil.which("mount") or not shutil.which("umount"):
        return False, "mount/umount not found"
    if fstype in MEMORY_FS:
        return True, ""
    if not shutil.which("losetup"):
        return False, "losetup not found (util-linux)"
    if not os.path.exists("/dev/loop-control"):
        return False, "no /dev/loop-control (loop devices unavailable here)"
    if not shutil.which(MKFS[fstype][0][0]):
        return False, f"{MKFS[fstype][0][0]} not found"
    return True, ""


def _run(*args: str) -> str:
    return subprocess.run(list(args), check=True, capture_output=True, text=True).stdout.strip()


def _unmount(mnt: Path) -> None:
    """Unmount, lazily if something still holds it (a test's leftover process)."""
    if subprocess.run(["umount", str(mnt)], capture_output=True).returncode != 0:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
    with contextlib.suppress(OSError):
        mnt.rmdir()


@contextlib.contextmanager
def _mounted(mnt: Path, args: list[str]) -> Iterator[Path]:
    mnt.mkdir(parents=True, exist_ok=True)
    _run("mount", *args, str(mnt))
    try:
        yield mnt
    finally:
        _unmount(mnt)


@contextlib.contextmanager
def loop_mount(tmp_path: Path, fstype: str = "ext4", size_mib: int | None = None,
               options: str | None = None, name: str = "mnt",
               direct_io: bool = False) -> Iterator[Path]:
    """A fresh ``fstype`` on a sparse image of ``size_mib`` MiB, mounted at tmp_path/name.

    ``size_mib`` defaults to 64 MiB or the filesystem's minimum (xfs 300, btrfs 114);
    ``options`` goes to ``mount -o`` (e.g. "ro"); ``direct_io`` attaches the loop device
    with direct I/O to its file (``losetup --direct-io=on``), so the page cache of the
    image does not answer for it.
    """
    ok, reason = can_loop_mount(fstype)
    if not ok or fstype not in MKFS:
        raise RuntimeError(f"cannot loop-mount {fstype}: {reason or 'not a disk filesystem'}")
    mkfs, minimum = MKFS[fstype]
    size = size_mib if size_mib is not None else max(64, minimum)
    if size < minimum:
        raise ValueError(f"mkfs.{fstype} needs an image of at least {minimum} MiB, not {size}")
    image = tmp_path / f"{name}.{fstype}.img"
    _run("truncate", "-s", f"{size}M", str(image))
    device = ""
    try:
        device = _run("losetup", "-f", "--show", *(["--direct-io=on"] if direct_io else []),
                      str(image))
        _run(*mkfs, device)
        with _mounted(tmp_path / name, ["-t", fstype, *(["-o", options] if options else []), device]) as mnt:
            yield mnt
    finally:
        if device:
            subprocess.run(["losetup", "-d", device], capture_output=True)
        image.unlink(missing_ok=True)


@contextlib.contextmanager
def tmpfs_mount(tmp_path: Path, size_mib: int = 64, name: str = "tmpfs") -> Iterator[Path]:
    """A tmpfs of ``size_mib`` MiB at tmp_path/name."""
    with _mounted(tmp_path / name, ["-t", "tmpfs", "-o", f"size={size_mib}m", "tmpfs"]) as mnt:
        yield mnt


@contextlib.contextmanager
def ramfs_mount(tmp_path: Path, name: str = "ramfs") -> Iterator[Path]:
    """A ramfs at tmp_path/name: no size limit, statvfs reports 0, and no O_DIRECT."""
    with _mounted(tmp_path / name, ["-t", "ramfs", "ramfs"]) as mnt:
        yield mnt
