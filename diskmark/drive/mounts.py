"""The mount table and free space: which filesystem holds a path, and how much room it has.

Read from /proc/self/mountinfo and statvfs (psutil where /proc is missing). statvfs on a
network filesystem is asked in a daemon thread with a short timeout, because a dead server
would otherwise hang the caller (df's classic hang) and these facts must never stop a run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

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
class Mount:
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
    virtual: str = ""  # the hypervisor's kind of disk ("virtio", "VMware"…), "" for a real one
    readonly: bool = False
    pseudo: bool = False
    usable: bool = True
    reason: str = ""  # why it cannot be benchmarked; "" when usable
    #: a block device offered as a target itself (``mountpoint`` is then its /dev path,
    #: ``device`` "disk" or "partition"), not a mounted filesystem
    block_device: bool = False


def unescape(field: str) -> str:
    r"""The kernel writes space, tab, newline and backslash in paths as \040, \011, \012, \134."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mount_table() -> list[Mount]:
    """All mounts in mount order (later lines shadow earlier ones on the same mount point)."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError:
        return psutil_mount_table()
    return parse_mountinfo(text)


def parse_mountinfo(text: str) -> list[Mount]:
    """The lines of a mountinfo file (the live one, or one captured with a sysfs tree),
    each unescaped once: ``/mnt/a\\040b`` is the directory ``/mnt/a b``. Lines end at a
    newline only: the kernel escapes space, tab, newline and backslash in a name and leaves
    every other character as it is, so a name may hold what ``str.splitlines`` also breaks
    at (U+2028, U+0085, the form feed…)."""
    mounts = []
    for line in text.split("\n"):
        # id parent maj:min root mountpoint mount-opts [optional…] - fstype source super-opts
        left, sep, right = line.partition(" - ")
        a, b = left.split(" "), right.split(" ")  # one space apart; str.split() would break
        # a name at a no-break space or U+2028 too
        if not sep or len(a) < 6 or len(b) < 2:
            continue
        mnt_opts = a[5].split(",")
        super_opts = b[2].split(",") if len(b) > 2 else []
        readonly = "ro" in mnt_opts or "ro" in super_opts
        opts = ["ro" if readonly else "rw"] + [o for o in mnt_opts if o not in ("ro", "rw")]
        opts += [o for o in super_opts if o not in ("ro", "rw") and o not in opts]
        mounts.append(Mount(a[2], unescape(a[4]), unescape(b[0]), unescape(b[1]),
                             ",".join(opts), readonly))
    return mounts


def psutil_mount_table() -> list[Mount]:
    """Fallback without /proc/self/mountinfo: psutil's view, without major:minor."""
    try:
        import psutil
        parts = psutil.disk_partitions(all=True)
    except Exception:  # psutil missing or /etc/mtab unreadable: no mounts known
        return []
    return [Mount("", p.mountpoint, p.fstype, p.device, p.opts, "ro" in p.opts.split(","))
            for p in parts]


def contains(mountpoint: str, path: str) -> bool:
    return path == mountpoint or path.startswith(mountpoint.rstrip("/") + "/")


def mount_of(path: str, mounts: list[Mount]) -> Mount | None:
    """The longest mount point containing ``path``; the last mounted wins on a tie."""
    best = None
    for m in mounts:
        if contains(m.mountpoint, path) and (best is None or len(m.mountpoint) >= len(best.mountpoint)):
            best = m
    return best


def usage(path: str, fstype: str) -> tuple[int, int]:
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


def locate(path: str | Path) -> tuple[Path, Path, list[str], Mount | None]:
    """(target made absolute, its nearest existing path, that path's st_dev as ["maj:min"], mount)."""
    target = Path(path).expanduser().absolute()
    with contextlib.suppress(OSError, RuntimeError):  # RuntimeError: a symlink loop
        target = target.resolve()
    existing = target
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        st_dev = os.stat(existing).st_dev
        majmins = [f"{os.major(st_dev)}:{os.minor(st_dev)}"]
    except OSError:
        majmins = []
    return target, existing, majmins, mount_of(str(existing), mount_table())
