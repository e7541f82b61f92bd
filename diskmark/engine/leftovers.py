"""Test directories a killed diskmark left behind (kill -9, a power cut), found and removed.

A live session holds an exclusive ``flock`` on its directory, and fio, which inherits the
descriptor, holds it too, so a directory nobody holds belongs to a diskmark that died. The
register in the state directory (written by :mod:`diskmark.engine.workspace` just before each
directory is made) finds it wherever it was; the target directory itself is searched before
each run, for a diskmark whose state directory was elsewhere. A fleet run's job-file
directory (:mod:`diskmark.engine.fleet.jobs_dir`) is registered and held the same way; its
register entry names the hosts and the test file a killed fleet run leaves on each.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from diskmark.engine.fleet.jobs_dir import JOB_FILE_RE
from diskmark.engine.fleet.jobs_dir import KIND as FLEET_KIND
from diskmark.engine.fleet.jobs_dir import NAME_RE as FLEET_NAME_RE
from diskmark.engine.sentence import Sentence
from diskmark.engine.workspace import DIR_FLAGS, NAME_RE, OWN_NAMES, forget_record, register_dir, same_file
from diskmark.locale import N_, _

#: A register entry is written just before its directory is made: one this young whose
#: directory is not there yet is kept.
YOUNG_S = 5.0
#: A register entry whose target has been unreachable this long is forgotten.
FORGET_S = 90 * 24 * 3600.0


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
            fleet = _fleet(entry)
            if not (fleet or NAME_RE).match(name) or int(entry.get("uid", -1)) != os.geteuid():
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
            if fleet:
                found = _reap(target, target_fd, name, JOB_FILE_RE.match)
                if found:
                    # TRANSLATORS: stands for this machine's network address in a file name
                    address = _("<this machine's address>")
                    remote = (f"{entry['directory']}/{address}.{entry['file']}"
                              if entry["file"] else "")
                    found = replace(found, size=0, hosts=tuple(entry["hosts"]),
                                    remote_file=remote)
            else:
                found = _reap(target, target_fd, name)
            if found:
                out.append(found)
                if found.removed:
                    forget_record(record)
        finally:
            os.close(target_fd)
    return out


def _fleet(entry: dict[str, Any]) -> re.Pattern[str] | None:
    """The name a fleet run's job-file directory has, when ``entry`` registers one (its
    hosts, target and test file checked as text); None for a local run's test directory."""
    if entry.get("kind") != FLEET_KIND:
        return None
    hosts, directory, file = entry["hosts"], entry["directory"], entry["file"]
    if not (isinstance(hosts, list) and all(isinstance(h, str) and h.isprintable() for h in hosts)
            and isinstance(directory, str) and directory.isprintable()
            and isinstance(file, str) and file.isprintable()):
        raise ValueError("not a fleet entry")
    return FLEET_NAME_RE
