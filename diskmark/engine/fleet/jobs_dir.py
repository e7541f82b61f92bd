"""Where a fleet run keeps its fio job files on this machine, so that a run that is killed
leaves nothing here after the next start.

fio's client reads each job file from a private directory (mode 0700) in the temporary
directory. As a local run's test directory (:mod:`diskmark.engine.workspace`), it is noted in
the register before it is made and held with an exclusive ``flock`` while the run lives (fio's
clients do not inherit the descriptor: a client reads its job file once, at its start), so
:mod:`diskmark.engine.leftovers` can tell one whose diskmark died (``kill -9``, a power cut)
and remove it at the next start, whatever that start runs: the register entry says what
the directory is (:class:`~diskmark.engine.leftovers.Held`: its name, its job files and
sockets), which hosts the run went on, their target and the test file, which a killed run
leaves on every raw server's host: the sweep says where (over SSH the host removes its
private directory itself once the connection ends, and the next run there removes what a
lost connection left; the entry's test file is then empty).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
import tempfile
from pathlib import Path

from diskmark.engine.errors import TargetError
from diskmark.engine.leftovers import Held
from diskmark.engine.workspace import DIR_FLAGS, forget_record, same_file
from diskmark.locale import _

#: The directory is named ``diskmark-fleet-`` and 12 hexadecimal digits.
KIND = "fleet"
#: What the run puts in it: the job files :func:`tempfile.mkstemp` names (``tmp``, 8
#: characters, ``.fio``) and the socket forwarded to a host over SSH (``<index>.sock``).
SUFFIXES = (".fio", ".sock")


class JobsDir:
    """The run's job-file directory: made, locked and registered by :meth:`create`, removed
    (with its register entry) by :meth:`remove`."""

    def __init__(self, path: Path, fd: int, record: Path | None):
        self.path = path
        self._fd = fd
        self._record = record

    @classmethod
    def create(cls, hosts: list[str], directory: str, filename: str) -> JobsDir:
        """Raises TargetError when no directory can be made in the temporary directory."""
        tmp = Path(tempfile.gettempdir())
        try:
            tmp_fd = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as e:
            raise TargetError(_("Cannot use the temporary directory {path} for fio's job files: "
                                "{error}.").format(path=tmp, error=e.strerror)) from None
        held = Held(KIND, SUFFIXES, tuple(hosts), directory, filename)
        try:
            st_tmp = os.fstat(tmp_fd)
            for _i in range(100):
                name = held.new_name()
                record = held.register(tmp, name, st_tmp)
                try:
                    os.mkdir(name, 0o700, dir_fd=tmp_fd)
                except FileExistsError:
                    forget_record(record)
                    continue
                except OSError as e:
                    forget_record(record)
                    raise TargetError(_("Cannot make a directory for fio's job files in {path}: "
                                        "{error}.").format(path=tmp, error=e.strerror)) from None
                fd = _locked(tmp_fd, name)
                if fd is None:  # replaced, or taken by a sweep before the lock: anew
                    forget_record(record)
                    continue
                return cls(tmp / name, fd, record)
        finally:
            os.close(tmp_fd)
        raise TargetError(_("Could not make a unique directory for fio's job files in "
                            "{path}.").format(path=tmp))

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        if not self.path.exists():
            forget_record(self._record)  # else the next start tries again
        os.close(self._fd)  # releases the lock


def _locked(tmp_fd: int, name: str) -> int | None:
    """A locked descriptor of the directory just made, or None when it is not ours any more
    (another program put something in its place, or a sweep took it before the lock)."""
    try:
        fd = os.open(name, DIR_FLAGS, dir_fd=tmp_fd)
    except OSError:
        return None
    st = os.fstat(fd)
    try:
        if st.st_uid != os.geteuid() or not stat.S_ISDIR(st.st_mode):
            raise OSError
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OSError from None  # a sweep holds it, and removes it
        except OSError:
            pass  # no locks in this temporary directory: sweeps then leave it alone
        if not same_file(os.lstat(name, dir_fd=tmp_fd), (st.st_dev, st.st_ino)):
            raise OSError
    except OSError:
        os.close(fd)
        return None
    return fd

