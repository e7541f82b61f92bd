"""Where a report (``run --output``) or an export (``baselines export``) goes, checked before
any work and written without ever replacing what diskmark did not create.

- A new file is created exclusively (atomically: temporary file, then a link).
- An existing regular file is replaced only with ``force``, atomically; through a symbolic
  link the file it points to is replaced and the link stays.
- A character device or a FIFO (``/dev/null``, a terminal, ``mkfifo``) is written into as a
  shell redirection would: opened for writing, neither truncated nor renamed over. It is
  opened at once, so a FIFO nobody reads is refused before a long run rather than blocking
  after it.
- ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` name a descriptor diskmark was given,
  whatever it is (a pipe, a terminal, a file the shell opened): it is written into, after
  what is there, never replaced.
- A directory, a block device, a socket or a symbolic link to nothing is refused.

Nothing here imports Textual.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
from pathlib import Path

from diskmark.files.atomic import write_atomic


class DestinationError(ValueError):
    """The destination cannot be used; the message says why and is fit to show."""


class DestinationExists(DestinationError):
    """A regular file is there and replacing it was not allowed."""


class DestinationUnwritable(DestinationError):
    """The place is fine, but this user cannot write there (permissions, a read-only
    filesystem, a missing directory): an I/O problem rather than a wrong argument."""


def _can_write(path: Path | str, directory: bool = False) -> bool:
    mode = os.W_OK | (os.X_OK if directory else 0)
    if os.access in os.supports_effective_ids:
        return os.access(path, mode, effective_ids=True)
    return os.access(path, mode)


_OPEN_DESCRIPTOR = re.compile(r"/(?:dev|proc/self|proc/thread-self)/fd/\d+")


def _names_open_descriptor(path: Path) -> bool:
    """Whether ``path`` leads (through links such as /dev/stdout -> /proc/self/fd/1) to one
    of this process's open descriptors."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on links followed
        if _OPEN_DESCRIPTOR.fullmatch(current):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current),
                                                os.readlink(current)))
    return False


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


class Destination:
    """A checked place to write to; ``write`` once, then ``close``."""

    def __init__(self, path: Path, force: bool = False, make_parents: bool = False):
        self.path = Path(path)
        self.force = force
        self._fd: int | None = None
        self._replace = False  # an existing regular file, at self._real
        self._real = self.path
        try:
            st = os.stat(self.path)  # follows symbolic links, as a redirection does
        except FileNotFoundError:
            self._check_new(make_parents)
            return
        except NotADirectoryError:
            culprit = next((p for p in self.path.parents if p.exists() and not p.is_dir()),
                           self.path.parent)
            raise DestinationUnwritable(f"cannot write {self.path}: {culprit} is not a "
                                        f"directory") from None
        except OSError as e:
            raise DestinationUnwritable(f"cannot write {self.path}: {e.strerror or e}") from None
        if _names_open_descriptor(self.path):
            self._fd = self._open_stream(descriptor=True)
        elif stat.S_ISREG(st.st_mode):
            self._check_replace()
        elif stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            self._fd = self._open_stream()
        else:
            raise DestinationError(f"{self.path} is {_kind(st.st_mode)}; diskmark writes into "
                                   f"files, FIFOs and character devices only")

    def _check_new(self, make_parents: bool) -> None:
        if os.path.islink(self.path):
            raise DestinationError(f"{self.path} is a symbolic link to "
                                   f"{os.readlink(self.path)}, which does not exist; diskmark "
                                   f"does not create files through links")
        parent = self.path.parent
        while make_parents and not os.path.lexists(parent) and parent != parent.parent:
            parent = parent.parent
        if not parent.exists():
            raise DestinationUnwritable(f"cannot write {self.path}: the directory {parent} "
                                        f"does not exist")
        if not parent.is_dir():
            raise DestinationUnwritable(f"cannot write {self.path}: {parent} is not a "
                                        f"directory")
        if not _can_write(parent, directory=True):
            raise DestinationUnwritable(f"cannot write {self.path}: no permission to create "
                                        f"files in {parent} (or it is read-only)")

    def _check_replace(self) -> None:
        if not self.force:
            raise DestinationExists(f"{self.path} exists")
        self._real = Path(os.path.realpath(self.path))
        if not _can_write(self._real):
            raise DestinationUnwritable(f"cannot write {self.path}: it is not writable")
        if not _can_write(self._real.parent, directory=True):
            raise DestinationUnwritable(f"cannot replace {self.path}: no permission to create "
                                        f"files in {self._real.parent} (or it is read-only)")
        self._replace = True

    def _open_stream(self, descriptor: bool = False) -> int:
        """Open a FIFO or character device (or, with ``descriptor``, whatever an inherited
        descriptor holds) for writing without blocking: no reader on a FIFO is an error
        now, not a hang later."""
        flags = os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
        try:
            fd = os.open(self.path, flags)
        except OSError as e:
            if e.errno == errno.ENXIO:
                raise DestinationError(f"nothing reads the FIFO {self.path}; start its reader "
                                       f"first") from None
            raise DestinationUnwritable(f"cannot write {self.path}: {e.strerror or e}") from None
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or descriptor):  # swapped meanwhile
            os.close(fd)
            raise DestinationError(f"{self.path} changed while it was opened; not writing")
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return fd

    def write(self, text: str) -> Path:
        """Write ``text``; returns the file written (the link's target for a link). Raises
        OSError (FileExistsError when a new file appeared meanwhile) or DestinationError."""
        if self._fd is not None:
            data = memoryview(text.encode("utf-8"))
            while data:
                data = data[os.write(self._fd, data):]
            return self.path
        if self._replace:
            try:
                mode = os.lstat(self._real).st_mode
            except FileNotFoundError:
                mode = stat.S_IFREG
            if not stat.S_ISREG(mode):
                raise DestinationError(f"{self.path} is no longer a regular file; not "
                                       f"replacing it")
        write_atomic(self._real, text, exclusive=not self._replace)
        return self._real

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
