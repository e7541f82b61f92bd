"""Checking a target before anything starts, and making the session's workspace.

A target is a directory (diskmark makes its own test file there) or a block device, which is
measured itself (:mod:`diskmark.engine.device`).

Every check here runs before fio does, so a bad target costs the user nothing: a clear
message, exit code 2, nothing left behind. The target is opened once; from then on
everything goes through that descriptor and the private workspace made under it
(:mod:`diskmark.engine.workspace`), never through the path again.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from diskmark.drive.probe import facts_for, facts_for_device
from diskmark.engine.denied import by_policy, refused
from diskmark.engine.device import DeviceWorkspace, block_device, open_device
from diskmark.engine.errors import TargetError
from diskmark.engine.leftovers import sweep_target
from diskmark.engine.plan import Plan, on_device
from diskmark.engine.sentence import Sentence
from diskmark.engine.workspace import Workspace, no_space_left
from diskmark.locale import N_, _
from diskmark.model.facts import SystemFacts
from diskmark.model.units import format_bytes as human_bytes
from diskmark.model.units import format_size

MARGIN = 16 * 1024 * 1024  # room for metadata beyond the test file itself


@dataclass
class TargetCheck:
    path: Path
    free_bytes: int | None  # None when the filesystem reports none (ramfs)
    workspace: Workspace | DeviceWorkspace
    fstype: str = ""
    #: what the user should know, said as a notice and kept (in English) in the result
    notes: list[Sentence] = field(default_factory=list)
    #: the plan as it runs here (a device without consent runs its read tests only)
    plan: Plan | None = None
    device: bool = False  # the target is a block device, measured itself

    def facts(self) -> SystemFacts:
        """Where the session runs (blocking: call it off the event loop)."""
        return facts_for_device(self.path) if self.device else facts_for(self.path)


def open_target(target: str | Path, size: int, direct: bool, nocow: bool = False,
                plan: Plan | None = None, destroy: str | None = None) -> TargetCheck:
    """Check ``target`` and make the workspace in it (or open the block device it names,
    for ``plan``, with consent to write to it if ``destroy`` names it too); raise
    TargetError with a helpful message (and nothing left behind) if a run there cannot
    work or must not happen. Blocking: call it off the event loop."""
    raw = Path(target).expanduser()
    try:
        os.stat(raw)
    except (FileNotFoundError, NotADirectoryError):
        raise TargetError(_("Target {path} does not exist.").format(path=raw),
                          _("Create the directory first or choose another target.")) from None
    except OSError as e:  # a directory on the way this user may not enter, a loop of links
        raise _cannot_open(raw, e) from None
    device = block_device(raw)
    if device is not None and plan is not None:
        if on_device(plan.settings, consent=True).nocow != nocow:  # typed: refused, not dropped
            raise TargetError(_("--nocow is for a test directory on btrfs; {path} is a block "
                                "device, measured itself, with no copy-on-write to turn off: "
                                "leave --nocow out.").format(path=raw))
        device_ws, plan, notes = open_device(raw, device, size, plan, destroy)
        return TargetCheck(device_ws.path, None, device_ws, "",
                           notes + _fs_notes("", direct, False), plan, device=True)
    path = raw.resolve()
    if destroy is not None:
        raise TargetError(_("--destroy-data is for a block device target; {path} is not "
                            "one.").format(path=path),
                          _("In a directory diskmark writes only its own test file: leave "
                            "--destroy-data out."))
    if not path.is_dir():
        raise TargetError((_("Target {path} is a device, not a directory.") if device else
                           _("Target {path} is a file, not a directory.")).format(path=path),
                          _("diskmark writes its own test file into a directory: give the "
                            "directory, or a block device (/dev/sdX) to measure the device "
                            "itself."))
    try:
        target_fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        raise _cannot_open(path, e) from None
    try:
        fstype = facts_for(path).fstype
        notes = [s.sentence() for s in sweep_target(path, target_fd)]
        workspace = _make_workspace(path, target_fd)
    finally:
        os.close(target_fd)  # the workspace keeps its own descriptor of the target
    try:
        if direct:
            workspace.probe_direct(fstype)
        free, blocks = workspace.free_bytes()
        if blocks == 0:
            free_or_none: int | None = None
            notes.append(Sentence(N_("{fstype} reports no size or free space; make sure {size} "
                                     "fits in memory."), fstype=fstype, size=format_size(size))
                         if fstype else
                         Sentence(N_("this filesystem reports no size or free space; make sure "
                                     "{size} fits in memory."), size=format_size(size)))
        elif free < size + MARGIN:
            need, have = _differing(size + MARGIN, free)
            raise TargetError(
                _("Not enough free space on {path}: the test needs {need} ({size} test file plus "
                  "room), {free} is free.").format(path=path, need=need, size=format_size(size),
                                                   free=have),
                _("Choose a smaller --size or another target."))
        else:
            free_or_none = free
        notes += _fs_notes(fstype, direct, nocow)
        if nocow and fstype == "btrfs":
            try:
                workspace.set_nocow()
            except OSError as e:
                raise TargetError(_("Could not turn copy-on-write off in {path}: {error}.").format(
                    path=path, error=e.strerror)) from None
        note = _others_can_write(path, workspace)
        if note:
            notes.append(note)
    except BaseException:
        workspace.remove()
        raise
    return TargetCheck(path, free_or_none, workspace, fstype, notes, plan)


def _cannot_open(path: Path, e: OSError) -> TargetError:
    """The target, or a directory on the way to it, cannot be opened: the system's reason."""
    return TargetError(_("Cannot open the target {path}: {error}.").format(path=path,
                                                                          error=e.strerror))


def _make_workspace(path: Path, target_fd: int) -> Workspace:
    try:
        return Workspace.create(path, target_fd)
    except PermissionError as e:
        if by_policy(e.errno or 0):
            raise refused(path, e, device=False) from None
        raise TargetError(_("Target {path} is not writable by this user.").format(path=path),
                          _("Choose a directory you can write to, or change its "
                            "permissions.")) from None
    except OSError as e:
        if e.errno == errno.EROFS:
            raise TargetError(_("Target {path} is on a read-only filesystem.").format(path=path),
                              _("Remount it read-write or choose another target.")) from None
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            raise no_space_left(path) from None
        raise TargetError(_("Cannot create a directory in {path}: {error}.").format(
            path=path, error=e.strerror)) from None


def _differing(a: int, b: int) -> tuple[str, str]:
    """Two sizes rounded so that different figures never read the same ("needs 272.0 MiB,
    272.0 MiB is free")."""
    for digits in (1, 2):
        x, y = human_bytes(a, digits), human_bytes(b, digits)
        if x != y:
            return x, y
    return (_("{count} bytes").format(count=f"{a:,}"), _("{count} bytes").format(count=f"{b:,}"))


def _fs_notes(fstype: str, direct: bool, nocow: bool) -> list[Sentence]:
    notes = []
    if fstype in ("tmpfs", "ramfs"):
        notes.append(Sentence(N_("{fstype} lives in memory: figures measure RAM, not a disk."),
                              fstype=fstype))
    elif fstype == "btrfs" and direct and not nocow:
        notes.append(Sentence(N_("btrfs (copy-on-write, checksums, compression) can let the page "
                                 "cache leak into O_DIRECT figures, especially random writes; a "
                                 "NOCOW test directory (--nocow) avoids that.")))
    elif fstype == "jfs" and direct:
        notes.append(Sentence(N_("JFS is known to let the page cache leak into O_DIRECT random "
                                 "writes: treat those figures with care.")))
    if nocow and fstype != "btrfs":
        notes.append(Sentence(N_("NOCOW applies to btrfs only; {fstype} runs as usual."),
                              fstype=fstype) if fstype else
                     Sentence(N_("NOCOW applies to btrfs only; this filesystem runs as usual.")))
    if not direct:
        notes.append(Sentence(N_("Buffered run (no O_DIRECT): figures include the page cache.")))
    return notes


def _others_can_write(path: Path, workspace: Workspace) -> Sentence | None:
    """As root in a directory others can write to, say why that is safe: the test file is
    in a directory only root can enter, and fio is given no path anyone could redirect."""
    if os.geteuid() != 0:
        return None
    try:
        mode = os.fstat(workspace.target_fd).st_mode
    except OSError:
        return None
    if not mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return Sentence(N_("Others can write to {path}; diskmark keeps its test file in {directory}, "
                       "which only root can enter, so nobody can swap it while it runs."),
                    path=path, directory=workspace.path)


