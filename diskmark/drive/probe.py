"""What diskmark knows about the machine: mounts, free space, device model, rotational, fs.

Read from /proc/self/mountinfo, /sys and statvfs only (psutil as a fallback where /proc is
missing), so it is fast, needs no root and never imports Textual. Everything is best effort:
a field that cannot be found stays empty or None instead of raising, because these facts
decorate a benchmark and must never stop one.
"""

from __future__ import annotations

import os
import platform
import re
import stat
from pathlib import Path

from diskmark.drive import mounts as mt
from diskmark.drive.mounts import MountInfo
from diskmark.drive.sysfs import read_sys
from diskmark.locale import _
from diskmark.model.facts import SystemFacts
from diskmark.model.numerals import digits_only

#: Where sysfs is mounted; the /sys readers take a ``sys_root`` so tests can point them at a tree.
_SYS = Path("/sys")


# --- block devices in /sys ----------------------------------------------------------------


def _sys_block_dir(majmins: list[str], source: str, sys_root: Path = _SYS) -> Path | None:
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
        p = sys_root / "class" / "block" / Path(c).name if c.startswith("/") else sys_root / "dev" / "block" / c
        if c and p.exists():
            return p.resolve()
    return None


def whole_disk(block: Path) -> Path:
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
        for leaf in _leaves(whole_disk(s.resolve()), depth + 1):
            if leaf not in found:
                found.append(leaf)
    return found


def _model(disk: Path) -> str:
    backing = read_sys(disk / "loop" / "backing_file")
    if backing:
        return f"loop: {backing}"
    model = read_sys(disk / "device" / "model") or read_sys(disk / "device" / "name")  # name: mmc
    if not model and "/virtio" in str(disk):
        model = "Virtio Block Device"
    return " ".join(model.split())


def _block_facts(block: Path | None) -> tuple[str, str, bool | None, str, str]:
    """(kernel name, model, rotational, scheduler, virtual kind) of the disk that does the I/O."""
    if block is None:
        return "", "", None, "", ""
    disk = whole_disk(block)
    leaves = _leaves(disk)
    model = " + ".join(dict.fromkeys(m for m in map(_model, leaves) if m))
    queue = (leaves[0] if len(leaves) == 1 else disk) / "queue"
    sched = re.search(r"\[([^\]]+)\]", read_sys(queue / "scheduler"))
    return (block.name, model, _rotational(disk, queue),
            sched.group(1) if sched else "", virtual_disk_of_block(block))


def _rotational(disk: Path, queue: Path) -> bool | None:
    """Whether the disk spins, or None when it cannot say: a loop device claims to (the
    kernel's default), but it is as fast as the disk under its file, not an HDD."""
    if read_sys(disk / "loop" / "backing_file"):
        return None
    return {"0": False, "1": True}.get(read_sys(queue / "rotational"))


def _device_name(source: str, block_name: str) -> str:
    """The mount's source, except the useless alias /dev/root."""
    if block_name and source in ("/dev/root", ""):
        return f"/dev/{block_name}"
    return source


# --- the link a disk hangs on ----------------------------------------------------------------
#
# A benchmark figure above what the device's link can carry did not come from the disk (the page
# cache answered). The ceilings below are payload rates after line encoding, in MB/s (1e6 B/s),
# and deliberately generous (protocol overhead ignored): they bound a result, never estimate it.

#: PCI vendors of emulated controllers (virtio/QEMU, Red Hat's QEMU devices, VMware, VirtualBox):
#: the link speed they report is fiction, the guest's I/O is not bound by it.
_EMULATED_PCI_VENDORS = frozenset({"0x1af4", "0x1b36", "0x15ad", "0x80ee"})
_PCI_ADDRESS = re.compile(r"^[0-9a-f]{4,}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
_PCIE_GEN = {2.5: "1.0", 5.0: "2.0", 8.0: "3.0", 16.0: "4.0", 32.0: "5.0", 64.0: "6.0"}
_LOOP_DEPTH = 3  # a loop on a file on a loop on a file…: give up after this many hops


def first_number(text: str) -> float | None:
    """The first number in a sysfs value ("8.0 GT/s PCIe", "6.0 Gbps", "480"), or None
    ("Unknown", "<unknown>", nothing)."""
    m = re.search(r"[0-9]+(?:\.[0-9]+)?", text)
    return float(m.group()) if m else None


def ancestors(path: Path, sys_root: Path) -> list[Path]:
    """``path`` and its parents, nearest first, stopping above /sys/devices."""
    stop = {sys_root, sys_root / "devices", sys_root.parent}
    found = []
    while path not in stop and path != path.parent:
        found.append(path)
        path = path.parent
    return found


def pci_function(path: Path, sys_root: Path) -> Path | None:
    """The PCI device (0000:01:00.0) nearest above a sysfs path: the disk's controller."""
    return next((p for p in ancestors(path, sys_root) if _PCI_ADDRESS.match(p.name)), None)


def emulated(path: Path, sys_root: Path) -> bool:
    """Whether the disk's controller is a hypervisor's emulation (its link speeds are fiction)."""
    pci = pci_function(path, sys_root)
    return pci is not None and bool(
        {read_sys(pci / "vendor"), read_sys(pci / "subsystem_vendor")} & _EMULATED_PCI_VENDORS)


def _pcie_link(pci: Path) -> tuple[str, float | None]:
    """A PCIe function's negotiated link: "PCIe 3.0 x4 (8.0 GT/s)", 3938.5 MB/s."""
    if {read_sys(pci / "vendor"), read_sys(pci / "subsystem_vendor")} & _EMULATED_PCI_VENDORS:
        return "", None
    gts, width = first_number(read_sys(pci / "current_link_speed")), first_number(read_sys(pci / "current_link_width"))
    if not gts or not width:  # "Unknown", missing, or x0 (link down)
        return "", None
    encoding = 8 / 10 if gts <= 5 else 128 / 130
    gen = _PCIE_GEN.get(gts)
    desc = f"PCIe {gen + ' ' if gen else ''}x{int(width)} ({gts:.1f} GT/s)"
    return desc, gts * width * encoding / 8 * 1000


def _nvme_interface(real: Path, disk_name: str, sys_root: Path) -> tuple[str, float | None]:
    """NVMe: the PCIe link of the controller's PCI function."""
    pci = pci_function(real, sys_root)
    if pci is not None:
        return _pcie_link(pci)
    # native multipath: the namespace sits under /sys/devices/virtual/nvme-subsystem/nvme-subsysN,
    # beside links to its controllers; the paths may be used together, so their links add up
    controllers = [c for c in sorted(real.parent.glob("nvme[0-9]*")) if re.fullmatch(r"nvme[0-9]+", c.name)]
    m = re.match(r"nvme([0-9]+)", disk_name)
    if not controllers and m:
        controllers = [sys_root / "class" / "nvme" / f"nvme{m.group(1)}"]
    links = [_pcie_link(c / "device") for c in controllers]
    return _combine(links)


def _sata_interface(real: Path, port: str, sys_root: Path) -> tuple[str, float | None]:
    """SATA: the host link's negotiated rate ("6.0 Gbps"), 8b/10b: 600 MB/s."""
    port_dir = next((p for p in ancestors(real, sys_root) if p.name == f"ata{port}"), None)
    # the host link (linkN) carries everything, even behind a port multiplier (linkN.M)
    host = [sys_root / "class" / "ata_link" / f"link{port}" / "sata_spd"]
    others: list[Path] = []
    if port_dir is not None:
        host.append(port_dir / f"link{port}" / "ata_link" / f"link{port}" / "sata_spd")
        others = sorted(port_dir.glob("link*/ata_link/link*/sata_spd"))
    gbps = next((g for g in (first_number(read_sys(f)) for f in host) if g), None)  # "<unknown>": PATA
    if not gbps:
        gbps = max((g for g in (first_number(read_sys(f)) for f in others) if g), default=None)
    if not gbps:
        return "", None
    return f"SATA {gbps:.1f} Gb/s", gbps * 1000 * 8 / 10 / 8


def _usb_interface(real: Path, sys_root: Path) -> tuple[str, float | None]:
    """USB: the speed (Mb/s) of the nearest USB device above the disk, the bridge's link."""
    for p in ancestors(real, sys_root):
        mbps = first_number(read_sys(p / "speed"))
        if mbps:
            break
        if re.fullmatch(r"usb[0-9]+", p.name):  # the root hub had no speed either
            return "", None
    else:
        return "", None
    if mbps <= 480:  # low/full/high speed: no better bound than the raw bit rate
        ceiling = mbps / 8
    elif mbps <= 5000:  # SuperSpeed, 8b/10b
        ceiling = mbps * 8 / 10 / 8
    else:  # SuperSpeed+ (10 Gb/s, 2×10 Gb/s), 128b/132b
        ceiling = mbps * 128 / 132 / 8
    desc = f"USB {mbps:g} Mb/s" if mbps < 1000 else f"USB {mbps / 1000:g} Gb/s"
    return desc, ceiling


def _disk_interface(disk: Path, sys_root: Path, depth: int) -> tuple[str, float | None]:
    """The link of one physical disk (a /sys/block directory), or ("", None)."""
    backing = read_sys(disk / "loop" / "backing_file")
    if backing:  # a loop device is as fast as the disk under its backing file
        backing = backing.removesuffix(" (deleted)")
        return _interface(backing, sys_root, depth + 1) if depth < _LOOP_DEPTH else ("", None)
    real = Path(os.path.realpath(disk))
    text = str(real) + "/"
    if emulated(real, sys_root):  # virtio, QEMU's NVMe/AHCI/xHCI…: no physical link
        return "", None
    if re.search(r"/usb[0-9]+/", text):
        return _usb_interface(real, sys_root)
    if m := re.search(r"/ata([0-9]+)/", text):
        return _sata_interface(real, m.group(1), sys_root)
    if re.match(r"nvme[0-9]+(c[0-9]+)?n[0-9]+$", disk.name) or re.search(r"/nvme/nvme[0-9]+/", text):
        return _nvme_interface(real, disk.name, sys_root)
    return "", None  # virtio, mmc, zram, nbd, an md/dm without classifiable members…


def _combine(links: list[tuple[str, float | None]]) -> tuple[str, float | None]:
    """Several disks read and write together (RAID 0, striped LVM…): their links add up.

    The sum stays an upper bound for a mirror too. One unknown member makes the total unknown.
    """
    if not links:
        return "", None
    counts: dict[str, int] = {}
    for desc, _ceiling in links:
        if desc:
            counts[desc] = counts.get(desc, 0) + 1
    desc = " + ".join(f"{n}× {d}" if n > 1 else d for d, n in counts.items())
    ceilings = [c for _desc, c in links]
    if any(c is None for c in ceilings):
        return desc, None
    return desc, sum(c for c in ceilings if c is not None)


def _interface(path: str | Path, sys_root: Path, depth: int) -> tuple[str, float | None]:
    _target, _existing, majmins, mount = mt.locate(path)
    block = _sys_block_dir(majmins + ([mount.majmin] if mount and mount.majmin else []),
                           mount.source if mount else "", sys_root)
    return interface_of_block(block, sys_root, _depth=depth) if block is not None else ("", None)


# --- virtual disks -----------------------------------------------------------------------------
#
# A hypervisor's disk says rotational=1 (the kernel's default when nobody says otherwise), so
# "HDD" would be a guess, and advice about the outer tracks of a platter cannot apply to it.
# The strongest evidence is the driver or bus the disk hangs on; then what the disk calls
# itself; then the emulated controller's PCI vendor; last, the machine's own DMI/hypervisor
# entry, believed only for a disk with no physical link of its own (a passed-through NVMe or
# USB stick in a VM is a real disk).

#: Drivers of paravirtual block and SCSI devices, by the name sysfs links them under.
_VIRTUAL_DRIVERS = {"virtio_blk": "virtio", "virtio_scsi": "virtio", "xen-blkfront": "Xen",
                    "vbd": "Xen", "vmw_pvscsi": "VMware", "hv_storvsc": "Hyper-V"}
#: Buses that only hypervisors have.
_VIRTUAL_SUBSYSTEMS = {"virtio": "virtio", "xen": "Xen", "vmbus": "Hyper-V"}
#: What emulated disks call themselves (SCSI vendor and model, ATA model), first match wins.
_VIRTUAL_NAMES = (("QEMU", "QEMU"), ("VMware", "VMware"), ("Msft", "Hyper-V"),
                  ("Virtual Disk", "Hyper-V"), ("VBOX", "VirtualBox"), ("Xen", "Xen"),
                  ("Amazon Elastic Block Store", "Amazon EBS"), ("PersistentDisk", "Google PD"))
_VIRTUAL_PCI_VENDORS = {"0x1af4": "QEMU", "0x1b36": "QEMU", "0x15ad": "VMware",
                        "0x80ee": "VirtualBox", "0x1414": "Hyper-V"}
#: DMI sys_vendor / product_name, and /sys/hypervisor/type, of virtual machines.
_HYPERVISORS = (("QEMU", "QEMU"), ("KVM", "QEMU"), ("VMware", "VMware"),
                ("Virtual Machine", "Hyper-V"), ("innotek", "VirtualBox"),
                ("VirtualBox", "VirtualBox"), ("Xen", "Xen"), ("xen", "Xen"))


def _link_name(path: Path) -> str:
    try:
        return os.path.basename(os.readlink(path))
    except OSError:
        return ""


def _hypervisor(sys_root: Path) -> str:
    """The hypervisor the whole machine runs under, from DMI or /sys/hypervisor, or ""."""
    texts = [read_sys(sys_root / "class" / "dmi" / "id" / f) for f in ("sys_vendor", "product_name")]
    texts.append(read_sys(sys_root / "hypervisor" / "type"))
    for text in texts:
        for needle, kind in _HYPERVISORS:
            if text and needle in text:
                return kind
    return ""


def _virtual_leaf(disk: Path, sys_root: Path, depth: int) -> str:
    real = Path(os.path.realpath(disk))
    if read_sys(disk / "loop" / "backing_file") or "/devices/virtual/" in str(real) + "/":
        return ""  # loop, zram, nbd…: not a hypervisor's disk (a loop's figures are its file's)
    for p in ancestors(real, sys_root):
        kind = (_VIRTUAL_DRIVERS.get(_link_name(p / "driver"))
                or _VIRTUAL_SUBSYSTEMS.get(_link_name(p / "subsystem")))
        if kind:
            return kind
    names = " ".join(read_sys(disk / "device" / f) for f in ("vendor", "model"))
    for needle, kind in _VIRTUAL_NAMES:
        if needle in names:
            return kind
    pci = pci_function(real, sys_root)
    if pci is not None:
        for vendor in (read_sys(pci / "subsystem_vendor"), read_sys(pci / "vendor")):
            if vendor in _VIRTUAL_PCI_VENDORS:
                return _VIRTUAL_PCI_VENDORS[vendor]
    if _disk_interface(disk, sys_root, depth)[0]:
        return ""  # a real link (passed through): a real disk, whatever the machine is
    return _hypervisor(sys_root)


def virtual_disk_of_block(block: str | Path, sys_root: Path = _SYS) -> str:
    """The kind of virtual disk behind a block device ("virtio", "Xen", "VMware", "Hyper-V",
    "QEMU", "VirtualBox"…), or "" for a real disk or when nothing says so. A dm/md device is
    virtual when all its members are. Never raises."""
    try:
        block = Path(block)
        if not block.is_absolute():
            block = sys_root / "class" / "block" / block.name
        kinds = [_virtual_leaf(leaf, sys_root, 0) for leaf in _leaves(whole_disk(block.resolve()))]
        return kinds[0] if kinds and all(kinds) else ""
    except Exception:  # best effort: sysfs oddities must never stop a benchmark
        return ""


# --- public API -------------------------------------------------------------------------------


def os_name() -> str:
    """PRETTY_NAME from os-release ("Debian GNU/Linux 12 (bookworm)"), else the system name."""
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        m = re.search(r'^PRETTY_NAME=(["\']?)(.*)\1\s*$', read_sys(path), re.M)
        if m and m.group(2):
            return m.group(2)
    return platform.system()


def facts_for(path: str | Path) -> SystemFacts:
    """Where a benchmark of ``path`` runs: mount, device, filesystem, sizes and disk model.

    A path that does not exist (yet) is described by its nearest existing parent.
    """
    target, existing, majmins, mount = mt.locate(path)
    facts = SystemFacts(target=str(target), kernel=platform.release(), os=os_name(),
                        hostname=platform.node())
    if mount:
        facts.mountpoint, facts.fstype, facts.mount_options = mount.mountpoint, mount.fstype, mount.options
    facts.total_bytes, facts.free_bytes = mt.usage(str(existing), facts.fstype)
    source = mount.source if mount else ""
    block = _sys_block_dir(majmins + ([mount.majmin] if mount else []), source)
    name, facts.model, facts.rotational, facts.scheduler, facts.virtual = _block_facts(block)
    facts.device = _device_name(source, name)
    if block is not None:
        facts.interface, facts.interface_mb_s = interface_of_block(block)
    return facts


def facts_for_device(path: str | Path) -> SystemFacts:
    """A block device measured itself: its model, kind and link, its size; no mount, no
    filesystem."""
    facts = SystemFacts(target=str(path), device=str(path), target_kind="device",
                        kernel=platform.release(), os=os_name(), hostname=platform.node())
    try:
        rdev = os.stat(path).st_rdev
    except OSError:
        return facts
    block = _sys_block_dir([f"{os.major(rdev)}:{os.minor(rdev)}"], "")
    _name, facts.model, facts.rotational, facts.scheduler, facts.virtual = _block_facts(block)
    if block is not None:
        sectors = read_sys(block / "size")
        facts.total_bytes = int(sectors) * 512 if digits_only(sectors) else 0
        facts.interface, facts.interface_mb_s = interface_of_block(block)
    return facts


def disks_for(path: str | Path, sys_root: Path = _SYS) -> list[Path]:
    """The /sys directories of the physical disks that hold ``path`` (a partition is its disk,
    a dm/md device its members), for the readers of a drive's sensors; [] for tmpfs, network
    filesystems and anything else without a block device. Never raises."""
    try:
        st = os.stat(path)
        if stat.S_ISBLK(st.st_mode):  # a device measured itself: that device, not /dev's mount
            block = _sys_block_dir([f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"], "",
                                   sys_root)
        else:
            _target, _existing, majmins, mount = mt.locate(path)
            block = _sys_block_dir(majmins + ([mount.majmin] if mount and mount.majmin else []),
                                   mount.source if mount else "", sys_root)
        return _leaves(whole_disk(block)) if block is not None else []
    except Exception:  # best effort, like every fact here
        return []


def interface_of_block(block: str | Path, sys_root: Path = _SYS, *, _depth: int = 0) -> tuple[str, float | None]:
    """The link behind a block device: ("PCIe 3.0 x4 (8.0 GT/s)", 3938.5), or ("", None).

    ``block`` is a kernel name ("sda1", "dm-0") or its /sys directory. A partition is its disk;
    a dm/md device is the sum of its members' links. Never raises.
    """
    try:
        block = Path(block)
        if not block.is_absolute():
            block = sys_root / "class" / "block" / block.name
        disk = whole_disk(block.resolve())
        return _combine([_disk_interface(leaf, sys_root, _depth) for leaf in _leaves(disk)])
    except Exception:  # best effort: sysfs oddities must never stop a benchmark
        return "", None


def interface_for(path: str | Path, sys_root: Path = _SYS) -> tuple[str, float | None]:
    """The interface of the device holding ``path`` and what it can carry, in MB/s (1e6 B/s).

    ("SATA 6.0 Gb/s", 600.0), ("PCIe 4.0 x4 (16.0 GT/s)", 7876.9), ("USB 480 Mb/s", 60.0)…;
    ("", None) when unknown (tmpfs, network, virtio, zram…). A result above the ceiling came
    from the page cache, not the disk. A loop device reports the disk under its backing file.
    Never raises.
    """
    try:
        return _interface(path, sys_root, 0)
    except Exception:  # best effort, like every fact here
        return "", None


def list_block_devices(sys_root: Path = _SYS) -> list[MountInfo]:
    """Disks and partitions that can be measured themselves (read tests only, unless the
    command line consents to writes), as the target picker lists them: /dev path, kind,
    model, size, and where one is mounted. Empty devices (a detached loop device, a card
    reader without a card) are left out."""
    mounted: dict[str, str] = {}
    for m in mt.mount_table():
        mounted.setdefault(m.majmin, m.mountpoint)
    try:
        entries = sorted((sys_root / "class" / "block").iterdir())
    except OSError:
        return []
    found = []
    for entry in entries:
        sectors = read_sys(entry / "size")
        path = Path("/dev") / entry.name
        if not digits_only(sectors) or int(sectors) == 0 or not path.exists():
            continue
        block = entry.resolve()
        disk = whole_disk(block)
        where = mounted.get(read_sys(block / "dev"), "")
        found.append(MountInfo(
            mountpoint=str(path), device="partition" if disk != block else "disk",
            fstype="", options="", total_bytes=int(sectors) * 512, model=_model(disk),
            rotational=_rotational(disk, disk / "queue"),
            readonly=read_sys(block / "ro") == "1", block_device=True,
            reason=_("mounted at {mountpoint}").format(mountpoint=where) if where else ""))
    return found


def list_mounts(include_pseudo: bool = False) -> list[MountInfo]:
    """Mounted filesystems a user might benchmark, one per mount point, sorted by it."""
    visible: dict[str, mt.Mount] = {}
    for m in mt.mount_table():
        visible[m.mountpoint] = m  # a later mount on the same point hides the earlier one
    result = []
    for mp in sorted(visible):
        m = visible[mp]
        kernel_dir = next((d for d in ("/proc", "/sys") if mt.contains(d, mp)), "")
        pseudo = m.fstype in mt.PSEUDO_FS or m.fstype.startswith("cgroup") or bool(kernel_dir)
        if pseudo and not include_pseudo:
            continue
        readonly = m.readonly or m.fstype in mt.READONLY_FS
        total, free = (0, 0) if pseudo else mt.usage(mp, m.fstype)
        name, model, rotational, _sched, virtual = _block_facts(
            _sys_block_dir([m.majmin] if m.majmin else [], m.source))
        if pseudo and kernel_dir and m.fstype not in mt.PSEUDO_FS:
            # TRANSLATORS: why a mount cannot be a target: {fstype} under /proc or /sys
            reason = _("pseudo filesystem ({fstype} under {directory})").format(
                fstype=m.fstype, directory=kernel_dir)
        elif pseudo:
            reason = _("pseudo filesystem ({fstype})").format(fstype=m.fstype)
        else:
            reason = _("read-only") if readonly else ""
        result.append(MountInfo(mountpoint=mp, device=_device_name(m.source, name), fstype=m.fstype,
                                options=m.options, total_bytes=total, free_bytes=free, model=model,
                                rotational=rotational, virtual=virtual, readonly=readonly, pseudo=pseudo,
                                usable=not reason, reason=reason))
    return result
