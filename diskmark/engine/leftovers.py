"""Test directories a killed diskmark left behind (kill -9, a power cut), found and removed.

A live session holds an exclusive ``flock`` on its directory, and fio, which inherits the
descriptor, holds it too, so a directory nobody holds belongs to a diskmark that died. The
register in the state directory (written by :mod:`diskmark.engine.workspace` just before each
directory is made) finds it wherever it was; the target directory itself is searched before
each run, for a diskmark whose state directory was elsewhere.

Another directory a run holds (a fleet run's job files, :mod:`diskmark.engine.fleet.jobs_dir`)
is registered and held the same way, its entry saying what it is (:class:`Held`): the word
its name carries, how the files its maker puts in it end, the hosts its run went on and the
test file it leaves on each. The sweep reads only that, so the next start finds and removes
it whatever that start runs, and the engine's core knows no name its makers choose.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from diskmark.engine.sentence import Sentence
from diskmark.engine.workspace import DIR_FLAGS, NAME_RE, OWN_NAMES, forget_record, register_dir, same_file
from diskmark.files.atomic import write_atomic
from diskmark.locale import N_, _

#: A register entry is written just before its directory is made: one this young whose
#: directory is not there yet is kept.
YOUNG_S = 5.0
#: A register entry whose target has been unreachable this long is forgotten.
FORGET_S = 90 * 24 * 3600.0
#: The word a held directory's name carries: ``diskmark-<kind>-`` and 12 hexadecimal digits.
KIND_RE = re.compile(r"[a-z]{1,16}")
#: How the files a held directory's maker puts in it end (``.fio``), after a name of what
#: :func:`tempfile.mkstemp` or a counter makes.
SUFFIX_RE = re.compile(r"\.[a-z]{1,8}")
_STEM = r"[a-z0-9_]{1,32}"


@dataclass(frozen=True)
class Held:
    """A directory a run holds besides its test directory (a fleet run's job files), as its
    register entry describes it to a later start. Its maker fills it in and registers it
    (:meth:`register`) before the directory is made; the sweep knows nothing else of it.

    ``kind`` is the word in the directory's name; only files whose names end in one of
    ``suffixes`` are removed from it. A run on other hosts names them (``hosts``) and, when
    a killed run leaves its test file there, the ``directory`` it is in and its ``file``
    name, which fio's server puts this machine's address before."""

    kind: str
    suffixes: tuple[str, ...]
    hosts: tuple[str, ...] = ()
    directory: str = ""
    file: str = ""

    def new_name(self) -> str:
        return f"diskmark-{self.kind}-{secrets.token_hex(6)}"

    def names(self, name: str) -> bool:
        """``name`` is one :meth:`new_name` gives."""
        return re.fullmatch(rf"diskmark-{re.escape(self.kind)}-[0-9a-f]{{12}}", name) is not None

    def owns(self, name: str) -> bool:
        """``name`` is a file the maker puts in the directory."""
        return any(re.fullmatch(_STEM + re.escape(s), name) for s in self.suffixes)

    def left_file(self) -> str:
        """Where the test file a killed run leaves stays on each host, or "" for none."""
        if not self.file:
            return ""
        # TRANSLATORS: stands for this machine's network address in a file name
        address = _("<this machine's address>")
        return f"{self.directory}/{address}.{self.file}"

    def register(self, where: Path, name: str, st_where: os.stat_result) -> Path | None:
        """Note the directory ``name`` in ``where`` before it exists. A register that cannot
        be written only loses the sweep's help."""
        record = register_dir() / f"{name}.json"
        directory = self.directory if self.directory.isprintable() else ascii(self.directory)
        entry = {"kind": self.kind, "target": os.fsencode(where).decode("utf-8", "surrogateescape"),
                 "name": name, "target_dev": st_where.st_dev, "target_ino": st_where.st_ino,
                 "uid": os.geteuid(), "pid": os.getpid(), "created": time.time(),
                 "suffixes": list(self.suffixes), "hosts": list(self.hosts),
                 "directory": directory, "file": self.file}
        try:
            write_atomic(record, json.dumps(entry, ensure_ascii=True), exclusive=True)
        except (OSError, UnicodeError):
            return None
        return record

    @classmethod
    def read(cls, entry: dict[str, Any]) -> Held | None:
        """What a register entry says of its held directory; None for a test directory's.
        Raises ValueError for an entry diskmark did not write."""
        if "kind" not in entry:
            return None
        kind, suffixes, hosts = entry["kind"], entry["suffixes"], entry["hosts"]
        directory, file = entry["directory"], entry["file"]
        if not (isinstance(kind, str) and KIND_RE.fullmatch(kind)
                and isinstance(suffixes, list) and suffixes
                and all(isinstance(s, str) and SUFFIX_RE.fullmatch(s) for s in suffixes)
                and isinstance(hosts, list) and all(_text(h) for h in hosts)
                and _text(directory) and _text(file)):
            raise ValueError("not a held directory's entry")
        return cls(kind, tuple(suffixes), tuple(hosts), directory, file)


def _text(value: object) -> bool:
    return isinstance(value, str) and value.isprintable()


@dataclass(frozen=True)
class Swept:
    """One leftover found at start: removed, or why it stays."""

    path: Path
    removed: bool
    size: int = 0
    reason: Sentence | None = None
    #: for a fleet run's job files: its hosts, and the test file it may have left on each
    hosts: tuple[str, ...] = ()
    remote_file: str = ""

    def describe(self) -> str:
        """What was found, in the language in use."""
        return self.sentence().said()

    def sentence(self) -> Sentence:
        """What was found, to say now and to keep (in English) in a result."""
        from diskmark.model.units import format_bytes as human_bytes

        if self.hosts and not self.remote_file:
            hosts = ", ".join(self.hosts)
            if self.removed:
                # TRANSLATORS: {hosts} is a list of host names reached over SSH
                return Sentence(N_("Removed {path}, the job files of a fleet run that was "
                                   "stopped abruptly; {hosts} remove fio's private directory "
                                   "themselves when the SSH connection ends, or at the next "
                                   "run there."), path=self.path, hosts=hosts)
            return Sentence(N_("The job files of a fleet run that was stopped abruptly stay at "
                               "{path}: {reason}."), path=self.path, reason=self.reason or "")
        if self.hosts:
            hosts = ", ".join(self.hosts)
            if self.removed:
                # TRANSLATORS: {hosts} is a list of host names; {file} the test file's path there
                return Sentence(N_("Removed {path}, the job files of a fleet run that was "
                                   "stopped abruptly; its test file may remain on {hosts} as "
                                   "{file}: remove it there."),
                                path=self.path, hosts=hosts, file=self.remote_file)
            return Sentence(N_("The job files of a fleet run that was stopped abruptly stay at "
                               "{path}: {reason}; its test file may remain on {hosts} as "
                               "{file}: remove it there."),
                            path=self.path, reason=self.reason or "", hosts=hosts,
                            file=self.remote_file)
        if self.removed and self.size:
            return Sentence(N_("Removed {path} and its {size} test file, left by a diskmark run "
                               "that was stopped abruptly."),
                            path=self.path, size=human_bytes(self.size))
        if self.removed:
            return Sentence(N_("Removed {path}, left by a diskmark run that was stopped "
                               "abruptly."), path=self.path)
        return Sentence(N_("A test directory left by an earlier run stays at {path}: {reason}."),
                        path=self.path, reason=self.reason or "")


def _reap(target: Path, target_fd: int, name: str,
          own: Callable[[str], object] = OWN_NAMES.__contains__) -> Swept | None:
    """Remove one abandoned test directory, or None when it is in use, gone, or not this
    user's. Only names diskmark makes (``own``) are unlinked. A directory being made is
    safe: its maker checks, once it holds the lock, that the directory is still there."""
    path = target / name
    try:
        fd = os.open(name, DIR_FLAGS, dir_fd=target_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if st.st_uid != os.geteuid() or not stat.S_ISDIR(st.st_mode):
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return None  # a running diskmark (or its fio) holds it
        except OSError:
            return Swept(path, False, reason=Sentence(N_(
                "this filesystem has no file locks, so diskmark cannot tell whether a run still "
                "uses it; remove it yourself if none does")))
        size, foreign = 0, []
        for entry in os.listdir(fd):
            if not own(entry):
                foreign.append(entry)
                continue
            try:
                est = os.lstat(entry, dir_fd=fd)
                if stat.S_ISREG(est.st_mode) or stat.S_ISSOCK(est.st_mode):
                    size += est.st_size
                    os.unlink(entry, dir_fd=fd)
            except OSError as e:
                return Swept(path, False, reason=Sentence.verbatim("{file}: {error}", file=entry,
                                                          error=e.strerror))
        if foreign:
            return Swept(path, False, size, reason=Sentence(
                N_("it holds files diskmark did not make ({files})"),
                files=", ".join(sorted(foreign)[:3])))
        try:
            os.rmdir(name, dir_fd=target_fd)
        except OSError as e:
            return Swept(path, False, size, reason=Sentence.verbatim("{error}", error=e.strerror or str(e)))
        return Swept(path, True, size)
    finally:
        os.close(fd)


def sweep_target(target: Path, target_fd: int) -> list[Swept]:
    """Abandoned test directories directly in ``target`` (e.g. from a diskmark whose state
    directory was elsewhere)."""
    out: list[Swept] = []
    try:
        names = [n for n in os.listdir(target_fd) if NAME_RE.match(n)]
    except OSError:
        return out
    for name in names:
        found = _reap(target, target_fd, name)
        if found:
            out.append(found)
    return out


def sweep_register() -> list[Swept]:
    """Every registered test directory that no running diskmark holds: removed, saying so.
    A target that is not there now (an unplugged drive) is tried again next time."""
    out: list[Swept] = []
    folder = register_dir()
    try:
        records = sorted(folder.glob("*.json"))
    except OSError:
        return out
    for record in records:
        try:
            with open(record, "rb") as f:
                entry = json.loads(f.read(4096))
            target = Path(os.fsdecode(entry["target"].encode("utf-8", "surrogateescape")))
            name, ident = entry["name"], (int(entry["target_dev"]), int(entry["target_ino"]))
            created = float(entry.get("created", 0))
            held = Held.read(entry)
            if (not (held.names(name) if held else NAME_RE.match(name))
                    or int(entry.get("uid", -1)) != os.geteuid()):
                raise ValueError(name)
        except FileNotFoundError:
            continue
        except (OSError, ValueError, KeyError, TypeError, AttributeError, UnicodeError):
            forget_record(record)  # not a register entry diskmark can use
            continue
        try:
            target_fd = os.open(target, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            if time.time() - created > FORGET_S:
                forget_record(record)
            continue
        try:
            if not same_file(os.fstat(target_fd), ident):
                continue  # another filesystem is mounted there now
            try:
                st = os.lstat(name, dir_fd=target_fd)
            except FileNotFoundError:
                if time.time() - created > YOUNG_S:
                    forget_record(record)  # removed already (or never made)
                continue
            except OSError:
                continue
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                forget_record(record)  # something else has the name now: not ours to touch
                continue
            if held:
                found = _reap(target, target_fd, name, held.owns)
                if found:
                    found = replace(found, size=0, hosts=held.hosts, remote_file=held.left_file())
            else:
                found = _reap(target, target_fd, name)
            if found:
                out.append(found)
                if found.removed:
                    forget_record(record)
        finally:
            os.close(target_fd)
    return out

