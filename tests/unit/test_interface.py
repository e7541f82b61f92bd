"""diskmark.system.interface_for: the device's link and what it can carry.

On the real machine it only has to answer without raising (a VM's virtio disk has no link).
The classification is tested on small sysfs trees built the way the kernel lays them out, with
the same relative symlinks (/sys/block/sda -> ../devices/…/ata1/…/block/sda), so the walk from
a block device to its link is done on real paths, not on mocks.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from diskmark.drive.probe import interface_for, interface_of_block

NVME_CTRL = "devices/pci0000:00/0000:00:01.1/0000:01:00.0"
NVME_DISK = f"{NVME_CTRL}/nvme/nvme0/nvme0n1"
SATA_DISK = "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda"
USB_DEV = "devices/pci0000:00/0000:00:14.0/usb2/2-1"
USB_DISK = f"{USB_DEV}/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb"


def write(root: Path, rel: str, text: str) -> None:
    f = root / rel
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(text + "\n")


def link(root: Path, rel: str, target: str) -> None:
    """A relative symlink like the kernel's; the target directory is created if missing."""
    f = root / rel
    f.parent.mkdir(parents=True, exist_ok=True)
    (f.parent / target).mkdir(parents=True, exist_ok=True)
    os.symlink(target, f)


def disk(root: Path, name: str, devpath: str, majmin: str, partitions: int = 1) -> None:
    """/sys/block/<name>, /sys/class/block/<name>[pN] and /sys/dev/block/<maj:min> for a disk."""
    link(root, f"block/{name}", f"../{devpath}")
    link(root, f"class/block/{name}", f"../../{devpath}")
    link(root, f"dev/block/{majmin}", f"../../{devpath}")
    write(root, f"{devpath}/dev", majmin)
    major, minor = majmin.split(":")
    for n in range(1, partitions + 1):
        part = f"{name}p{n}" if name[-1].isdigit() else f"{name}{n}"
        write(root, f"{devpath}/{part}/partition", str(n))
        link(root, f"class/block/{part}", f"../../{devpath}/{part}")
        link(root, f"dev/block/{major}:{int(minor) + n}", f"../../{devpath}/{part}")


def nvme_tree(root: Path, gts: str = "8.0 GT/s PCIe", width: str = "4", n: int = 0,
              vendor: str = "0x144d") -> str:
    """An NVMe controller nvme<n> at PCI 0000:0<n+1>:00.0 behind a root port, namespace 1."""
    ctrl = f"devices/pci0000:00/0000:00:01.{n + 1}/0000:0{n + 1}:00.0"
    dev = f"{ctrl}/nvme/nvme{n}/nvme{n}n1"
    # the root port above has its own (different) link: the endpoint's must be the one read
    write(root, f"devices/pci0000:00/0000:00:01.{n + 1}/current_link_speed", "32.0 GT/s PCIe")
    write(root, f"devices/pci0000:00/0000:00:01.{n + 1}/current_link_width", "16")
    write(root, f"{ctrl}/current_link_speed", gts)
    write(root, f"{ctrl}/current_link_width", width)
    write(root, f"{ctrl}/vendor", vendor)
    link(root, f"{ctrl}/nvme/nvme{n}/device", f"../../../0000:0{n + 1}:00.0")
    link(root, f"{dev}/device", f"../../nvme{n}")
    link(root, f"class/nvme/nvme{n}", f"../../{ctrl}/nvme/nvme{n}")
    disk(root, f"nvme{n}n1", dev, f"259:{n * 8}")
    return dev


def sata_tree(root: Path, spd: str = "6.0 Gbps") -> None:
    ata = "devices/pci0000:00/0000:00:1f.2/ata1"
    write(root, f"{ata}/link1/ata_link/link1/sata_spd", spd)
    link(root, "class/ata_link/link1", f"../../{ata}/link1/ata_link/link1")
    write(root, f"{SATA_DISK}/../../model", "Samsung SSD 870")
    link(root, f"{SATA_DISK}/device", "../../../0:0:0:0")
    disk(root, "sda", SATA_DISK, "8:0")


def usb_tree(root: Path, speed: str = "5000", name: str = "sdb") -> None:
    write(root, "devices/pci0000:00/0000:00:14.0/usb2/speed", "10000")  # root hub: not the link
    write(root, f"{USB_DEV}/speed", speed)
    write(root, f"{USB_DEV}/2-1:1.0/bInterfaceClass", "08")
    disk(root, name, USB_DISK, "8:16")


@pytest.fixture
def sysfs(tmp_path: Path) -> Path:
    root = tmp_path / "sys"
    root.mkdir()
    return root


# --- the real machine ---------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["tmp", "/", "/proc", "/nonexistent/deeper"])
def test_real_machine_answers_without_raising(tmp_path, where):
    desc, ceiling = interface_for(tmp_path if where == "tmp" else where)
    assert isinstance(desc, str)
    assert ceiling is None or (isinstance(ceiling, float) and ceiling > 0)
    print(f"{where}: {desc or '(unknown)'} {ceiling}")


def test_real_block_devices_answer_without_raising():
    for name in sorted(os.listdir("/sys/block")) if os.path.isdir("/sys/block") else []:
        desc, ceiling = interface_of_block(name)
        assert isinstance(desc, str) and (ceiling is None or ceiling > 0)


# --- NVMe -----------------------------------------------------------------------------------------


def test_nvme_gen3_x4(sysfs):
    nvme_tree(sysfs, "8.0 GT/s PCIe", "4")
    desc, ceiling = interface_of_block("nvme0n1p1", sysfs)  # partition → disk → controller
    assert desc == "PCIe 3.0 x4 (8.0 GT/s)"
    assert ceiling == pytest.approx(3938.46, abs=1)
    assert interface_of_block(sysfs / "block" / "nvme0n1", sysfs) == (desc, ceiling)


def test_nvme_gen4_x4_and_older_generations(sysfs, tmp_path):
    nvme_tree(sysfs, "16.0 GT/s PCIe", "4")
    desc, ceiling = interface_of_block("nvme0n1", sysfs)
    assert desc == "PCIe 4.0 x4 (16.0 GT/s)"
    assert ceiling == pytest.approx(7876.9, abs=1)
    gen2 = tmp_path / "gen2"
    nvme_tree(gen2, "5.0 GT/s PCIe", "2")
    assert interface_of_block("nvme0n1", gen2) == ("PCIe 2.0 x2 (5.0 GT/s)", pytest.approx(1000.0))


def test_nvme_link_unknown_or_down(sysfs, tmp_path):
    nvme_tree(sysfs, "Unknown", "4")
    assert interface_of_block("nvme0n1", sysfs) == ("", None)
    down = tmp_path / "down"
    nvme_tree(down, "8.0 GT/s PCIe", "0")
    assert interface_of_block("nvme0n1", down) == ("", None)


def test_emulated_nvme_has_no_ceiling(sysfs):
    """QEMU's NVMe (vendor 0x1b36) reports a link it does not honour."""
    nvme_tree(sysfs, "2.5 GT/s PCIe", "1", vendor="0x1b36")
    assert interface_of_block("nvme0n1", sysfs) == ("", None)


def test_nvme_multipath_namespace_under_the_subsystem(sysfs):
    nvme_tree(sysfs, "8.0 GT/s PCIe", "4")
    subsys = "devices/virtual/nvme-subsystem/nvme-subsys0"
    ctrl = "devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0"
    link(sysfs, f"{subsys}/nvme0", "../../../pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0")
    (sysfs / f"{subsys}/nvme1n1").mkdir(parents=True)
    link(sysfs, "block/nvme1n1", f"../{subsys}/nvme1n1")
    link(sysfs, "class/block/nvme1n1", f"../../{subsys}/nvme1n1")
    assert (sysfs / subsys / "nvme0" / "device").resolve() == (sysfs / ctrl).parent.parent
    assert interface_of_block("nvme1n1", sysfs) == ("PCIe 3.0 x4 (8.0 GT/s)", pytest.approx(3938.46, abs=1))


# --- SATA ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("spd", "desc", "ceiling"), [
    ("6.0 Gbps", "SATA 6.0 Gb/s", 600.0),
    ("3.0 Gbps", "SATA 3.0 Gb/s", 300.0),
    ("1.5 Gbps", "SATA 1.5 Gb/s", 150.0),
])
def test_sata(sysfs, spd, desc, ceiling):
    sata_tree(sysfs, spd)
    assert interface_of_block("sda1", sysfs) == (desc, pytest.approx(ceiling))
    assert interface_of_block("sda", sysfs) == (desc, pytest.approx(ceiling))


def test_sata_without_class_link_reads_the_port_directory(sysfs):
    sata_tree(sysfs, "3.0 Gbps")
    (sysfs / "class" / "ata_link" / "link1").unlink()
    assert interface_of_block("sda", sysfs) == ("SATA 3.0 Gb/s", pytest.approx(300.0))


def test_pata_unknown_speed(sysfs):
    sata_tree(sysfs, "<unknown>")
    assert interface_of_block("sda", sysfs) == ("", None)


# --- USB -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("speed", "desc", "ceiling"), [
    ("5000", "USB 5 Gb/s", 500.0),
    ("480", "USB 480 Mb/s", 60.0),
    ("10000", "USB 10 Gb/s", 1212.12),
    ("20000", "USB 20 Gb/s", 2424.24),
    ("12", "USB 12 Mb/s", 1.5),
])
def test_usb(sysfs, speed, desc, ceiling):
    usb_tree(sysfs, speed)
    got_desc, got = interface_of_block("sdb1", sysfs)
    assert got_desc == desc
    assert got == pytest.approx(ceiling, abs=0.01)


# --- stacks, loops, the unknown ---------------------------------------------------------------------


def test_dm_over_two_nvme_adds_the_links(sysfs):
    nvme_tree(sysfs, "8.0 GT/s PCIe", "4", n=0)
    nvme_tree(sysfs, "8.0 GT/s PCIe", "4", n=1)
    dm = "devices/virtual/block/dm-0"
    link(sysfs, f"{dm}/slaves/nvme0n1p1",
         "../../../../pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1/nvme0n1p1")
    link(sysfs, f"{dm}/slaves/nvme1n1p1",
         "../../../../pci0000:00/0000:00:01.2/0000:02:00.0/nvme/nvme1/nvme1n1/nvme1n1p1")
    link(sysfs, "class/block/dm-0", f"../../{dm}")
    assert interface_of_block("dm-0", sysfs) == ("2× PCIe 3.0 x4 (8.0 GT/s)", pytest.approx(2 * 3938.46, abs=1))


def test_md_over_nvme_and_sata(sysfs):
    nvme_tree(sysfs, "8.0 GT/s PCIe", "4")
    sata_tree(sysfs, "6.0 Gbps")
    md = "devices/virtual/block/md0"
    link(sysfs, f"{md}/slaves/nvme0n1p1",
         "../../../../pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1/nvme0n1p1")
    link(sysfs, f"{md}/slaves/sda1", f"../../../../{SATA_DISK.removeprefix('devices/')}/sda1")
    link(sysfs, "class/block/md0", f"../../{md}")
    desc, ceiling = interface_of_block("md0", sysfs)
    assert desc == "PCIe 3.0 x4 (8.0 GT/s) + SATA 6.0 Gb/s"
    assert ceiling == pytest.approx(3938.46 + 600, abs=1)


def test_md_with_an_unclassifiable_member_has_no_ceiling(sysfs):
    sata_tree(sysfs, "6.0 Gbps")
    link(sysfs, "devices/virtual/block/md0/slaves/sda1", f"../../../../{SATA_DISK.removeprefix('devices/')}/sda1")
    link(sysfs, "devices/virtual/block/md0/slaves/zram0", "../../zram0")
    link(sysfs, "class/block/md0", "../../devices/virtual/block/md0")
    assert interface_of_block("md0", sysfs) == ("SATA 6.0 Gb/s", None)


def test_virtual_and_emulated_disks_are_unknown(sysfs):
    for name in ("zram0", "nbd0", "loop7"):
        link(sysfs, f"block/{name}", f"../devices/virtual/block/{name}")
        link(sysfs, f"class/block/{name}", f"../../devices/virtual/block/{name}")
        assert interface_of_block(name, sysfs) == ("", None)
    vda = "devices/pci0000:00/0000:00:02.0/virtio1/block/vda"
    write(sysfs, "devices/pci0000:00/0000:00:02.0/vendor", "0x1af4")
    disk(sysfs, "vda", vda, "254:0")
    assert interface_of_block("vda1", sysfs) == ("", None)
    # QEMU's AHCI: an Intel ICH9 with Red Hat's subsystem vendor, and a SATA link it ignores
    write(sysfs, "devices/pci0000:00/0000:00:1f.2/subsystem_vendor", "0x1af4")
    sata_tree(sysfs, "1.5 Gbps")
    assert interface_of_block("sda", sysfs) == ("", None)
    assert interface_of_block("missing0", sysfs) == ("", None)
    assert interface_of_block("sda", sysfs / "nowhere") == ("", None)


def _majmin(path: Path) -> str:
    d = os.stat(path).st_dev
    return f"{os.major(d)}:{os.minor(d)}"


def test_interface_for_walks_from_the_path_st_dev(sysfs, tmp_path):
    """interface_for(path): st_dev → /sys/dev/block/maj:min → partition → disk → link."""
    sata_tree(sysfs, "6.0 Gbps")
    link(sysfs, f"dev/block/{_majmin(tmp_path)}", f"../../{SATA_DISK}/sda1")
    assert interface_for(tmp_path, sysfs) == ("SATA 6.0 Gb/s", pytest.approx(600.0))
    assert interface_for(tmp_path / "not" / "yet", sysfs) == ("SATA 6.0 Gb/s", pytest.approx(600.0))


def test_loop_reports_the_disk_under_its_backing_file(sysfs, tmp_path):
    """A loop device whose backing file lives on another filesystem (here: /proc) on an NVMe."""
    if _majmin(tmp_path) == _majmin(Path("/proc")):
        pytest.skip("tmp_path and /proc share a device")
    nvme_tree(sysfs, "16.0 GT/s PCIe", "4")
    loop = "devices/virtual/block/loop3"
    write(sysfs, f"{loop}/loop/backing_file", "/proc/version")
    link(sysfs, f"dev/block/{_majmin(tmp_path)}", f"../../{loop}")
    link(sysfs, f"dev/block/{_majmin(Path('/proc'))}", f"../../{NVME_DISK}")
    assert interface_for(tmp_path, sysfs) == ("PCIe 4.0 x4 (16.0 GT/s)", pytest.approx(7876.9, abs=1))


def test_loop_on_itself_stops(sysfs, tmp_path):
    loop = "devices/virtual/block/loop3"
    write(sysfs, f"{loop}/loop/backing_file", str(tmp_path / "image (deleted)"))
    link(sysfs, f"dev/block/{_majmin(tmp_path)}", f"../../{loop}")
    assert interface_for(tmp_path, sysfs) == ("", None)
