"""The private directory a session works in, and finding those a killed diskmark left.

fio is never handed a path. It runs with its working directory inside a directory diskmark
made under the target (mode 0700) and opens a fixed name there, so:

- no character in the target's path can be misread by fio's option parser (it ends a value at
  ``;`` or ``#`` and un-escapes only ``\\:``, so ``/data/notes;2024`` once meant ``/data/notes``);
- no other user can swap the test file for a symlink while fio re-opens it by name on every
  pass, even when the target directory is writable by everyone;
- when the target vanishes mid-run (``umount -l``, ``rm -rf``), fio cannot create the path
  again on another filesystem: there is no path, only a name in a directory that is gone.

diskmark itself reaches the directory and the file through descriptors opened once
(``dir_fd``), and checks their identity (device, inode) before it removes anything.

A live session holds an exclusive ``flock`` on its directory, and fio, which inherits the
descriptor, holds it too; each directory is noted in a register before it is made, so that
:mod:`diskmark.engine.leftovers` can find and remove those of a diskmark that died.
"""

from __future__ import annotations

import array
import errno
import fcntl
import json
import mmap
import os
import re
import secrets
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from diskmark.engine.errors import DirectIOUnsupported, TargetError
from diskmark.engine.plan import TEST_FILE
from diskmark.engine.sentence import Sentence
from diskmark.files import paths
from diskmark.files.atomic import write_atomic
from diskmark.locale import N_, _

PREFIX = ".diskmark-"
NAME_RE = re.compile(r"^\.diskmark-[0-9a-f]{12}$")
RENAME_RACE_S = 2.0  # how long remove() keeps finding a directory another program renames
PROBE = "diskmark-probe"
OWN_NAMES = (TEST_FILE, PROBE)
FS_IOC_GETFLAGS, FS_IOC_SETFLAGS = 0x80086601, 0x40086602
FS_NOCOW_FL = 0x00800000
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def register_dir() -> Path:
    return paths.state_dir() / "workspaces"


def same_file(st: os.stat_result, ident: tuple[int, int] | None) -> bool:
    return ident is not None and (st.st_dev, st.st_ino) == ident


@dataclass
class Workspace:
    """The session's private directory under the target, and the test file in it."""

    target: Path
    name: str
    target_fd: int
    fd: int
    target_id: tuple[int, int]
    dir_id: tuple[int, int]
    record: Path | None = None
    file_id: tuple[int, int] | None = None
    problems: list[Sentence] = field(default_factory=list)  # what remove() could not do
    _closed: bool = False

    @property
    def path(self) -> Path:
        return self.target / self.name

    @property
    def test_file(self) -> Path:
        return self.path / TEST_FILE

    # --- making it --------------------------------------------------------------------

    @classmethod
    def create(cls, target: Path, target_fd: int) -> Workspace:
        """Make the directory (0700) and lock it. Raises OSError as mkdir does."""
        st_target = os.fstat(target_fd)
        for _i in range(100):
            name = f"{PREFIX}{secrets.token_hex(6)}"
            record = _register(target, name, st_target)
            try:
                os.mkdir(name, 0o700, dir_fd=target_fd)
            except FileExistsError:
                forget_record(record)
                continue
            except OSError:
                forget_record(record)
                raise
            try:
                fd = os.open(name, DIR_FLAGS, dir_fd=target_fd)
            except OSError as e:  # a symlink or a file put in its place: not ours either
                forget_record(record)
                if e.errno in (errno.ENOTDIR, errno.ELOOP):
                    raise _replaced(target, target_fd, name) from None
                _rmdir_quietly(target_fd, name)
                raise
            st = os.fstat(fd)
            if st.st_uid != os.geteuid() or not stat.S_ISDIR(st.st_mode):
                os.close(fd)  # someone replaced it between mkdir and open: not ours
                forget_record(record)
                raise _replaced(target, target_fd, name)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another diskmark's sweep holds it: it goes; try anew
                os.close(fd)
                forget_record(record)
                continue
            except OSError:
                pass  # no locks here (some network filesystems); sweeps then leave it alone
            try:  # locked now, so no sweep can take it; was it taken before that?
                held = same_file(os.lstat(name, dir_fd=target_fd), (st.st_dev, st.st_ino))
            except OSError:
                held = False
            if not held:  # removed by a sweep, or renamed by another program
                if os.fstat(fd).st_nlink:
                    _remove_stray(target_fd, name, (st.st_dev, st.st_ino))
                os.close(fd)
                forget_record(record)
                continue
            return cls(target, name, os.dup(target_fd), fd, (st_target.st_dev, st_target.st_ino),
                       (st.st_dev, st.st_ino), record)
        raise TargetError(_("Could not make a unique test directory in {path}.").format(
            path=target))

    def create_test_file(self, size: int) -> None:
        """The test file at full length but sparse. fio unlinks and re-creates a file that is
        shorter than --size, which would make it a file diskmark did not create."""
        fd = os.open(TEST_FILE, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600, dir_fd=self.fd)
        try:
            st = os.fstat(fd)
            self.file_id = (st.st_dev, st.st_ino)
            os.ftruncate(fd, size)
        finally:
            os.close(fd)

    def open_test_file(self, flags: int = os.O_RDONLY) -> int:
        """A descriptor of the test file, refusing anything but the file diskmark made."""
        fd = os.open(TEST_FILE, flags | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.fd)
        if not same_file(os.fstat(fd), self.file_id):
            os.close(fd)
            raise OSError(errno.ESTALE, _("the test file was replaced by another program"))
        return fd

    def probe_direct(self, fstype: str) -> None:
        """Open and write one aligned block with O_DIRECT; some filesystems accept the open
        and fail only at the write, and ``open(O_CREAT|O_DIRECT)`` can create the file and
        then fail, so the probe is removed whatever happens."""
        try:
            try:
                fd = os.open(PROBE, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_DIRECT
                             | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=self.fd)
            except OSError as e:
                if e.errno == errno.EINVAL:
                    raise _no_direct(self.target, fstype) from None
                raise TargetError(_("Cannot open a file with O_DIRECT in {path}: {error}.").format(
                    path=self.target, error=e.strerror)) from None
            try:
                buf = mmap.mmap(-1, 4096)  # page-aligned, as O_DIRECT requires
                try:
                    os.write(fd, buf)
                except OSError as e:
                    if e.errno == errno.EINVAL:
                        raise _no_direct(self.target, fstype) from None
                    if e.errno == errno.ENOSPC:
                        raise no_space_left(self.target) from None
                    raise TargetError(_("Writing with O_DIRECT to {path} failed: {error}.").format(
                        path=self.target, error=e.strerror)) from None
                finally:
                    buf.close()
            finally:
                os.close(fd)
        finally:
            try:
                os.unlink(PROBE, dir_fd=self.fd)
            except OSError:
                pass

    def set_nocow(self) -> None:
        """btrfs: files made in this directory from now on skip copy-on-write (chattr +C),
        so the page cache and CoW cannot leak into O_DIRECT figures."""
        flags = array.array("l", [0])
        fcntl.ioctl(self.fd, FS_IOC_GETFLAGS, flags, True)
        flags[0] |= FS_NOCOW_FL
        fcntl.ioctl(self.fd, FS_IOC_SETFLAGS, flags, True)

    # --- while it runs ----------------------------------------------------------------

    def lost(self) -> str | None:
        """Why the run can no longer be trusted, or None: the target was unmounted or
        removed, or the directory or the test file was replaced. fio would carry on writing
        into a detached filesystem or an unlinked file and report figures for nothing."""
        try:
            st = os.stat(self.target)
        except OSError:
            st = None
        if st is None or not same_file(st, self.target_id):
            return _("The target {path} was unmounted or removed during the run; what was "
                     "measured after that is not the target's.").format(path=self.target)
        try:
            if os.fstat(self.fd).st_nlink == 0 or not same_file(
                    os.lstat(self.name, dir_fd=self.target_fd), self.dir_id):
                raise FileNotFoundError
        except OSError:
            return _("The test directory {path} was removed or moved by another program.").format(
                path=self.path)
        if self.file_id is not None:
            try:
                ok = same_file(os.lstat(TEST_FILE, dir_fd=self.fd), self.file_id)
            except OSError:
                ok = False
            if not ok:
                return _("The test file {path} was removed or replaced by another "
                         "program.").format(path=self.test_file)
        return None

    def free_bytes(self) -> tuple[int, int]:
        """(free to this user, total blocks) of the target's filesystem."""
        st = os.fstatvfs(self.target_fd)
        return st.f_bavail * st.f_frsize, st.f_blocks

    # --- removing it ------------------------------------------------------------------

    def remove(self) -> list[Sentence]:
        """Remove what diskmark made, and nothing else. Never raises: what could not be
        removed is returned (and kept in ``problems``) as sentences that say where, and the
        register entry stays so the next start tries again."""
        if self._closed:
            return self.problems
        problems: list[Sentence] = []
        for name in OWN_NAMES:
            try:
                st = os.lstat(name, dir_fd=self.fd)
            except FileNotFoundError:
                continue
            except OSError as e:
                problems.append(Sentence.verbatim("{path}: {error}", path=self.path / name, error=e.strerror))
                continue
            if name == TEST_FILE and not same_file(st, self.file_id):
                problems.append(Sentence(N_("{path} was replaced by another program; diskmark "
                                            "left it alone"), path=self.path / name))
                continue
            try:
                os.unlink(name, dir_fd=self.fd)
            except FileNotFoundError:
                pass
            except OSError as e:
                problems.append(Sentence.verbatim("{path}: {error}", path=self.path / name, error=e.strerror))
        # Another program may keep renaming the directory: look again until it is gone or
        # a deadline passes. A directory listing read during a rename can miss the entry, so
        # "not in the target" is only believed when it holds for the whole deadline.
        deadline = time.monotonic() + RENAME_RACE_S
        while True:
            try:
                current = self._current_name()
                if current is not None:
                    os.rmdir(current, dir_fd=self.target_fd)
                    break
                if not os.fstat(self.fd).st_nlink:
                    break  # removed by someone else: nothing left to do
                if time.monotonic() > deadline:
                    problems.append(Sentence(N_("{path}: another program moved the test "
                                                "directory out of {target}; diskmark emptied "
                                                "it but cannot tell where it is now"),
                                             path=self.path, target=self.target))
                    break
            except (FileNotFoundError, NotADirectoryError):  # renamed, and the name reused
                if time.monotonic() > deadline:
                    problems.append(Sentence(N_("{path}: another program kept renaming the test "
                                                "directory; diskmark emptied it"),
                                             path=self.path))
                    break
            except OSError as e:
                problems.append(
                    Sentence(N_("{path}: it holds files diskmark did not make"), path=self.path)
                    if e.errno == errno.ENOTEMPTY else
                    Sentence.verbatim("{path}: {error}", path=self.path, error=e.strerror))
                break
            time.sleep(0)  # let the other program finish its rename
        for fd in (self.fd, self.target_fd):
            try:
                os.close(fd)  # also releases the lock
            except OSError:
                pass
        self._closed = True
        if not problems:
            forget_record(self.record)
        self.problems = problems
        return problems


    def _current_name(self) -> str | None:
        """The directory's name in the target now: its own, or the one another program
        renamed it to (found by inode), or None when it is no longer in the target."""
        try:
            if same_file(os.lstat(self.name, dir_fd=self.target_fd), self.dir_id):
                return self.name
        except OSError:
            pass
        try:
            for entry in os.scandir(self.target_fd):
                if entry.inode() == self.dir_id[1] and same_file(entry.stat(follow_symlinks=False),
                                                             self.dir_id):
                    return entry.name
        except OSError:
            pass
        return None


def no_space_left(target: Path) -> TargetError:
    """The target is full: no room for the test directory, or for the probe of O_DIRECT."""
    return TargetError(_("Target {path} has no free space left.").format(path=target))


def _no_direct(target: Path, fstype: str) -> DirectIOUnsupported:
    return DirectIOUnsupported(
        (_("The filesystem ({fstype}) at {path} does not support O_DIRECT (direct I/O).")
         if fstype else
         _("The filesystem at {path} does not support O_DIRECT (direct I/O).")).format(
            fstype=fstype, path=target),
        _("Run buffered instead (--buffered, or Buffered in the settings): figures will then "
          "include the page cache and are labelled so."))


def _replaced(target: Path, target_fd: int, name: str) -> TargetError:
    """The refusal when another program put something else in place of the directory
    diskmark had just made, after removing that directory from wherever it was moved."""
    gone = _remove_stray(target_fd, name)
    if gone:
        return TargetError(_("The test directory in {path} was replaced by another program as "
                             "it was made; diskmark left the replacement alone.").format(
                                 path=target))
    return TargetError(_("The test directory in {path} was replaced by another program as it "
                         "was made; diskmark left the replacement alone and could not find its "
                         "own empty directory ({name}) to remove it.").format(
                             path=target, name=name))


def _remove_stray(target_fd: int, name: str, ident: tuple[int, int] | None = None) -> bool:
    """Remove the empty directory diskmark made and another program then renamed, wherever
    in the target it is now: by inode when known, else by this user's ownership, no access
    for others, and the name it was made with (which renames that append keep as a prefix).
    rmdir takes only an empty directory, and where others can rename entries they can remove
    empty directories themselves, so this takes nothing that was safe before. True when it
    was removed."""
    deadline = time.monotonic() + RENAME_RACE_S
    while time.monotonic() < deadline:
        try:
            for entry in os.scandir(target_fd):
                if (entry.inode() != ident[1]) if ident else not entry.name.startswith(name):
                    continue
                st = entry.stat(follow_symlinks=False)
                if (ident and not same_file(st, ident)) or not stat.S_ISDIR(st.st_mode) \
                        or st.st_uid != os.geteuid() or st.st_mode & 0o077:
                    continue
                os.rmdir(entry.name, dir_fd=target_fd)
                return True
        except OSError:
            pass  # renamed again between the listing and rmdir: look again
        time.sleep(0)
    return False


def _rmdir_quietly(dir_fd: int, name: str) -> None:
    try:
        os.rmdir(name, dir_fd=dir_fd)
    except OSError:
        pass


# --- the register -------------------------------------------------------------------------


def _register(target: Path, name: str, st_target: os.stat_result) -> Path | None:
    """Note the directory before it exists, so a kill at any moment after leaves a trace.
    A register that cannot be written (read-only home) only loses that convenience."""
    record = register_dir() / f"{name.removeprefix(PREFIX)}.json"
    entry = {"target": os.fsencode(target).decode("utf-8", "surrogateescape"),
             "name": name, "target_dev": st_target.st_dev, "target_ino": st_target.st_ino,
             "uid": os.geteuid(), "pid": os.getpid(), "created": time.time()}
    try:
        write_atomic(record, json.dumps(entry, ensure_ascii=True), exclusive=True)
    except (OSError, UnicodeError):
        return None
    return record


def forget_record(record: Path | None) -> None:
    if record is not None:
        try:
            record.unlink()
        except OSError:
            pass
