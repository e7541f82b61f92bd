"""What diskmark knows about the machine: mounts, free space, device model, rotational, fs.

Read from /proc/self/mountinfo, /sys and statvfs only (psutil as a fallback where /proc is
missing), so it is fast, needs no root and never imports Textual. Everything is best effort:
a field that cannot be found stays empty or None instead of raising, because these facts
decorate a benchmark and must never stop one.
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from diskmark.model import SystemFacts

#: Kernel filesystems with nothing to benchmark (listing them would only be noise).
PSEUDO_FS = frozenset({
    "proc", "sysfs", "cgroup", "cgroup2", "devpts", "devtmpfs", "securityfs", "debugfs",
    "tracefs", "bpf", "pstore", "mqueue", "hugetlbfs", "configfs", "fusectl", "autofs",
    "binfmt_misc", "efivarfs", "nsfs", "rpc_pipefs", "selinuxfs", "nfsd", "fuse.gvfsd-fuse",
    "fuse.portal", "fuse.lxcfs",
})
#: Filesystems that cannot be written whatever their mount options say.
READONLY_FS = frozenset({"squashfs", "iso9660", "udf", "erofs", "cramfs"})
#: statvfs on these can block for a long time when the server is gone (df's classic hang).
NETWORK_FS = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "glusterfs", "9p",
                        "afs", "fuse.sshfs", "fuse.rclone", "fuse.s3fs", "davfs"})
STATVFS_TIMEOUT = 0.1  # seconds to wait for a network filesystem's statvfs


@dataclass
class _Mount:
    """One line of /proc/self/mountinfo, unescaped."""

    majmin: str  # "254:0"; virtual ("0:45") for btrfs, tmpfs, overlay…
    mountpoint: str
    fstype: str
    source: str
    options: str  # per-mount options merged with the superblock's, like /proc/mounts
    readonly: bool


@dataclass
class MountInfo:
    """A mounted filesystem as the target picker shows it."""

    mountpoint: str
    device: str
    fstype: str
    options: str
    total_bytes: int = 0
    free_bytes: int = 0  # available to an unprivileged user (f_bavail)
    model: str = ""
    rotational: bool | None = None
    readonly: bool = False
    pseudo: bool = False
    usable: bool = True
    reason: str = ""  # why it cannot be benchmarked; "" when usable


def _unescape(field: str) -> str:
    r"""The kernel writes space, tab, newline and backslash in paths as \040, \011, \012, \134."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def _read(path: str | Path) -> str:
    try:
        return Path(path).read_text(errors="replace").strip()
    except OSError:
        return ""


def _mount_table() -> list[_Mount]:
    """All mounts in mount order (later lines shadow earlier ones on the same mount point)."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except OSError:
        return _psutil_mount_table()
    mounts = []
    for line in lines:
        # id parent maj:min root mountpoint mount-opts [optional…] - fstype source super-opts
        left, sep, right = line.partition(" - ")
        a, b = left.split(), right.split()
        if not sep or len(a) < 6 or len(b) < 2:
            continue
        mnt_opts = a[5].split(",")
        super_opts = b[2].split(",") if len(b) > 2 else []
        readonly = "ro" in mnt_opts or "ro" in super_opts
        opts = ["ro" if readonly else "rw"] + [o for o in mnt_opts if o not in ("ro", "rw")]
        opts += [o for o in super_opts if o not in ("ro", "rw") and o not in opts]
        mounts.append(_Mount(a[2], _unescape(a[4]), _unescape(b[0]), _unescape(b[1]),
                             ",".join(opts), readonly))
    return mounts


def _psutil_mount_table() -> list[_Mount]:
    """Fallback without /proc/self/mountinfo: psutil's view, without major:minor."""
    try:
        import psutil
        parts = psutil.disk_partitions(all=True)
    except Exception:  # psutil missing or /etc/mtab unreadable: no mounts known
        return []
    return [_Mount("", p.mountpoint, p.fstype, p.device, p.opts, "ro" in p.opts.split(","))
            for p in parts]


def _contains(mountpoint: str, path: str) -> bool:
    return path == mountpoint or path.startswith(mountpoint.rstrip("/") + "/")


def _mount_of(path: str, mounts: list[_Mount]) -> _Mount | None:
    """The longest mount point containing ``path``; the last mounted wins on a tie."""
    best = None
    for m in mounts:
        if _contains(m.mountpoint, path) and (best is None or len(m.mountpoint) >= len(best.mountpoint)):
            best = m
    return best


# --- block devices in /sys ----------------------------------------------------------------


def _sys_block_dir(majmins: list[str], source: str) -> Path | None:
    """The /sys directory of the block device behind a mount, or None (tmpfs, NFS…).

    major:minor first (robust against /dev/root, /dev/mapper names); btrfs and other
    filesystems report a virtual st_dev, so fall back to stat-ing the mount's source device.
    """
    candidates = list(majmins)
    if source.startswith("/dev/"):
        try:
            rdev = os.stat(source).st_rdev
            candidates.append(f"{os.major(rdev)}:{os.minor(rdev)}")
        except OSError:
            pass
        candidates.append(source)
    for c in candidates:
        p = Path(f"/sys/class/block/{Path(c).name}" if c.startswith("/") else f"/sys/dev/block/{c}")
        if c and p.exists():
            return p.resolve()
    return None


def _whole_disk(block: Path) -> Path:
    """A partition's directory sits inside its disk's and has a ``partition`` file."""
    return block.parent if (block / "partition").exists() else block


def _leaves(disk: Path, depth: int = 0) -> list[Path]:
    """The physical disks under a dm/md device (following ``slaves``), or the disk itself."""
    try:
        slaves = sorted((disk / "slaves").iterdir())
    except OSError:
        slaves = []
    if not slaves or depth > 8:
        return [disk]
    found: list[Path] = []
    for s in slaves:
        for leaf in _leaves(_whole_disk(s.resolve()), depth + 1):
            if leaf not in found:
                found.append(leaf)
    return found


def _model(disk: Path) -> str:
    backing = _read(disk / "loop" / "backing_file")
    if backing:
        return f"loop: {backing}"
    model = _read(disk / "device" / "model") or _read(disk / "device" / "name")  # name: mmc
    if not model and "/virtio" in str(disk):
        model = "Virtio Block Device"
    return " ".join(model.split())


def _block_facts(block: Path | None) -> tuple[str, str, bool | None, str]:
    """(kernel name, model, rotational, scheduler) of the disk that does the I/O."""
    if block is None:
        return "", "", None, ""
    disk = _whole_disk(block)
    leaves = _leaves(disk)
    model = " + ".join(dict.fromkeys(m for m in map(_model, leaves) if m))
    queue = (leaves[0] if len(leaves) == 1 else disk) / "queue"
    rot = _read(queue / "rotational")
    sched = re.search(r"\[([^\]]+)\]", _read(queue / "scheduler"))
    return (block.name, model, {"0": False, "1": True}.get(rot),
            sched.group(1) if sched else "")


def _device_name(source: str, block_name: str) -> str:
    """The mount's source, except the useless alias /dev/root."""
    if block_name and source in ("/dev/root", ""):
        return f"/dev/{block_name}"
    return source


def _usage(path: str, fstype: str) -> tuple[int, int]:
    """(total, free to the user) in bytes; (0, 0) when unknown.

    Network filesystems are asked in a daemon thread so a dead server cannot hang the caller.
    """
    result = [0, 0]

    def ask() -> None:
        try:
            du = shutil.disk_usage(path)
            result[:] = [du.total, du.free]
        except OSError:
            pass

    if fstype in NETWORK_FS or fstype.startswith("fuse."):
        t = threading.Thread(target=ask, daemon=True, name=f"statvfs {path}")
        t.start()
        t.join(STATVFS_TIMEOUT)
    else:
        ask()
    return result[0], result[1]


# --- public API -------------------------------------------------------------------------------


def os_name() -> str:
    """PRETTY_NAME from os-release ("Debian GNU/Linux 12 (bookworm)"), else the system name."""
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        m = re.search(r'^PRETTY_NAME=(["\']?)(.*)\1\s*$', _read(path), re.M)
        if m and m.group(2):
            return m.group(2)
    return platform.system()


def facts_for(path: str | Path) -> SystemFacts:
    """Where a benchmark of ``path`` runs: mount, device, filesystem, sizes and disk model.

    A path that does not exist (yet) is described by its nearest existing parent.
    """
    target = Path(path).expanduser().absolute()
    with contextlib.suppress(OSError, RuntimeError):  # RuntimeError: a symlink loop
        target = target.resolve()
    facts = SystemFacts(target=str(target), kernel=platform.release(), os=os_name())
    existing = target
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        st_dev = os.stat(existing).st_dev
        majmins = [f"{os.major(st_dev)}:{os.minor(st_dev)}"]
    except OSError:
        majmins = []
    mount = _mount_of(str(existing), _mount_table())
    if mount:
        facts.mountpoint, facts.fstype, facts.mount_options = mount.mountpoint, mount.fstype, mount.options
    facts.total_bytes, facts.free_bytes = _usage(str(existing), facts.fstype)
    source = mount.source if mount else ""
    name, facts.model, facts.rotational, facts.scheduler = _block_facts(
        _sys_block_dir(majmins + ([mount.majmin] if mount else []), source))
    facts.device = _device_name(source, name)
    return facts


def list_mounts(include_pseudo: bool = False) -> list[MountInfo]:
    """Mounted filesystems a user might benchmark, one per mount point, sorted by it."""
    visible: dict[str, _Mount] = {}
    for m in _mount_table():
        visible[m.mountpoint] = m  # a later mount on the same point hides the earlier one
    result = []
    for mp in sorted(visible):
        m = visible[mp]
        kernel_dir = next((d for d in ("/proc", "/sys") if _contains(d, mp)), "")
        pseudo = m.fstype in PSEUDO_FS or m.fstype.startswith("cgroup") or bool(kernel_dir)
        if pseudo and not include_pseudo:
            continue
        readonly = m.readonly or m.fstype in READONLY_FS
        total, free = (0, 0) if pseudo else _usage(mp, m.fstype)
        name, model, rotational, _ = _block_facts(_sys_block_dir([m.majmin] if m.majmin else [], m.source))
        where = f" under {kernel_dir}" if kernel_dir and m.fstype not in PSEUDO_FS else ""
        reason = (f"pseudo filesystem ({m.fstype}{where})" if pseudo else "read-only" if readonly else "")
        result.append(MountInfo(mountpoint=mp, device=_device_name(m.source, name), fstype=m.fstype,
                                options=m.options, total_bytes=total, free_bytes=free, model=model,
                                rotational=rotational, readonly=readonly, pseudo=pseudo,
                                usable=not reason, reason=reason))
    return result


def human_bytes(n: int) -> str:
    """Binary units for display: "512 B", "16.0 MiB", "814.2 GiB"."""
    value, unit = float(n), "B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(value) < 1024 or unit == "PiB":
            break
        value /= 1024
    return f"{int(value)} B" if unit == "B" else f"{value:.1f} {unit}"
