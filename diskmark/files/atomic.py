"""Atomic file writes for everything diskmark saves (settings, history, baselines, reports),
and moving a damaged file aside before anything replaces it.

Write to a temporary file in the same directory, fsync it, rename it over the target, fsync
the directory: a crash or a full disk leaves either the old file or the new one, never half.

The temporary file is ``.<name>.<8 hex digits>.tmp``, locked (flock) while it is written. A
process killed with SIGKILL mid-save leaves it behind; :func:`remove_stale_temps` removes
such leftovers from diskmark's own directories when they are opened: only names of exactly
that pattern for a ``.json`` file, only regular files, only when minutes old and not locked
by a writer.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
import time
from pathlib import Path

#: A temporary file of write_atomic for one of diskmark's own JSON files.
TEMP_NAME = re.compile(r"\.[^/]+\.json\.[0-9a-f]{8}\.tmp")
#: Older than this, a temporary file nobody has locked is a leftover (a save takes seconds).
STALE_AFTER_S = 300


def write_atomic(path: Path, text: str | bytes, *, exclusive: bool = False,
                 make_parents: bool = True) -> None:
    """Replace ``path`` with ``text`` (UTF-8, or bytes as they are: a PNG) atomically. With
    ``exclusive``, fail with FileExistsError instead of replacing a file that exists.
    ``make_parents``: create the directories on the way, as diskmark's own files' are made
    on first use; a file a person named (diskmark.files.destination) is refused instead."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    # os.urandom is what secrets.token_hex reads; importing secrets (hmac, hashlib) cost
    # every start of the app a millisecond and a half
    tmp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    try:
        with open(tmp, "xb") as f:
            fcntl.flock(f, fcntl.LOCK_EX)  # tells remove_stale_temps it is being written
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if exclusive:
            try:
                os.link(tmp, path)  # atomic, and refuses to replace
            except FileExistsError:
                raise
            except OSError as e:  # no hard links here (FAT, some FUSE): exclusive create
                if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                    raise
                with open(path, "xb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
        else:
            os.replace(tmp, path)
    finally:
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass
    _fsync_dir(path.parent)


def move_aside(path: Path) -> Path:
    """Rename a damaged file to ``<name>.damaged-<local time>`` (``-2``, ``-3`` … when that
    is taken) next to it, so that nothing diskmark writes later replaces what a user may
    want to repair by hand. Returns the new path; raises OSError when it cannot."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists() or aside.is_symlink():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    os.rename(path, aside)
    return aside


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temps(directory: Path, older_than: float = STALE_AFTER_S) -> list[Path]:
    """Remove what saves killed mid-write left in ``directory`` (see the module's doc);
    returns what was removed. Never raises: a leftover that stays is harmless."""
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        if not TEMP_NAME.fullmatch(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > older_than \
                    and _remove_unless_locked(Path(entry.path), st):
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _remove_unless_locked(path: Path, seen: os.stat_result) -> bool:
    """Unlink ``path`` if it is still the file ``seen`` and no writer holds its lock."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != (seen.st_dev, seen.st_ino):
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a save is writing it right now
        current = os.lstat(path)
        if (current.st_dev, current.st_ino) != (st.st_dev, st.st_ino):
            return False
        os.unlink(path)
        return True
    finally:
        os.close(fd)
