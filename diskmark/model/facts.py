"""Where a test ran, as a result records it: the target, its filesystem and device, the
drive's model and link, the kernel and the machine. :mod:`diskmark.drive.probe` fills it from
psutil and /sys; :mod:`diskmark.model.results` re-exports it with the results that carry it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass
class SystemFacts:
    """Where a test ran: filled by :mod:`diskmark.drive.probe` from psutil and /sys."""

    target: str = ""
    target_kind: str = ""  # "device": a block device measured itself; "": a directory
    mountpoint: str = ""
    device: str = ""
    fstype: str = ""
    mount_options: str = ""
    total_bytes: int = 0
    free_bytes: int = 0
    model: str = ""
    rotational: bool | None = None
    #: "virtio", "Xen", "VMware", "Hyper-V", "QEMU"…: a hypervisor's disk, whatever
    #: ``rotational`` claims (they all claim 1); "" for a real disk or when unknown
    virtual: str = ""
    scheduler: str = ""
    interface: str = ""  # e.g. "SATA 6.0 Gb/s", "PCIe 3.0 x4 (8.0 GT/s)"
    interface_mb_s: float | None = None  # what that link can carry, for the "too fast" check
    kernel: str = ""
    os: str = ""
    cpus: int | None = None  # CPU cores diskmark could use, for the CPU-limited verdict
    hostname: str = ""  # the machine that measured, so a history gathered from many can be told apart
    #: whether diskmark measured as root (CrystalDiskMark's ``Mode: [Admin]``); None when not
    #: known: a result of an earlier version, a fleet's host, a file without a Mode line
    as_root: bool | None = None

    @property
    def spinning(self) -> bool:
        """A real rotating disk: only then do outer and inner tracks differ."""
        return bool(self.rotational) and not self.virtual

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SystemFacts:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})
