"""The stack under a target, from it down to the hardware: the file system that holds it
(found in mountinfo by the device number a bounded stat gives), what that file system sits
on (a block device's chain in sysfs, overlay's upper directory, a FUSE program's image or
device, a pool's devices), a file a layer keeps its data in followed down its own stack,
and so on to the disks.

It never hangs: every question about a path is asked with a bounded wait
(:mod:`.wait`), and a layer that does not answer is named as such. It never guesses
silently: a layer it does not know is shown as unknown, with what identifies it. It
writes nothing and starts no shell.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from diskmark.drive import mounts as mt
from diskmark.drive.stack import programs, wait
from diskmark.drive.stack.blocks import block_layers, sys_dir
from diskmark.drive.stack.filesystems import filesystem_layer
from diskmark.model.stack import Effect, Kind, Layer, LayerEffect, Unknown, unknown

#: A file's stack that leads to another file's …: reading stops after this many.
MAX_HOPS = 8


@dataclass
class System:
    """Where the stack is read: the live system (the defaults), or a captured one, whose
    sysfs tree and mountinfo are given and where nothing is stat'ed, asked of a program or
    of /proc (``live`` False)."""

    sys_root: Path = Path("/sys")
    proc_root: Path = Path("/proc")
    mounts: list[mt.Mount] | None = None
    live: bool = True
    wait_s: float = wait.WAIT_S
    _table: list[mt.Mount] = field(default_factory=list, repr=False)

    def mount_table(self) -> list[mt.Mount]:
        if self.mounts is not None:
            return self.mounts
        if not self._table:
            self._table = mt.mount_table()
        return self._table


@dataclass
class _Located:
    path: str  # made absolute (and resolved, when the file system answered)
    majmin: str  # the device number of what holds it: "254:0", "0:45"; "" when unknown
    block: str  # the device number when the path is a block device itself
    answered: bool


def _locate(path: str, system: System) -> _Located:
    """The path made absolute, its nearest existing part stat'ed, in a bounded wait."""
    lexical = os.path.normpath(os.path.abspath(os.path.expanduser(path)))
    if not system.live:
        return _Located(lexical, "", "", True)

    def look() -> tuple[str, os.stat_result]:
        real = os.path.realpath(lexical)
        existing = real
        while not os.path.exists(existing) and existing != os.path.dirname(existing):
            existing = os.path.dirname(existing)
        return real, os.stat(existing)

    answer = wait.ask(f"stat {lexical}", look, system.wait_s)
    if not answer.answered or answer.value is None:
        return _Located(lexical, "", "", answer.answered)
    real, st = answer.value
    majmin = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
    block = (f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}" if stat.S_ISBLK(st.st_mode)
             and real.startswith("/dev/") else "")
    return _Located(real, majmin, block, True)


def _mount_of(where: _Located, mounts: list[mt.Mount]) -> mt.Mount | None:
    """The mount holding the path: among those whose mount point contains it, the deepest
    with its device number (a bind mount of another file system cannot claim it), else the
    deepest; the last mounted wins a tie."""
    holding = [m for m in mounts if mt.contains(m.mountpoint, where.path)]
    same = [m for m in holding if where.majmin and m.majmin == where.majmin]
    best = None
    for m in same or holding:
        if best is None or len(m.mountpoint) >= len(best.mountpoint):
            best = m
    return best


def _source_block(mount: mt.Mount, system: System) -> Path | None:
    """The sysfs directory of the block device a mount sits on: by its device number when
    it is a real one, else by its source (btrfs and others show a virtual number)."""
    major = mount.majmin.partition(":")[0]
    if major not in ("", "0"):
        found = sys_dir(mount.majmin, system.sys_root)
        if found is not None:
            return found
    if mount.source.startswith("/dev/"):
        if system.live:
            try:
                rdev = os.stat(mount.source).st_rdev
                found = sys_dir(f"{os.major(rdev)}:{os.minor(rdev)}", system.sys_root)
                if found is not None:
                    return found
            except OSError:
                pass
        return sys_dir(os.path.basename(mount.source), system.sys_root)
    return None


def _btrfs_devices(block: Path | None, system: System) -> list[Path]:
    """Every device of the btrfs the mount's source belongs to (/sys/fs/btrfs/FSID/devices
    lists them), the source first; [block] when sysfs does not say."""
    if block is None:
        return []
    try:
        for fs in sorted((system.sys_root / "fs" / "btrfs").iterdir()):
            devices = fs / "devices"
            if (devices / block.name).exists():
                found = [Path(os.path.realpath(d)) for d in sorted(devices.iterdir())]
                return [block] + [d for d in found if d.name != block.name]
    except OSError:
        pass
    return [block]


def _btrfs_profile(block: Path | None, system: System) -> str:
    """The data profile (single, dup, raid0, raid1, raid10, raid5, raid6, raid1c3…)."""
    if block is None:
        return ""
    try:
        for fs in (system.sys_root / "fs" / "btrfs").iterdir():
            if (fs / "devices" / block.name).exists():
                data = fs / "allocation" / "data"
                return next((p.name for p in sorted(data.iterdir()) if p.is_dir()), "")
    except OSError:
        pass
    return ""


class _Reader:
    """One reading of a stack: the system, and the files already followed (a loop's file on
    a file system on that loop would go round for ever)."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.hops = 0

    def path_layers(self, path: str, depth: int) -> list[Layer]:
        """The layers under ``path``: its file system, and what that sits on."""
        system = self.system
        where = _locate(path, system)
        if where.block:  # a block device itself
            block = sys_dir(where.block, system.sys_root)
            if block is not None:
                return self.blocks(block, depth)
        mount = _mount_of(where, system.mount_table())
        if mount is None:
            return [Layer(Kind.UNKNOWN, where.path, depth, effects=[
                unknown(Unknown.NO_MOUNT, where.path)])]
        layer = filesystem_layer(mount, where.path, depth, system.sys_root,
                                 system.live and where.answered)
        if not where.answered:
            layer.effects.append(LayerEffect(Effect.NO_ANSWER, None, {"seconds": system.wait_s}))
            return [layer]
        if layer.kind in (Kind.FUSE, Kind.NETWORK) and system.live:
            answer = wait.statvfs(mount.mountpoint, system.wait_s)
            if not answer.answered:
                layer.effects.append(LayerEffect(Effect.NO_ANSWER, None,
                                                 {"seconds": system.wait_s}))
        return [layer, *self.below(layer, mount, depth)]

    def below(self, layer: Layer, mount: mt.Mount, depth: int) -> list[Layer]:
        """What a file system's layer sits on."""
        system = self.system
        if layer.kind in (Kind.MEMORY, Kind.NETWORK):
            return []
        if layer.kind is Kind.OVERLAY:
            upper = layer.facts.get("upperdir", "")
            return self.file_layers(upper, depth + 1, as_file=False) if upper else []
        if layer.kind is Kind.FUSE:
            return self.fuse_below(layer, mount, depth)
        if layer.type == "zfs":
            found = []
            for device in programs.zpool_devices(mount.source.partition("/")[0]) \
                    if system.live else []:
                block = sys_dir(os.path.basename(os.path.realpath(device)), system.sys_root)
                if block is not None:
                    found += self.blocks(block, depth + 1)
            return found
        block = _source_block(mount, system)
        if layer.type == "btrfs":
            devices = _btrfs_devices(block, system)
            profile = _btrfs_profile(block, system)
            if profile:
                layer.facts["data_profile"] = profile
            members: list[Layer] = []
            for member in devices:
                members += self.blocks(member, depth + 1)
            return members
        if block is not None:
            return self.blocks(block, depth + 1)
        layer.effects.append(unknown(Unknown.NO_SOURCE, mount.source))
        return []

    def fuse_below(self, layer: Layer, mount: mt.Mount, depth: int) -> list[Layer]:
        """A FUSE program's storage: a block device (ntfs-3g, exfat on fuseblk), an image
        file (fuse2fs), a remote host (sshfs's ``user@host:path``), or nothing known."""
        system = self.system
        daemon = (programs.fuse_daemon(mount.mountpoint, system.proc_root, system.wait_s)
                  if system.live else None)
        if daemon is not None:
            layer.facts["program"] = daemon.program
            layer.facts["pid"] = str(daemon.pid)
            for effect in layer.effects:
                if effect.effect is Effect.FUSE:
                    effect.values["program"] = daemon.program
        source = mount.source
        path = source if source.startswith("/") else ""
        if not path and daemon is not None and source and ":" not in source:
            # a relative image (fuse2fs ext.img): the file the program holds by that name
            path = next((f for f in daemon.files if f.startswith("/")
                         and os.path.basename(f) == os.path.basename(source)), "")
        if path and system.live:
            answer = wait.stat(path, system.wait_s)
            if answer.answered and answer.value is not None:
                if stat.S_ISBLK(answer.value.st_mode):
                    rdev = answer.value.st_rdev
                    block = sys_dir(f"{os.major(rdev)}:{os.minor(rdev)}", system.sys_root)
                    return self.blocks(block, depth + 1) if block is not None else []
                if stat.S_ISREG(answer.value.st_mode):
                    return self.file_layers(path, depth + 1)
        if source.startswith("/dev/"):
            block = sys_dir(os.path.basename(source), system.sys_root)
            return self.blocks(block, depth + 1) if block is not None else []
        if ":" in source and not source.startswith("/"):  # sshfs, rclone: host:path, remote:
            return [Layer(Kind.NETWORK, source, depth + 1, type=layer.type,
                          effects=[LayerEffect(Effect.NETWORK, None, {"server": source})])]
        return []

    def blocks(self, block: Path, depth: int) -> list[Layer]:
        return block_layers(block, self.system.sys_root, depth, self.file_layers,
                            self.system.live)

    def file_layers(self, path: str, depth: int, as_file: bool = True) -> list[Layer]:
        """A file (or, for overlay's upper directory, a directory) a layer keeps its data
        in, then the stack under it."""
        self.hops += 1
        if self.hops > MAX_HOPS:
            return [Layer(Kind.UNKNOWN, path, depth, effects=[
                unknown(Unknown.TOO_DEEP, path)])]
        if not as_file:
            return self.path_layers(path, depth)
        layer = Layer(Kind.FILE, path, depth)
        if self.system.live:
            answer = wait.stat(path, self.system.wait_s)
            if answer.answered and answer.value is not None:
                layer.facts["size"] = str(answer.value.st_size)
        return [layer, *self.path_layers(path, depth + 1)]


def stack_of(target: str | Path, system: System | None = None) -> list[Layer]:
    """The layers under ``target`` (a directory, a file, or a block device), outermost
    first. Never raises: what cannot be read is a layer that says so."""
    reader = _Reader(system or System())
    try:
        return reader.path_layers(str(target), 0)
    except Exception as e:  # best effort, like every fact: never stop a run or `why`
        return [Layer(Kind.UNKNOWN, str(target), 0, effects=[
            unknown(Unknown.ERROR, f"{type(e).__name__}: {e}")])]


def block_stack(device: str, system: System | None = None) -> list[Layer]:
    """The layers under a block device given by its kernel name or device number."""
    system = system or System()
    block = sys_dir(device, system.sys_root)
    if block is None:
        return [Layer(Kind.UNKNOWN, device, 0, effects=[
            unknown(Unknown.NO_DEVICE, device)])]
    return _Reader(system).blocks(block, 0)

