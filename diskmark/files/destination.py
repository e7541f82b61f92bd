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
from diskmark.locale import _


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


_OPEN_DESCRIPTOR = re.compile(r"/(?:dev|proc/self|proc/thread-self)/fd/[0-9]+")


def _names_open_descriptor(path: Path) -> bool:
    """Whether ``path`` leads (through links such as /dev/stdout -> /proc/self/fd/1) to one
    of this process's open descriptors."""
    current = os.path.abspath(path)
    for _i in range(40):  # the kernel's own limit on links followed
        if _OPEN_DESCRIPTOR.fullmatch(current):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current),
                                                os.readlink(current)))
    return False


def _not_writable(path: Path, mode: int) -> str:
    """Why diskmark does not write to ``path``, which is neither a file nor a stream."""
    if stat.S_ISDIR(mode):
        refusal = _("{path} is a directory; diskmark writes into files, FIFOs and character "
                    "devices only")
    elif stat.S_ISBLK(mode):
        refusal = _("{path} is a block device; diskmark writes into files, FIFOs and character "
                    "devices only")
    elif stat.S_ISSOCK(mode):
        refusal = _("{path} is a socket; diskmark writes into files, FIFOs and character "
                    "devices only")
    else:
        refusal = _("{path} is not a file; diskmark writes into files, FIFOs and character "
                    "devices only")
    return refusal.format(path=path)


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
            raise DestinationUnwritable(_("cannot write {path}: {culprit} is not a "
                                          "directory").format(path=self.path,
                                                              culprit=culprit)) from None
        except OSError as e:
            raise DestinationUnwritable(_("cannot write {path}: {error}").format(
                path=self.path, error=e.strerror or e)) from None
        if _names_open_descriptor(self.path):
            self._fd = self._open_stream(descriptor=True)
        elif stat.S_ISREG(st.st_mode):
            self._check_replace()
        elif stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            self._fd = self._open_stream()
        else:
            raise DestinationError(_not_writable(self.path, st.st_mode))

    def _check_new(self, make_parents: bool) -> None:
        if os.path.islink(self.path):
            raise DestinationError(_("{path} is a symbolic link to {link}, which does not exist; "
                                     "diskmark does not create files through links").format(
                                         path=self.path, link=os.readlink(self.path)))
        parent = self.path.parent
        while make_parents and not os.path.lexists(parent) and parent != parent.parent:
            parent = parent.parent
        if not parent.exists():
            raise DestinationUnwritable(_("cannot write {path}: the directory {parent} does not "
                                          "exist").format(path=self.path, parent=parent))
        if not parent.is_dir():
            raise DestinationUnwritable(_("cannot write {path}: {culprit} is not a "
                                          "directory").format(path=self.path, culprit=parent))
        if not _can_write(parent, directory=True):
            raise DestinationUnwritable(_("cannot write {path}: no permission to create files in "
                                          "{parent} (or it is read-only)").format(
                                              path=self.path, parent=parent))

    def _check_replace(self) -> None:
        if not self.force:
            raise DestinationExists(_("{path} exists").format(path=self.path))
        self._real = Path(os.path.realpath(self.path))
        if not _can_write(self._real):
            raise DestinationUnwritable(_("cannot write {path}: it is not writable").format(
                path=self.path))
        if not _can_write(self._real.parent, directory=True):
            raise DestinationUnwritable(_("cannot replace {path}: no permission to create files "
                                          "in {parent} (or it is read-only)").format(
                                              path=self.path, parent=self._real.parent))
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
                raise DestinationError(_("nothing reads the FIFO {path}; start its reader "
                                         "first").format(path=self.path)) from None
            raise DestinationUnwritable(_("cannot write {path}: {error}").format(
                path=self.path, error=e.strerror or e)) from None
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or descriptor):  # swapped meanwhile
            os.close(fd)
            raise DestinationError(_("{path} changed while it was opened; not writing").format(
                path=self.path))
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
                raise DestinationError(_("{path} is no longer a regular file; not replacing "
                                         "it").format(path=self.path))
        write_atomic(self._real, text, exclusive=not self._replace)
        return self._real

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
