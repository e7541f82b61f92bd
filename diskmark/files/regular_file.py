"""Reading a file diskmark does not own (a user preset or theme, the settings file, a saved
or imported result) without letting it hang or exhaust the process.

Only a regular file is read, a symbolic link to one included (a preset linked from a
dotfiles repository is fine). A FIFO would block the read forever, a link to /dev/zero
would fill the memory, and opening some devices has side effects (a watchdog starts its
timer), so anything else is refused from its ``stat`` before it is opened; it is opened with
O_NONBLOCK and checked again with ``fstat``, in case it was swapped in between. At most
``limit`` bytes are read, fewer when the file's first bytes say it is of a kind that is
shorter (an import told by its content: JSON, or a CrystalDiskMark text of a few KB).
Nothing here imports Textual.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from diskmark.locale import N_, _

KINDS = ((stat.S_ISDIR, N_("not a regular file (a directory)")),
         (stat.S_ISFIFO, N_("not a regular file (a FIFO)")),
         (stat.S_ISCHR, N_("not a regular file (a character device)")),
         (stat.S_ISBLK, N_("not a regular file (a block device)")),
         (stat.S_ISSOCK, N_("not a regular file (a socket)")))


class NotRegularFile(ValueError):
    """The file is not one to read: not a regular file, or too large. The message is the
    reason, without the path, fit to follow it."""


class TooLarge(NotRegularFile):
    """The file holds more than ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__(_larger_than(limit))
        self.limit = limit


def _not_regular(mode: int) -> str:
    """Why a file of ``mode`` is not read, fit to follow its path."""
    return _(next((why for test, why in KINDS if test(mode)),
                  N_("not a regular file (not a file)")))


def _larger_than(limit: int) -> str:
    mib = limit / (1024 * 1024)
    if mib >= 1:
        return _("larger than {size} MiB").format(size=f"{mib:g}")
    return _("larger than {count} bytes").format(count=limit)


def read_regular_file(path: Path | str, limit: int,
                      limit_for_head: Callable[[bytes], int] | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them, or at most
    what ``limit_for_head`` says of its first MiB (read first) when that is fewer. Raises
    NotRegularFile (a ValueError) with the reason, TooLarge (one) for a file that holds
    more, or OSError (FileNotFoundError...)."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(_not_regular(mode))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(_not_regular(mode))
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, min(1024 * 1024, limit + 1 - total)):
            if limit_for_head is not None and not chunks:
                limit = min(limit, limit_for_head(chunk))
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise TooLarge(limit)
        return b"".join(chunks)
    finally:
        os.close(fd)
