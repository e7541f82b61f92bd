"""A mounted file system as a layer: its kind (a disk's file system, FUSE, a network's,
overlay, memory), what identifies it, and the mount options and properties that change the
figures (btrfs's and ZFS's compression, ``sync``, ``dax``, ZFS's ARC before OpenZFS 2.3),
each with its source in :mod:`.figures`."""

from __future__ import annotations

import fcntl
import os
import struct
from pathlib import Path

from diskmark.drive.mounts import Mount, unescape
from diskmark.drive.stack import programs
from diskmark.drive.stack.figures import COMPRESS_OPTIONS, DAX_OPTIONS, SYNC_OPTIONS, ZFS_DIRECT_IO
from diskmark.model.stack import Effect, Kind, Layer, LayerEffect

MEMORY_FS = frozenset({"tmpfs", "ramfs"})
#: File systems served over a network, or by the host of a virtual machine.
NETWORK_FS = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "glusterfs", "9p",
                        "afs", "virtiofs", "lustre", "gpfs", "beegfs", "davfs", "ncpfs"})
#: The options of a network mount that change figures (nfs(5), mount.cifs(8), the kernel's
#: Documentation/filesystems/9p.rst): protocol version, transport, transfer sizes, caching.
NETWORK_OPTIONS = ("vers", "proto", "rsize", "wsize", "cache", "trans", "msize", "sync",
                   "hard", "soft", "addr")
#: FS_IOC_GETFLAGS and its "compress this" flag (linux/fs.h: FS_COMPR_FL), which
#: ``chattr +c`` sets on a btrfs directory for what is made in it.
FS_IOC_GETFLAGS = 0x80086601
FS_COMPR_FL = 0x00000004


def options(mount: Mount) -> dict[str, str]:
    """The mount's options as name → value ("" for a flag), each value unescaped as
    mountinfo escapes it (overlay's ``lowerdir=/a\\054b``)."""
    found: dict[str, str] = {}
    for option in mount.options.split(","):
        name, _eq, value = option.partition("=")
        if name:
            found[name] = unescape(value)
    return found


def _directory_compressed(path: str) -> bool:
    """Whether ``chattr +c`` asks btrfs to compress what is written in ``path``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        # the request names a long; the kernel writes an int into it
        flags: int = struct.unpack("=i", fcntl.ioctl(fd, FS_IOC_GETFLAGS, b"\0" * 8)[:4])[0]
        return bool(flags & FS_COMPR_FL)
    except OSError:
        return False
    finally:
        os.close(fd)


def _common(layer: Layer, opts: dict[str, str]) -> None:
    """What any file system's mount options say: every write synchronous, DAX."""
    if any(o in opts for o in SYNC_OPTIONS):
        layer.effects.append(LayerEffect(Effect.SYNC, None, {"option": "sync"}))
    if "dax" in opts:
        option = f"dax={opts['dax']}" if opts["dax"] else "dax"
        if option in DAX_OPTIONS:  # dax=inode is per file, dax=never none
            layer.effects.append(LayerEffect(Effect.DAX, None, {"option": option}))


def _btrfs(layer: Layer, opts: dict[str, str], target: str, live: bool) -> None:
    compress = next((opts[o] or "zlib" for o in COMPRESS_OPTIONS if o in opts), "")
    if compress and compress != "no":
        layer.facts["compression"] = compress
        layer.effects.append(LayerEffect(Effect.COMPRESSED, None, {"algorithm": compress}))
    elif live and _directory_compressed(target):
        layer.facts["compression"] = "chattr +c"
        layer.effects.append(LayerEffect(Effect.COMPRESSED, None, {"algorithm": "chattr +c"}))


def _zfs(layer: Layer, dataset: str, sys_root: Path, live: bool) -> None:
    props = programs.zfs_properties(dataset) if live else {}
    layer.facts.update({k: v for k, v in props.items()})
    version = programs.zfs_version(sys_root)
    if version is not None:
        layer.facts["zfs_version"] = f"{version[0]}.{version[1]}"
    cache = props.get("primarycache", "all")
    direct = props.get("direct", "")
    # the module's version says whether O_DIRECT is honoured; without it, nothing is guessed
    ignores = version is not None and (version < ZFS_DIRECT_IO or direct == "disabled")
    if cache == "all" and ignores:
        layer.effects.append(LayerEffect(Effect.ARC, None, {
            "version": layer.facts.get("zfs_version", ""),
            "honoured_from": f"{ZFS_DIRECT_IO[0]}.{ZFS_DIRECT_IO[1]}"}))
    compression = props.get("compression", "")
    if compression and compression != "off":
        layer.effects.append(LayerEffect(Effect.COMPRESSED, None, {"algorithm": compression}))
    if props.get("sync") == "always":
        layer.effects.append(LayerEffect(Effect.SYNC, None, {"option": "sync=always"}))


def filesystem_layer(mount: Mount, target: str, depth: int, sys_root: Path,
                     live: bool) -> Layer:
    """The layer a mount is, with the effects its type and options have."""
    opts = options(mount)
    fstype = mount.fstype
    facts = {"options": mount.options, "source": mount.source}
    if fstype in MEMORY_FS:
        layer = Layer(Kind.MEMORY, mount.mountpoint, depth, type=fstype, facts=facts,
                      effects=[LayerEffect(Effect.MEMORY)])
    elif fstype == "overlay":
        layer = Layer(Kind.OVERLAY, mount.mountpoint, depth, type=fstype, facts=facts)
        for key in ("upperdir", "lowerdir", "workdir"):
            if key in opts:
                layer.facts[key] = opts[key]
        if "upperdir" in opts:
            layer.effects.append(LayerEffect(Effect.UPPER, None, {"upper": opts["upperdir"]}))
    elif fstype in ("fuse", "fuseblk") or fstype.startswith("fuse."):
        layer = Layer(Kind.FUSE, mount.mountpoint, depth,
                      type=fstype.partition(".")[2] or fstype, facts=facts,
                      effects=[LayerEffect(Effect.FUSE)])
    elif fstype in NETWORK_FS:
        layer = Layer(Kind.NETWORK, mount.mountpoint, depth, type=fstype, facts=facts)
        for key in NETWORK_OPTIONS:
            if key in opts:
                layer.facts[key] = opts[key] or key
        layer.effects.append(LayerEffect(Effect.NETWORK, None, {"server": mount.source}))
    else:
        layer = Layer(Kind.FILESYSTEM, mount.mountpoint, depth, type=fstype, facts=facts)
        if fstype == "btrfs":
            _btrfs(layer, opts, target, live)
        elif fstype == "zfs":
            _zfs(layer, mount.source, sys_root, live)
    _common(layer, opts)
    return layer
