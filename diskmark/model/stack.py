"""The storage stack under a target, as a result keeps it: each layer from the target down
to the hardware (its kind, what identifies it, its facts) with the known effects of its kind
on the figures, as ids and numbers; and the rules that say which figure an effect explains
(a test's marks) and what a layer measured below costs. The words for all of it are
:mod:`diskmark.report.stack_words`'s; :mod:`diskmark.drive.stack` finds the layers.

Why a model of its own: "is this number real, and why does it differ?" is what users of
every CrystalDiskMark-like tool ask (ZFS's ARC, FUSE, LUKS, compression, a USB 2 port, a PCIe
link trained low, a virtual disk), and the answer is a layer between the file and the
drive. The layers are kept with the result, so a report read a year later still says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from diskmark.model.settings import DataPattern, Op


class Kind(StrEnum):
    """What a layer is."""

    FILESYSTEM = "filesystem"  # ext4, xfs, btrfs, zfs, vfat… (its type in ``Layer.type``)
    FUSE = "fuse"  # a file system served by a program in user space
    NETWORK = "network"  # NFS, SMB, 9p, virtiofs, Ceph…; nbd/rbd block devices too
    OVERLAY = "overlay"  # overlayfs: files written to its upper layer
    MEMORY = "memory"  # tmpfs, ramfs: memory, not a drive
    FILE = "file"  # a file another layer keeps its data in (a loop's backing file, an image)
    LOOP = "loop"
    DM_CRYPT = "dm-crypt"
    LVM = "lvm"
    DEVICE_MAPPER = "device-mapper"  # multipath, verity, integrity, a table diskmark cannot name
    MD = "md"
    BCACHE = "bcache"
    ZRAM = "zram"
    PARTITION = "partition"
    DISK = "disk"
    UNKNOWN = "unknown"


class Effect(StrEnum):
    """What a layer can do to the figures. Each explains some figures (:data:`EXPLAINS`) or
    none (a note that says what the figures are, such as a virtual disk's)."""

    COMPRESSED = "compressed"  # the file system compresses: All 0x00 data shrinks to nothing
    MEMORY = "memory"  # the data lives in memory (tmpfs, ramfs, zram, DAX on memory)
    ARC = "arc"  # ZFS before OpenZFS 2.3 ignores O_DIRECT: reads come from its ARC
    FUSE = "fuse"  # a program in user space answers, through its own caches
    LOOP_CACHE = "loop-cache"  # a loop device without direct I/O: its file's page cache
    SYNC = "sync"  # mounted sync: every write waits for the device
    DAX = "dax"  # direct access: no page cache, the medium mapped as memory
    CACHE_DEVICE = "cache-device"  # bcache, dm-cache, LVM cache: a faster device answers
    DEGRADED = "degraded"  # an array missing a member: reads rebuild data from parity
    RESYNC = "resync"  # an array resyncing, recovering or reshaping: its own I/O competes
    LINK = "link"  # the link's ceiling (USB 2, SATA 3 Gb/s, PCIe lanes) caps the figure
    LINK_LOW = "link-low"  # the link runs below what both ends can do
    USB_BOT = "usb-storage"  # USB's older Bulk-Only transport, not UAS
    NETWORK = "network"  # a network and a server answer, with their caches
    VIRTUAL = "virtual"  # a hypervisor's disk: the host's disk and cache answer
    CIPHER = "cipher"  # dm-crypt encrypts every block on this CPU
    RAID = "raid"  # md's level: what the members add up to
    WRITE_CACHE = "write-cache"  # the device's volatile write cache, on or off
    ROTATIONAL = "rotational"  # a spinning disk
    UPPER = "upper"  # overlay: new files go to the upper layer, whose stack is below
    NO_ANSWER = "no-answer"  # the layer did not answer within the bounded wait
    UNKNOWN = "unknown"  # diskmark does not know this layer


class Unknown(StrEnum):
    """Why a layer is shown as unknown (``LayerEffect(Effect.UNKNOWN, values={"reason": …,
    "what": …})``): ``what`` identifies it (its sysfs path, its source, the error)."""

    NOT_KNOWN = "not-known"  # a stacked device of a kind diskmark does not know
    NOT_IN_SYSFS = "not-in-sysfs"  # a member named, but not in this sysfs tree
    TOO_DEEP = "too-deep"  # a file on a loop on a file …: reading stopped
    NO_MOUNT = "no-mount"  # no mount holds the path
    NO_DEVICE = "no-device"  # no such block device
    NO_SOURCE = "no-source"  # a file system whose device diskmark cannot find
    ERROR = "error"  # reading the layer failed


def unknown(reason: Unknown, what: str = "") -> LayerEffect:
    """The effect of a layer diskmark cannot say more of: why, and what identifies it."""
    return LayerEffect(Effect.UNKNOWN, None, {"reason": reason.value, "what": what})


class Explains(StrEnum):
    """Which figures an effect explains."""

    ALL = "all"
    ZEROS = "zeros"  # every figure of an All 0x00 run
    READS = "reads"  # read figures (and the read share of a mix)
    WRITES = "writes"
    NEAR_CEILING = "near-ceiling"  # a figure at or near the layer's ceiling
    NONE = "none"  # a note: the figures are still the layer's own


EXPLAINS: dict[Effect, Explains] = {
    Effect.COMPRESSED: Explains.ZEROS, Effect.MEMORY: Explains.ALL, Effect.ARC: Explains.READS,
    Effect.FUSE: Explains.ALL, Effect.LOOP_CACHE: Explains.ALL, Effect.SYNC: Explains.WRITES,
    Effect.DAX: Explains.ALL, Effect.CACHE_DEVICE: Explains.ALL, Effect.DEGRADED: Explains.ALL,
    Effect.RESYNC: Explains.ALL, Effect.LINK: Explains.NEAR_CEILING,
}
#: A figure within this share of a ceiling is the ceiling's (protocol overhead and a
#: little noise keep a capped figure a few percent below it).
NEAR_CEILING = 0.8


@dataclass
class LayerEffect:
    """One effect of a layer, with its size where it can be known: a ceiling in MB/s
    (1e6 B/s), and the numbers its sentence says (``{"gen": 3, "max_gen": 4}``)."""

    effect: Effect
    mb_s: float | None = None
    values: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"effect": self.effect.value}
        if self.mb_s is not None:
            d["mb_s"] = self.mb_s
        if self.values:
            d["values"] = dict(self.values)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LayerEffect:
        return cls(Effect(d["effect"]), d.get("mb_s"), dict(d.get("values") or {}))


@dataclass
class Layer:
    """One layer of the stack. ``name`` is what identifies it (a mount point, a /dev path,
    a file, a server), ``type`` its own kind of thing (the file system's type, md's level,
    the disk's bus), ``device`` the block device in /dev that holds what the layer above
    reads ("" when it has none: what ``--down`` can measure), ``depth`` how far below the
    target (the indent ``lsblk -s`` would give it), ``facts`` what else is known, keyed by
    :data:`diskmark.report.stack_words.FACT_WORDS`'s ids."""

    kind: Kind
    name: str
    depth: int = 0
    type: str = ""
    device: str = ""
    facts: dict[str, str] = field(default_factory=dict)
    effects: list[LayerEffect] = field(default_factory=list)

    def effect(self, effect: Effect) -> LayerEffect | None:
        return next((e for e in self.effects if e.effect is effect), None)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "name": self.name, "depth": self.depth,
                "type": self.type, "device": self.device, "facts": dict(self.facts),
                "effects": [e.to_dict() for e in self.effects]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Layer:
        return cls(Kind(d["kind"]), str(d.get("name", "")), int(d.get("depth", 0)),
                   str(d.get("type", "")), str(d.get("device", "")),
                   {str(k): str(v) for k, v in (d.get("facts") or {}).items()},
                   [LayerEffect.from_dict(e) for e in d.get("effects") or []])


@dataclass(frozen=True)
class Mark:
    """A figure one layer explains: the layer (its place in the stack, its kind and name,
    so a saved result says which without its stack) and the effect."""

    layer: int
    kind: Kind
    name: str
    effect: Effect

    def to_dict(self) -> dict[str, Any]:
        return {"layer": self.layer, "kind": self.kind.value, "name": self.name,
                "effect": self.effect.value}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Mark:
        return cls(int(d["layer"]), Kind(d["kind"]), str(d.get("name", "")), Effect(d["effect"]))


def _explains(how: Explains, effect: LayerEffect, op: Op, mb_s: float,
              data: DataPattern) -> bool:
    if how is Explains.ALL:
        return True
    if how is Explains.ZEROS:
        return data is DataPattern.ZEROS
    if how is Explains.READS:
        return op is not Op.WRITE
    if how is Explains.WRITES:
        return op is not Op.READ
    if how is Explains.NEAR_CEILING:
        return effect.mb_s is not None and mb_s >= NEAR_CEILING * effect.mb_s
    return False


def marks_for(op: Op, mb_s: float, layers: list[Layer], data: DataPattern) -> list[Mark]:
    """The layers that explain the figure (``mb_s``, the best) of a test that does ``op``
    with ``data``, outermost first, each effect once. A link's ceiling explains a figure
    near it only when the stack has one disk at its bottom: the members of an array or of a
    btrfs across devices add up, and a figure above a ceiling came from a cache, which
    another layer names."""
    disks = sum(1 for layer in layers if layer.kind is Kind.DISK)
    marks = []
    seen: set[Effect] = set()
    for i, layer in enumerate(layers):
        for effect in layer.effects:
            how = EXPLAINS.get(effect.effect, Explains.NONE)
            if how is Explains.NEAR_CEILING and disks != 1:
                continue
            if effect.effect not in seen and _explains(how, effect, op, mb_s, data):
                seen.add(effect.effect)
                marks.append(Mark(i, layer.kind, layer.name, effect.effect))
    return marks


@dataclass
class Measured:
    """A layer's block device measured read-only after the target (``run --down``): the
    best MB/s, IOPS and latency of each read test, by test key; or why it was passed over
    (``skipped``, an English sentence: no permission, a network file system)."""

    layer: int
    device: str
    figures: dict[str, dict[str, float]] = field(default_factory=dict)
    skipped: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"layer": self.layer, "device": self.device,
                "figures": {k: dict(v) for k, v in self.figures.items()},
                "skipped": self.skipped}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Measured:
        return cls(int(d["layer"]), str(d.get("device", "")),
                   {str(k): {str(u): float(x) for u, x in v.items()}
                    for k, v in (d.get("figures") or {}).items()},
                   str(d.get("skipped", "")))


def cost_pct(above_mb_s: float, below_mb_s: float) -> float | None:
    """What the layers between two measurements cost, in % of the figure below them: 38
    when the figure above is 62 % of the one below; negative when the layers above make it
    faster (a cache). None when the figure below is nothing."""
    if below_mb_s <= 0:
        return None
    return (1 - above_mb_s / below_mb_s) * 100
