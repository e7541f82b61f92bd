"""Atomic file writes for everything diskmark saves (settings, history, baselines, reports).

Write to a temporary file in the same directory, fsync it, rename it over the target, fsync
the directory: a crash or a full disk leaves either the old file or the new one, never half.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path


def write_atomic(path: Path, text: str, *, exclusive: bool = False) -> None:
    """Replace ``path`` with ``text`` atomically. With ``exclusive``, fail with
    FileExistsError instead of replacing a file that exists."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8") as f:
            f.write(text)
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
                with open(path, "x", encoding="utf-8") as f:
                    f.write(text)
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
