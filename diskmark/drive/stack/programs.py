"""The programs behind layers: which process serves a FUSE mount (ntfs-3g, mount.exfat-fuse,
fuse2fs, sshfs, rclone…), found in /proc by the mount point it was given; and what ZFS says
of a dataset and its pool through ``zfs`` and ``zpool``, where they are installed. Programs
are started only through :mod:`diskmark.files.program` (an argument list, a time limit,
bounded output), only on the live system, and only to read.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from diskmark.drive.stack import wait
from diskmark.files import program
from diskmark.model.numerals import digits_only

#: What ``zfs`` and ``zpool`` may take: they read the kernel's state, a pool being imported
#: can hold them up.
ZFS_TIMEOUT_S = 1.0
#: The dataset properties that change figures (zfsprops(7)): what the ARC keeps, compression,
#: the record size, whether writes are synchronous, and O_DIRECT's handling (OpenZFS 2.3).
ZFS_PROPERTIES = ("primarycache", "compression", "recordsize", "sync", "direct")


@dataclass(frozen=True)
class Daemon:
    """The process serving a FUSE mount: its program's name, its pid, and the files it
    holds open (its image or device among them: fuse2fs is given ``ext.img`` relative to
    a directory it leaves when it goes into the background)."""

    program: str
    pid: int
    files: tuple[str, ...] = ()


def _args(proc: Path, pid: str) -> list[str]:
    try:
        raw = (proc / pid / "cmdline").read_bytes()
    except OSError:
        return []
    return [os.fsdecode(a) for a in raw.split(b"\0") if a]


def _open_files(proc: Path, pid: str) -> list[str] | None:
    """What the process holds open, by path; None when its descriptors are not this
    user's to see."""
    try:
        fds = os.listdir(proc / pid / "fd")
    except OSError:
        return None
    found = []
    for fd in fds:
        try:
            found.append(os.readlink(proc / pid / "fd" / fd))
        except OSError:
            continue
    return found


def _names(arg: str, mountpoint: str, cwd: str) -> int:
    """How surely ``arg`` names ``mountpoint``: 2 when it does (absolute, or relative to
    the process's directory), 1 when it is a relative path the mount point ends with (a
    program that changed directory since), 0 when not."""
    if arg.startswith("/"):
        return 2 if os.path.normpath(arg) == mountpoint else 0
    if cwd and os.path.normpath(os.path.join(cwd, arg)) == mountpoint:
        return 2
    tail = os.path.normpath(arg)
    return 1 if not tail.startswith("..") and mountpoint.endswith("/" + tail) else 0


def _scan(proc: Path, mountpoint: str) -> Daemon | None:
    try:
        pids = [p for p in os.listdir(proc) if digits_only(p) and int(p) != os.getpid()]
    except OSError:
        return None
    best: tuple[int, Daemon] | None = None
    for pid in pids:
        args = _args(proc, pid)
        if len(args) < 2:
            continue
        try:
            cwd = os.readlink(proc / pid / "cwd")
        except OSError:
            cwd = ""
        sureness = max(_names(arg, mountpoint, cwd) for arg in args[1:])
        if not sureness or (best is not None and best[0] >= sureness):
            continue
        files = _open_files(proc, pid)
        if files is not None and "/dev/fuse" not in files:
            continue  # not a FUSE program: a shell or a tool given the same directory
        best = (sureness, Daemon(os.path.basename(args[0]), int(pid), tuple(files or ())))
    return best[1] if best is not None else None


def fuse_daemon(mountpoint: str, proc: Path, wait_s: float = wait.WAIT_S) -> Daemon | None:
    """The process that was given ``mountpoint`` as an argument (a FUSE program is started
    with the directory it serves) and holds /dev/fuse open (when this user may see that),
    or None. In a bounded wait: reading the command line of
    a process stuck in a page fault of a FUSE file blocks like the file itself."""
    found = wait.ask(f"/proc scan for {mountpoint}", lambda: _scan(proc, mountpoint), wait_s)
    return found.value if found.answered else None


def _run(argv: list[str]) -> str:
    try:
        done = program.run(argv, timeout=ZFS_TIMEOUT_S, limit=256 * 1024)
    except OSError:  # not installed
        return ""
    return done.stdout.decode(errors="replace") if done.succeeded else ""


def zfs_properties(dataset: str) -> dict[str, str]:
    """``zfs get`` of :data:`ZFS_PROPERTIES` for ``dataset`` ({} without ``zfs``)."""
    text = _run(["zfs", "get", "-H", "-p", "-o", "property,value", ",".join(ZFS_PROPERTIES),
                 "--", dataset])
    found = {}
    for line in text.splitlines():
        name, _tab, value = line.partition("\t")
        if name in ZFS_PROPERTIES and value and value != "-":
            found[name] = value
    return found


def zpool_devices(pool: str) -> list[str]:
    """The /dev paths of the devices in ``pool``'s vdevs (``zpool list -v -H -P``), [] without
    ``zpool``."""
    text = _run(["zpool", "list", "-v", "-H", "-P", "--", pool])
    return [m.group(1) for line in text.splitlines()
            if (m := re.match(r"\s*(/dev/\S+)", line))]


def zfs_version(sys_root: Path) -> tuple[int, int] | None:
    """The loaded ZFS module's version (``/sys/module/zfs/version``: "2.1.11-1"), or None."""
    try:
        text = (sys_root / "module" / "zfs" / "version").read_text().strip()
    except OSError:
        return None
    m = re.match(r"(?:zfs-)?([0-9]+)\.([0-9]+)", text)
    return (int(m.group(1)), int(m.group(2))) if m else None
