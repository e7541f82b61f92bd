"""Block devices, from the one a file system sits on down to the disks, read from sysfs as
``lsblk -s`` reads it: a partition and its disk, device-mapper by the owner its uuid names
(``CRYPT-LUKS2-…``, ``LVM-…``, ``mpath-…``), md with its level and state, bcache, zram, a
loop device and the file behind it. Every directory is found under a sysfs root given, so
a captured tree is read by the same code as the live system.

What the kernel does not put in sysfs is asked of the tools a system has, only on the live
system: dm-crypt's cipher from ``dmsetup table`` (root only; its key is never printed
without ``--showkeys``, which is never passed).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from diskmark.drive.probe import whole_disk
from diskmark.drive.stack.disks import disk_layer
from diskmark.drive.sysfs import read_sys
from diskmark.files import program
from diskmark.model.numerals import digits_only
from diskmark.model.stack import Effect, Kind, Layer, LayerEffect, Unknown, unknown

#: What follows a file a layer keeps its data in (a loop's backing file) down its own
#: stack: given the file's path and the depth of its layer.
FollowFile = Callable[[str, int], list[Layer]]
#: A chain deeper than this is a loop on a file on a loop …: reading stops there.
MAX_DEPTH = 24
#: dmsetup's answer, if it is there.
DMSETUP_TIMEOUT_S = 1.0


def sys_dir(name_or_majmin: str, sys_root: Path) -> Path | None:
    """The sysfs directory of a block device by its kernel name (``sda1``) or its device
    number (``8:1``), resolved, or None."""
    if re.fullmatch(r"[0-9]+:[0-9]+", name_or_majmin):
        paths = [sys_root / "dev" / "block" / name_or_majmin]
    else:  # /sys/block lists disks only on a live system; captured trees may lack class/
        name = Path(name_or_majmin).name
        paths = [sys_root / "class" / "block" / name, sys_root / "block" / name]
    found = next((p for p in paths if p.exists()), None)
    return Path(os.path.realpath(found)) if found is not None else None


def _selected(text: str) -> str:
    """The choice sysfs marks with brackets: ``lzo [zstd] lz4`` → ``zstd``."""
    m = re.search(r"\[([^\]]+)\]", text)
    return m.group(1) if m else text.strip()


def _members(block: Path, sys_root: Path) -> list[Path | str]:
    """The devices a stacked device is made of (``slaves/``, links to them; md also lists
    them as ``md/dev-NAME``), each as its sysfs directory, or its name when the tree does
    not hold it."""
    try:
        names = [s for s in sorted((block / "slaves").iterdir())]
    except OSError:
        names = []
    if not names and (block / "md").is_dir():
        names = [p for p in sorted((block / "md").glob("dev-*"))]
    found: list[Path | str] = []
    for entry in names:
        name = entry.name.removeprefix("dev-") if entry.parent.name == "md" else entry.name
        where = Path(os.path.realpath(entry)) if entry.is_symlink() else sys_dir(name, sys_root)
        found.append(where if where is not None else name)
    return found


def crypt_table(text: str) -> dict[str, str]:
    """dm-crypt's cipher and key size in a ``dmsetup table`` answer: ``0 2048 crypt
    aes-xts-plain64 :64:logon:cryptsetup:… 0 8:2 4096`` (a key in the kernel's keyring:
    its size in bytes) or ``0 100 crypt aes-cbc-essiv:sha256 <hex key> 0 7:0 2048`` (the key
    itself, which dmsetup prints only with ``--showkeys``, and zeros without it)."""
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[2] == "crypt":
            key = fields[4]
            m = re.fullmatch(r":([0-9]+):.*", key)
            bits = (int(m.group(1)) * 8 if m else
                    len(key) * 4 if re.fullmatch(r"[0-9a-fA-F]+", key) else 0)
            return {"cipher": fields[3], **({"key_bits": str(bits)} if bits else {})}
    return {}


def _crypt_table(name: str, live: bool) -> dict[str, str]:
    """``dmsetup table NAME`` read (root only, live only; {} otherwise)."""
    if not live or os.geteuid() != 0:
        return {}
    try:
        done = program.run(["dmsetup", "table", "--", name], timeout=DMSETUP_TIMEOUT_S,
                           limit=64 * 1024)
    except OSError:
        return {}
    return crypt_table(done.stdout.decode(errors="replace")) if done.succeeded else {}


def _dm_layer(block: Path, depth: int, live: bool) -> Layer:
    """A device-mapper device, named by what its uuid says made it."""
    name = read_sys(block / "dm" / "name") or block.name
    uuid = read_sys(block / "dm" / "uuid")
    device = f"/dev/{block.name}"
    mapper = f"/dev/mapper/{name}"
    if uuid.startswith("CRYPT-"):
        owner = uuid.split("-")[1] if uuid.count("-") >= 1 else ""
        layer = Layer(Kind.DM_CRYPT, mapper, depth, type=owner, device=device,
                      facts={"uuid": uuid})
        layer.facts.update(_crypt_table(name, live))
        layer.effects.append(LayerEffect(Effect.CIPHER, None, {
            "cipher": layer.facts.get("cipher", ""), "aes": _cpu_has_aes(live)}))
        return layer
    if uuid.startswith("LVM-"):
        suffix = re.search(r"-(tpool|tdata|tmeta|pool|cdata|cmeta|corig|cvol|real|cow|vdo|"
                           r"vpool)$", uuid)
        role = {"tpool": "thin pool", "tdata": "thin pool data", "tmeta": "thin pool metadata",
                "pool": "pool", "cdata": "cache data", "cmeta": "cache metadata",
                "corig": "cached origin", "cvol": "cache volume", "real": "snapshot origin",
                "cow": "snapshot", "vdo": "VDO", "vpool": "VDO pool"}.get(
                    suffix.group(1) if suffix else "", "")
        layer = Layer(Kind.LVM, mapper, depth, type=role or "linear", device=device,
                      facts={"uuid": uuid})
        if role in ("cached origin", "cache volume"):
            layer.effects.append(LayerEffect(Effect.CACHE_DEVICE))
        return layer
    kind_of = {"mpath": "multipath", "VERITY": "verity", "INTEGRITY": "integrity",
               "stratis": "stratis", "CACHE": "cache"}
    owner = uuid.split("-")[0] if uuid else ""
    return Layer(Kind.DEVICE_MAPPER, mapper, depth, type=kind_of.get(owner, owner),
                 device=device, facts={"uuid": uuid} if uuid else {})


def _cpu_has_aes(live: bool) -> bool | None:
    """Whether this CPU has AES instructions (x86's ``aes`` flag, Arm's ``aes`` feature):
    without them dm-crypt's AES runs in software, far below a fast drive. None when the
    CPU is not this machine's (a captured tree)."""
    if not live:
        return None
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            text = f.read(256 * 1024)
    except OSError:
        return None
    return bool(re.search(r"^(flags|Features)\s*:.*\baes\b", text, re.M))


def _md_layer(block: Path, depth: int) -> Layer:
    md = block / "md"
    level = read_sys(md / "level")
    layer = Layer(Kind.MD, f"/dev/{block.name}", depth, type=level, device=f"/dev/{block.name}")
    for key, attribute in (("raid_disks", "raid_disks"), ("degraded", "degraded"),
                           ("sync_action", "sync_action"), ("array_state", "array_state"),
                           ("chunk_size", "chunk_size")):
        value = read_sys(md / attribute)
        if value:
            layer.facts[key] = value
    layer.effects.append(LayerEffect(Effect.RAID, None, {
        "level": level, "disks": layer.facts.get("raid_disks", "")}))
    degraded = layer.facts.get("degraded", "0")
    if digits_only(degraded) and int(degraded) > 0:
        layer.effects.append(LayerEffect(Effect.DEGRADED, None, {"missing": int(degraded)}))
    action = layer.facts.get("sync_action", "")
    if action in ("resync", "recover", "reshape", "check", "repair"):
        progress = read_sys(md / "sync_completed")
        done = re.fullmatch(r"([0-9]+) / ([0-9]+)", progress)
        layer.effects.append(LayerEffect(Effect.RESYNC, None, {
            "action": action,
            **({"pct": round(int(done.group(1)) / int(done.group(2)) * 100, 1)}
               if done and int(done.group(2)) else {})}))
    return layer


def _bcache_layer(block: Path, depth: int) -> Layer:
    bc = block / "bcache"
    mode = _selected(read_sys(bc / "cache_mode"))
    layer = Layer(Kind.BCACHE, f"/dev/{block.name}", depth, type=mode,
                  device=f"/dev/{block.name}")
    for key in ("state", "dirty_data"):
        value = read_sys(bc / key)
        if value:
            layer.facts[key] = value
    if layer.facts.get("state") != "no cache":
        layer.effects.append(LayerEffect(Effect.CACHE_DEVICE, None, {"mode": mode}))
    return layer


def _zram_layer(block: Path, depth: int) -> Layer:
    algorithm = _selected(read_sys(block / "comp_algorithm"))
    layer = Layer(Kind.ZRAM, f"/dev/{block.name}", depth, type=algorithm,
                  device=f"/dev/{block.name}")
    size = read_sys(block / "disksize")
    if digits_only(size):
        layer.facts["size"] = size
    layer.effects += [LayerEffect(Effect.MEMORY), LayerEffect(Effect.COMPRESSED, None,
                                                               {"algorithm": algorithm})]
    return layer


def _loop_layer(block: Path, depth: int) -> Layer:
    loop = block / "loop"
    backing = read_sys(loop / "backing_file")
    dio = read_sys(loop / "dio")
    layer = Layer(Kind.LOOP, f"/dev/{block.name}", depth, device=f"/dev/{block.name}",
                  facts={"backing_file": backing, "direct_io": dio or "?"})
    offset = read_sys(loop / "offset")
    if offset and offset != "0":
        layer.facts["offset"] = offset
    if dio == "0":
        layer.effects.append(LayerEffect(Effect.LOOP_CACHE))
    return layer


def block_layers(block: Path, sys_root: Path, depth: int, follow: FollowFile,
                 live: bool) -> list[Layer]:
    """The layers from the block device whose (resolved) sysfs directory is ``block`` down
    to its disks, in ``lsblk -s``'s order: each layer, then what is under it."""
    if depth > MAX_DEPTH:
        return [Layer(Kind.UNKNOWN, f"/dev/{block.name}", depth,
                      effects=[unknown(Unknown.TOO_DEEP, str(block))])]
    name = block.name
    if (block / "partition").exists():
        disk = whole_disk(block)
        layer = Layer(Kind.PARTITION, f"/dev/{name}", depth, device=f"/dev/{name}",
                      facts={"number": read_sys(block / "partition")})
        return [layer, *block_layers(disk, sys_root, depth + 1, follow, live)]
    if (block / "dm").is_dir():
        layer = _dm_layer(block, depth, live)
    elif (block / "md").is_dir() and name.startswith("md"):
        layer = _md_layer(block, depth)
    elif (block / "bcache").is_dir() and name.startswith("bcache"):
        layer = _bcache_layer(block, depth)
    elif name.startswith("zram"):
        return [_zram_layer(block, depth)]
    elif (block / "loop").is_dir():
        layer = _loop_layer(block, depth)
        backing = layer.facts["backing_file"].removesuffix(" (deleted)")
        below = follow(backing, depth + 1) if backing else []
        return [layer, *below]
    elif re.match(r"ram[0-9]+$", name):  # brd: a block device in memory
        return [Layer(Kind.MEMORY, f"/dev/{name}", depth, type="brd", device=f"/dev/{name}",
                      effects=[LayerEffect(Effect.MEMORY)])]
    elif re.match(r"(nbd|rbd)[0-9]+$", name):
        return [Layer(Kind.NETWORK, f"/dev/{name}", depth, type=name.rstrip("0123456789"),
                      device=f"/dev/{name}", effects=[LayerEffect(Effect.NETWORK)])]
    elif _members(block, sys_root):  # something stacked that diskmark does not know
        layer = Layer(Kind.UNKNOWN, f"/dev/{name}", depth, device=f"/dev/{name}",
                      effects=[unknown(Unknown.NOT_KNOWN, str(block))])
    elif "/devices/virtual/" in str(block) + "/":  # a virtual device without members
        return [Layer(Kind.UNKNOWN, f"/dev/{name}", depth, device=f"/dev/{name}",
                      effects=[unknown(Unknown.NOT_KNOWN, str(block))])]
    else:
        return [disk_layer(block, sys_root, depth)]
    found = [layer]
    for member in _members(block, sys_root):
        if isinstance(member, str):  # named, but not in this sysfs tree
            found.append(Layer(Kind.UNKNOWN, f"/dev/{member}", depth + 1, effects=[
                unknown(Unknown.NOT_IN_SYSFS, member)]))
        else:
            found += block_layers(member, sys_root, depth + 1, follow, live)
    return found
