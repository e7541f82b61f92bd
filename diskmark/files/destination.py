"""The one rule for every file diskmark writes where a person tells it to: ``run --output``,
``history share --output``, ``history export``, ``baselines export``, and the app's saved
reports, pages and screenshots. Checked before any work, with one set of messages.

- A new file is created exclusively (atomically: temporary file, then a link), in a
  directory that exists: diskmark creates no directory on the way to a file (a mistyped
  directory is refused, not made). A directory named to hold files (``history export DIR``)
  is made only where its parent exists, as a file would be.
- An existing regular file is replaced only with ``replace`` (``--replace``), atomically;
  through a symbolic link the file it points to is replaced and the link stays.
- A character device or a FIFO (``/dev/null``, a terminal, ``mkfifo``) is written into as a
  shell redirection would: opened for writing, neither truncated nor renamed over. It is
  opened at once, so a FIFO nobody reads is refused before a long run rather than blocking
  after it.
- ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` name a descriptor diskmark was given,
  whatever it is (a pipe, a terminal, a file the shell opened): it is written into, after
  what is there, never replaced.
- A directory, a block device, a socket or a symbolic link to nothing is refused.
- A file diskmark names itself (a screenshot, a page) is written under a name nothing has
  yet (``name-2.png``…): never replacing anything, nor writing into a FIFO that has it.

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


def writes_into(path: Path) -> bool:
    """Whether ``path`` is written into, never created or replaced: a FIFO, a character
    device, or a descriptor diskmark was given (``/dev/stdout``). False for anything else,
    including what cannot be looked at."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return _names_open_descriptor(Path(path)) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def check(path: Path, replace: bool = False) -> None:
    """Raise what :class:`Destination` would refuse for ``path``, without opening anything
    (a dialog asks before it writes: :class:`DestinationExists` is the question to ask).
    A FIFO nobody reads is found only when it is opened."""
    Destination(path, replace, open_streams=False)


def make_directory(path: Path) -> Path:
    """``path`` as a directory to write files into (``history export DIR``): one that exists,
    or made now (mode 0777 less the umask, as ``mkdir`` makes it) where its parent exists.
    Raises DestinationError, DestinationUnwritable for a parent that is missing or cannot
    be written, as a new file's would be."""
    path = Path(path)
    if path.is_dir():
        return path
    if os.path.lexists(path):
        raise DestinationError(_("{path} exists and is not a directory").format(path=path))
    _check_parent(path)
    try:
        os.mkdir(path)
    except FileExistsError:
        if not path.is_dir():
            raise DestinationError(_("{path} exists and is not a directory").format(
                path=path)) from None
    except OSError as e:
        raise _write_failure(path, e) from None
    return path


def write_new(folder: Path, name: str, data: str | bytes, tries: int = 99) -> Path:
    """Write ``data`` as a new file ``name`` in ``folder``, or ``<stem>-2<suffix>``… when
    anything has that name (a file, a FIFO, a link): for files diskmark names itself, which
    never replace nor write into what is there. Returns the path written; raises
    DestinationError (DestinationUnwritable for the folder) when it cannot."""
    stem, suffix = os.path.splitext(name)
    for n in range(1, tries + 1):
        path = Path(folder) / (name if n == 1 else f"{stem}-{n}{suffix}")
        if os.path.lexists(path):
            continue
        _check_parent(path)
        try:
            write_atomic(path, data, exclusive=True, make_parents=False)
        except FileExistsError:
            continue  # taken meanwhile
        except OSError as e:
            raise _write_failure(path, e) from None
        return path
    raise DestinationError(_("no free name for {name} in {folder}").format(name=name,
                                                                         folder=folder))


def _check_parent(path: Path) -> None:
    """The directory a new ``path`` goes into exists, is one, and may be written."""
    parent = path.parent
    if not parent.exists():
        raise DestinationUnwritable(_("cannot write {path}: the directory {parent} does not "
                                      "exist").format(path=path, parent=parent))
    if not parent.is_dir():
        raise DestinationUnwritable(_("cannot write {path}: {culprit} is not a "
                                      "directory").format(path=path, culprit=parent))
    if not _can_write(parent, directory=True):
        raise DestinationUnwritable(_("cannot write {path}: no permission to create files in "
                                      "{parent} (or it is read-only)").format(
                                          path=path, parent=parent))


def _write_failure(path: Path, e: OSError) -> DestinationUnwritable:
    """A write that failed, in the words of the checks before it."""
    if e.errno == errno.ENOTDIR:
        culprit = next((p for p in path.parents if p.exists() and not p.is_dir()), path.parent)
        return DestinationUnwritable(_("cannot write {path}: {culprit} is not a "
                                       "directory").format(path=path, culprit=culprit))
    if e.errno == errno.ENOENT:
        return DestinationUnwritable(_("cannot write {path}: the directory {parent} does not "
                                       "exist").format(path=path, parent=path.parent))
    return DestinationUnwritable(_("cannot write {path}: {error}").format(
        path=path, error=e.strerror or e))


class Destination:
    """A checked place to write to; ``write`` once, then ``close``."""

    def __init__(self, path: Path, replace: bool = False, *, open_streams: bool = True):
        self.path = Path(path)
        self.replace = replace
        self._fd: int | None = None
        self._replace = False  # an existing regular file, at self._real
        self._real = self.path
        try:
            st = os.stat(self.path)  # follows symbolic links, as a redirection does
        except FileNotFoundError:
            self._check_new()
            return
        except OSError as e:
            raise _write_failure(self.path, e) from None
        if _names_open_descriptor(self.path):
            if open_streams:
                self._fd = self._open_stream(descriptor=True)
        elif stat.S_ISREG(st.st_mode):
            self._check_replace()
        elif stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            if open_streams:
                self._fd = self._open_stream()
        else:
            raise DestinationError(_not_writable(self.path, st.st_mode))

    def _check_new(self) -> None:
        if os.path.islink(self.path):
            raise DestinationError(_("{path} is a symbolic link to {link}, which does not exist; "
                                     "diskmark does not create files through links").format(
                                         path=self.path, link=os.readlink(self.path)))
        _check_parent(self.path)

    def _check_replace(self) -> None:
        if not self.replace:
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
            raise _write_failure(self.path, e) from None
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or descriptor):  # swapped meanwhile
            os.close(fd)
            raise DestinationError(_("{path} changed while it was opened; not writing").format(
                path=self.path))
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return fd

    def write(self, data: str | bytes) -> Path:
        """Write ``data`` (text as UTF-8, or bytes as they are: a PNG); returns the file
        written (the link's target for a link). Raises DestinationError only:
        DestinationExists when a new file appeared meanwhile, DestinationUnwritable when
        the system refused the write (a full disk, a reader gone)."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        if self._fd is not None:
            view = memoryview(raw)
            try:
                while view:
                    view = view[os.write(self._fd, view):]
            except OSError as e:
                raise _write_failure(self.path, e) from None
            return self.path
        if self._replace:
            try:
                mode = os.lstat(self._real).st_mode
            except FileNotFoundError:
                mode = stat.S_IFREG
            if not stat.S_ISREG(mode):
                raise DestinationError(_("{path} is no longer a regular file; not replacing "
                                         "it").format(path=self.path))
        try:
            write_atomic(self._real, raw, exclusive=not self._replace, make_parents=False)
        except FileExistsError:
            raise DestinationExists(_("{path} appeared meanwhile; not replaced").format(
                path=self.path)) from None
        except OSError as e:
            raise _write_failure(self.path, e) from None
        return self._real

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
