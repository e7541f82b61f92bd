"""A block device as the target: the device itself is measured, with O_DIRECT, and its data
stays untouched unless the user names the device to be destroyed.

- Reads only, by default. Nothing is laid out: the read tests read the first ``--size``
  bytes as they are, and fio runs them with ``--readonly`` on a descriptor diskmark opened
  read-only, so not one byte can change. Write and mix tests would overwrite the device,
  so they run only when ``--destroy-data`` names the same device (compared by device
  number, not by spelling), and never while it or a partition is mounted, swap, or held by
  LVM, device-mapper or md (:mod:`diskmark.engine.device_use`); a write session also
  claims the device exclusively (``O_EXCL``), so nothing can mount it while fio writes.
- fio is given the device's kernel name in /dev (``/dev/sdb``, whatever link the user
  typed: ``/dev/disk/by-id/usb-…:0`` holds colons, which fio reads as a list of files),
  made only of characters fio's option parser leaves alone. A /dev path rather than
  ``/proc/self/fd/N``: the fio command kept with every result is one a user can run again
  by hand. The path could name another device by the time fio opens it (unplugged, and
  another disk given the same name), so diskmark keeps the device open for the session and
  checks, before every test and every second while fio runs, that the name still leads to
  the same device number and the same disk sequence number (``diskseq``, which the kernel
  increments whenever a disk or a loop device is attached anew).
- diskmark never asks for root. A user who may not open the device is told which group
  owns it, so they know what to ask for; one refused by a policy that binds root too (a
  container's device cgroup, a security module) is told that, not to become root.
"""

from __future__ import annotations

import dataclasses
import errno
import fcntl
import grp
import os
import re
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path

from diskmark.drive.sysfs import read_sys
from diskmark.engine import device_use
from diskmark.engine.denied import by_policy, refused
from diskmark.engine.errors import TargetError
from diskmark.engine.plan import Plan, on_device
from diskmark.engine.sentence import Sentence, said_together
from diskmark.locale import N_, _
from diskmark.model.numerals import digits_only
from diskmark.model.settings import Mode, Op
from diskmark.model.units import SIZE_MIN, SIZE_STEP, format_size
from diskmark.model.units import format_bytes as human_bytes

BLKGETSIZE64 = 0x80081272
BLKROGET = 0x125E
#: A /dev path fio's option parser reads as one plain file name (no ``:``, ``;``, ``#``,
#: spaces or ``..``).
SAFE_PATH = re.compile(r"^/dev(/[A-Za-z0-9_+-][A-Za-z0-9_.+-]*)+$")


def block_device(path: Path) -> os.stat_result | None:
    """``path``'s status if it is a block device (after symbolic links), else None."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st if stat.S_ISBLK(st.st_mode) else None


@dataclass
class DeviceWorkspace:
    """What the runner holds for a device target, in place of a workspace directory: the
    device kept open for the session, and fio's working directory (``/``: fio creates
    nothing for a device)."""

    path: Path  # the /dev path fio is given
    device_fd: int
    fd: int  # fio's working directory
    rdev: int
    diskseq: str
    problems: list[Sentence] = field(default_factory=list)
    _closed: bool = False

    @property
    def target(self) -> Path:
        return self.path

    def create_test_file(self, size: int) -> None:
        """Nothing to make: the device is read (and, with consent, written) as it is."""

    def open_test_file(self, flags: int = os.O_RDONLY) -> int:
        """A descriptor of the device (to flush it after a write test)."""
        return os.dup(self.device_fd)

    def lost(self) -> str | None:
        """Why the run can no longer be trusted: the device went away, or its name now
        leads to another device."""
        sysdir = device_use.sys_dir(self.rdev)
        st = block_device(self.path)
        if (sysdir is None or st is None or st.st_rdev != self.rdev
                or read_sys(sysdir / "diskseq") != self.diskseq):
            return _("The device {path} was removed or replaced during the run; what was "
                     "measured after that is not the device's.").format(path=self.path)
        return None

    def remove(self) -> list[Sentence]:
        """Close the device; nothing was made on it, so nothing is left to remove."""
        if not self._closed:
            for fd in (self.device_fd, self.fd):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._closed = True
        return self.problems


def open_device(given: Path, st: os.stat_result, size: int, plan: Plan,
                destroy: str | None) -> tuple[DeviceWorkspace, Plan, list[Sentence]]:
    """Check the device ``given`` names (its status ``st``) and open it: returns the
    session's hold on it, the plan as it runs on the device (read tests only unless the
    user consented to writes) and notes for the user. Raises TargetError before anything
    starts when the run cannot or must not happen."""
    path = fio_path(given, st.st_rdev)
    consent = _consent(destroy, st.st_rdev, path)
    sysdir = device_use.sys_dir(st.st_rdev)
    plan, notes = _device_plan(plan, path, consent, read_only(path, sysdir))
    write = any(t.op is not Op.READ for t in plan.tests) or any(
        j.op is not Op.READ for j in plan.jobs)
    users = device_use.users(sysdir) if sysdir is not None else []
    if write and users:
        raise _in_use(path, users)
    fd = _open(path, st, write, users)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISBLK(opened.st_mode) or opened.st_rdev != st.st_rdev:
            raise TargetError(_("{path} changed while diskmark opened it; nothing was "
                                "started.").format(path=path))
        device_bytes = _size(fd, sysdir)
        if device_bytes <= 0:
            raise TargetError(_("{path} has no medium or a size of 0 bytes.").format(path=path),
                              _("Insert the medium or attach the device, then run again."))
        if size > device_bytes:
            fits = device_bytes - device_bytes % SIZE_STEP
            hint = (_("Choose --size {size} or less: diskmark tests that much from the start of "
                      "the device.").format(size=format_size(fits)) if fits >= SIZE_MIN else
                    _("diskmark tests at least {size}: choose a larger device.").format(
                        size=format_size(SIZE_MIN)))
            raise TargetError(_("The tested region ({size}) is larger than {path} "
                                "({device_size}).").format(size=format_size(size), path=path,
                                                          device_size=human_bytes(device_bytes)),
                              hint)
        cwd = os.open("/", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except BaseException:
        os.close(fd)
        raise
    what = format_size(size)
    if any(t.op is Op.READ for t in plan.tests):
        notes.insert(0, Sentence(N_("diskmark measures the device {path} itself, its first "
                                    "{size}: no test file is laid out, so the read tests read "
                                    "what is already there (on an SSD, blocks never written or "
                                    "trimmed can read faster than data would)."),
                                 path=path, size=what))
    else:
        notes.insert(0, Sentence(N_("diskmark measures the device {path} itself, its first "
                                    "{size}: no test file is laid out."), path=path, size=what))
    if write:
        notes.append(Sentence(N_("The write tests overwrite the first {size} of {path}, as "
                                 "--destroy-data allowed: what was there is lost."),
                              size=what, path=path))
    elif users:
        # TRANSLATORS: {uses} are sentences such as "/dev/sdb1 is mounted at /mnt"
        notes.append(Sentence(N_("{uses}: the read tests change nothing, but its own I/O can "
                                 "disturb the figures."), uses=users))
    diskseq = read_sys(sysdir / "diskseq") if sysdir is not None else ""
    workspace = DeviceWorkspace(path, fd, cwd, st.st_rdev, diskseq)
    return workspace, dataclasses.replace(plan, filename=str(path), readonly=not write), notes


def fio_path(given: Path, rdev: int) -> Path:
    """The /dev path fio is given: where ``given`` leads, or else /dev/<kernel name>, if it
    is the same device and made of characters fio reads plainly."""
    candidates = [Path(os.path.realpath(given))]
    sysdir = device_use.sys_dir(rdev)
    if sysdir is not None:
        candidates.append(Path("/dev") / sysdir.name)
    for path in candidates:
        found = block_device(path)
        if SAFE_PATH.match(str(path)) and found is not None and found.st_rdev == rdev:
            return path
    raise TargetError(_("{path} leads to no /dev path fio can be given safely.").format(path=given),
                      _("Give the device by its name in /dev (such as {example}).").format(
                          example=f"/dev/{sysdir.name if sysdir else 'sdb'}"))


def _consent(destroy: str | None, rdev: int, path: Path) -> bool:
    """Whether the user named the target device to be destroyed; naming anything else is
    refused, so one mistyped letter cannot wipe the wrong disk."""
    if destroy is None:
        return False
    named = block_device(Path(destroy).expanduser())
    if named is None or named.st_rdev != rdev:
        refusal = (_("--destroy-data {named} is no block device, not the target {path}; "
                     "nothing was started.") if named is None else
                   _("--destroy-data {named} is another device, not the target {path}; nothing "
                     "was started."))
        raise TargetError(
            refusal.format(named=destroy, path=path),
            _("diskmark writes only to the device named by both --target and --destroy-data: "
              "pass --destroy-data {path} to destroy the data on {path}, or leave it out to run "
              "the read tests only.").format(path=path))
    return True


def read_only(path: Path, sysdir: Path | None) -> bool:
    """Whether the kernel holds the device read-only (``losetup -r``, ``blockdev --setro``,
    a write-protected card): its own flag or its disk's (``BLKROGET``), or sysfs's ``ro``.
    fio opens such a device for writing all the same, and every write fails."""
    if sysdir is not None and read_sys(sysdir / "ro") == "1":
        return True
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False  # opening it for the run says why, in its own words
    try:
        flag: int = struct.unpack("=i", fcntl.ioctl(fd, BLKROGET, b"\0" * 4))[0]
        return flag != 0
    except OSError:
        return False
    finally:
        os.close(fd)


def _device_plan(plan: Plan, path: Path, consent: bool,
                 read_only: bool) -> tuple[Plan, list[Sentence]]:
    """The tests that run on the device. Without consent: the read tests only when the user
    asked for reads and writes (the default), a refusal when they asked for writes as such
    (--mode write, a mix, a profile of writes only). On a read-only device, writes asked
    for (with consent or as such) are refused for that reason, in one line."""
    reads = tuple(t for t in plan.tests if t.op is Op.READ)
    read_jobs = tuple(j for j in plan.jobs if j.op is Op.READ)  # a check's own jobs
    if len(reads) == len(plan.tests) and len(read_jobs) == len(plan.jobs):
        return plan, []
    settings = plan.settings
    runs = on_device(settings)  # without consent: no +Mix (NOCOW was refused before)
    explicit = (settings.mode is Mode.WRITE or runs.mix != settings.mix
                or not (reads or read_jobs))
    if read_only and (consent or explicit):
        raise _read_only(path)
    if consent:
        return plan, []
    if explicit:
        raise TargetError(
            _("Write tests on {path} would destroy the data on it: on a device they write over "
              "the device itself, not a test file.").format(path=path),
            _("To measure writes and lose everything on {path}, add --destroy-data {path} "
              "(naming the same device); or run the read tests only (--mode read).").format(
                  path=path))
    note = (Sentence(N_("Write tests skipped: {path} is read-only (the kernel's read-only flag "
                        "is set), so only the read tests ran."), path=path) if read_only else
            Sentence(N_("Write tests skipped: on a device they would destroy its data, so only "
                        "the read tests ran (diskmark run --destroy-data {path} runs them, "
                        "destroying everything on {path})."), path=path))
    tests = tuple(dataclasses.replace(t, index=i) for i, t in enumerate(reads))
    ran = dataclasses.replace(runs, mode=Mode.READ)  # what the result says
    return dataclasses.replace(plan, tests=tests, settings=ran, jobs=read_jobs), [note]


def _open(path: Path, st: os.stat_result, write: bool, users: list[Sentence]) -> int:
    """The device, read-only for reads; for writes read-write and exclusive, which the
    kernel refuses while anything (a mount, swap, a holder, another exclusive opener)
    claims the device or one of its partitions."""
    flags = (os.O_RDWR | os.O_EXCL if write else os.O_RDONLY) | os.O_CLOEXEC
    try:
        return os.open(path, flags)
    except OSError as e:
        if e.errno in (errno.EACCES, errno.EPERM):
            raise (refused(path, e, device=True) if by_policy(e.errno)
                   else _denied(path, st, write)) from None
        if e.errno == errno.EBUSY:  # another exclusive opener, or a use that came since
            raise _in_use(path, users) from None
        if e.errno == errno.EROFS:  # the read-only flag, set since it was read
            raise _read_only(path) from None
        if e.errno in (errno.ENOMEDIUM, errno.ENXIO, errno.ENODEV):
            raise TargetError(_("{path} has no medium or is not attached: {error}.").format(
                path=path, error=e.strerror)) from None
        raise TargetError(_("Cannot open the device {path}: {error}.").format(
            path=path, error=e.strerror)) from None


def _in_use(path: Path, users: list[Sentence]) -> TargetError:
    """Writing to ``path`` is refused while something uses it (``users``, as far as they
    are known), whether seen before it was opened or by the kernel as it was."""
    # TRANSLATORS: {uses} are sentences such as "/dev/sdb1 is mounted at /mnt"
    in_use = (_("{path} is in use, so diskmark will not write to it, even with --destroy-data: "
                "{uses}.") if users else
              _("{path} is in use, so diskmark will not write to it, even with "
                "--destroy-data."))
    return TargetError(in_use.format(path=path, uses=said_together(users)),
                       _("Unmount it and its partitions, turn its swap off or stop what holds "
                         "it (LVM, RAID, another program), then run again; or run the read "
                         "tests only (--mode read)."))


def _read_only(path: Path) -> TargetError:
    """Writes asked for on a device the kernel holds read-only, whether its flag was read
    before it was opened or the kernel refused the opening for it."""
    return TargetError(_("{path} is read-only (the kernel's read-only flag is set), so the "
                         "write tests cannot run on it; nothing was started: run the read "
                         "tests only (--mode read).").format(path=path))


def _denied(path: Path, st: os.stat_result, write: bool) -> TargetError:
    """Which privilege is missing, so the user knows what to ask for: the file's permissions
    refused this user (a refusal root would meet too is :func:`~diskmark.engine.denied.refused`)."""
    bits = (stat.S_IRGRP | stat.S_IWGRP) if write else stat.S_IRGRP
    try:
        group = grp.getgrgid(st.st_gid).gr_name
    except KeyError:
        group = str(st.st_gid)
    if st.st_mode & bits == bits:
        hint = (_("{path} belongs to the group '{group}', whose members may read and write it: "
                  "ask for membership of '{group}' (then log in again), or run diskmark as root. "
                  "diskmark never asks for root itself.") if write else
                _("{path} belongs to the group '{group}', whose members may read it: ask for "
                  "membership of '{group}' (then log in again), or run diskmark as root. "
                  "diskmark never asks for root itself."))
    else:
        hint = (_("Only its owner may read and write {path}: run diskmark as root. diskmark "
                  "never asks for root itself.") if write else
                _("Only its owner may read {path}: run diskmark as root. diskmark never asks "
                  "for root itself."))
    denied = (_("Permission denied: this user may not read and write the device {path}.")
              if write else _("Permission denied: this user may not read the device {path}."))
    return TargetError(denied.format(path=path), hint.format(path=path, group=group))


def _size(fd: int, sysdir: Path | None) -> int:
    """The device's size in bytes, from the kernel (sysfs counts 512-byte sectors)."""
    try:
        buf = fcntl.ioctl(fd, BLKGETSIZE64, b"\0" * 8)
        size: int = struct.unpack("=Q", buf)[0]
        return size
    except OSError:
        pass
    sectors = read_sys(sysdir / "size") if sysdir is not None else ""
    return int(sectors) * 512 if digits_only(sectors) else 0
