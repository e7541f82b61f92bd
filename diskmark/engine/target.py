"""Checking a target directory before anything starts, and owning the test file.

Every check here runs before fio does, so a bad target costs the user nothing: a clear
message, exit code 2, no file left behind. diskmark only ever removes files it created
itself, and verifies by inode that the file it removes is still the one it made.
"""

from __future__ import annotations

import array
import errno
import fcntl
import mmap
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from diskmark.system import facts_for, human_bytes
from diskmark.engine.errors import DirectIOUnsupported, TargetError
from diskmark.model import format_size

PREFIX = ".diskmark-"
MARGIN = 16 * 1024 * 1024  # room for metadata beyond the test file itself
FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602
FS_NOCOW_FL = 0x00800000


@dataclass
class OwnedFile:
    """A file diskmark created with O_EXCL; remove() deletes it only if it is still ours."""

    path: Path
    dev: int
    ino: int

    @classmethod
    def create(cls, directory: Path, suffix: str = ".tmp", size: int = 0) -> "OwnedFile":
        """Create a new file; with ``size``, sparse at that length. fio unlinks and re-creates
        a write job's file that is shorter than --size, which would make it no longer ours."""
        for _ in range(100):
            path = directory / f"{PREFIX}{secrets.token_hex(6)}{suffix}"
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o600)
            except FileExistsError:
                continue
            try:
                st = os.fstat(fd)
                owned = cls(path, st.st_dev, st.st_ino)
                if size:
                    os.ftruncate(fd, size)
            except OSError:
                os.close(fd)
                owned.remove()
                raise
            os.close(fd)
            return owned
        raise TargetError(f"could not create a unique test file in {directory}")

    def remove(self) -> bool:
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            return False
        if (st.st_dev, st.st_ino) != (self.dev, self.ino):
            return False  # replaced by someone else: not ours to delete
        os.unlink(self.path)
        return True


@dataclass
class OwnedDir:
    """A directory diskmark made for its test file; on btrfs with copy-on-write turned off
    (chattr +C), so the page cache and CoW cannot leak into O_DIRECT figures (seed 002)."""

    path: Path
    dev: int
    ino: int

    @classmethod
    def create_nocow(cls, directory: Path) -> "OwnedDir":
        path = directory / f"{PREFIX}{secrets.token_hex(6)}.nocow"
        os.mkdir(path, 0o700)
        st = os.stat(path)
        owned = cls(path, st.st_dev, st.st_ino)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                flags = array.array("l", [0])
                fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags, True)
                flags[0] |= FS_NOCOW_FL
                fcntl.ioctl(fd, FS_IOC_SETFLAGS, flags, True)
            finally:
                os.close(fd)
        except OSError as e:
            owned.remove()
            raise TargetError(f"Could not turn copy-on-write off in {directory}: {e.strerror}.") from None
        return owned

    def remove(self) -> bool:
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            return False
        if (st.st_dev, st.st_ino) != (self.dev, self.ino):
            return False
        try:
            os.rmdir(self.path)  # only if empty: anything else in it is not ours
        except OSError:
            return False
        return True


@dataclass
class TargetCheck:
    path: Path
    free_bytes: int | None  # None when the filesystem reports none (ramfs)
    fstype: str = ""
    notes: list[str] = field(default_factory=list)


def check_target(target: str | Path, size: int, direct: bool, nocow: bool = False) -> TargetCheck:
    """Raise TargetError with a helpful message if a run on ``target`` cannot work."""
    raw = Path(target).expanduser()
    if not raw.exists():
        raise TargetError(f"Target {raw} does not exist.",
                          "Create the directory first or choose another target.")
    path = raw.resolve()
    if not path.is_dir():
        raise TargetError(f"Target {path} is a file, not a directory.",
                          "diskmark writes its own test file into a directory: give the directory.")
    fstype = facts_for(path).fstype
    try:
        probe = OwnedFile.create(path, ".probe")
    except PermissionError:
        raise TargetError(f"Target {path} is not writable by this user.",
                          "Choose a directory you can write to, or change its permissions.") from None
    except OSError as e:
        if e.errno == errno.EROFS:
            raise TargetError(f"Target {path} is on a read-only filesystem.",
                              "Remount it read-write or choose another target.") from None
        if e.errno == errno.ENOSPC:
            raise TargetError(f"Target {path} has no free space left.") from None
        raise TargetError(f"Cannot create a file in {path}: {e.strerror}.") from None
    try:
        if direct:
            _probe_direct(probe.path, path, fstype)
    finally:
        probe.remove()

    st = os.statvfs(path)
    notes: list[str] = []
    free: int | None = st.f_bavail * st.f_frsize
    if st.f_blocks == 0:
        free = None
        notes.append(f"{fstype or 'this filesystem'} reports no size or free space; "
                     f"make sure {format_size(size)} fits in memory.")
    elif free < size + MARGIN:
        raise TargetError(
            f"Not enough free space on {path}: the test needs {human_bytes(size + MARGIN)} "
            f"({format_size(size)} test file plus room), {human_bytes(free)} is free.",
            "Choose a smaller --size or another target.")
    if fstype == "tmpfs":
        notes.append("tmpfs lives in memory: figures measure RAM, not a disk.")
    elif fstype == "ramfs":
        notes.append("ramfs lives in memory: figures measure RAM, not a disk.")
    elif fstype == "btrfs" and direct and not nocow:
        notes.append("btrfs (copy-on-write, checksums, compression) can let the page cache "
                     "leak into O_DIRECT figures, especially random writes; a NOCOW test "
                     "directory (--nocow) avoids that.")
    elif fstype == "jfs" and direct:
        notes.append("JFS is known to let the page cache leak into O_DIRECT random writes: "
                     "treat those figures with care.")
    if nocow and fstype != "btrfs":
        notes.append(f"NOCOW applies to btrfs only; {fstype or 'this filesystem'} runs as usual.")
    if not direct:
        notes.append("Buffered run (no O_DIRECT): figures include the page cache.")
    return TargetCheck(path, free, fstype, notes)


def _probe_direct(probe: Path, target: Path, fstype: str) -> None:
    """Open and write one aligned block with O_DIRECT; some filesystems accept the open and
    only fail at the write, so do both."""
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_DIRECT | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.EINVAL:
            raise _no_direct(target, fstype) from None
        raise TargetError(f"Cannot open a file with O_DIRECT in {target}: {e.strerror}.") from None
    try:
        buf = mmap.mmap(-1, 4096)  # page-aligned, as O_DIRECT requires
        try:
            os.write(fd, buf)
        except OSError as e:
            if e.errno == errno.EINVAL:
                raise _no_direct(target, fstype) from None
            if e.errno == errno.ENOSPC:
                raise TargetError(f"Target {target} has no free space left.") from None
            raise TargetError(f"Writing with O_DIRECT to {target} failed: {e.strerror}.") from None
        finally:
            buf.close()
    finally:
        os.close(fd)


def _no_direct(target: Path, fstype: str) -> DirectIOUnsupported:
    fs = f"({fstype}) " if fstype else ""
    return DirectIOUnsupported(
        f"The filesystem {fs}at {target} does not support O_DIRECT (direct I/O).",
        "Run buffered instead (--buffered, or Buffered in the settings): figures will then "
        "include the page cache and are labelled so.")
