"""diskmark.system.virtual_disk_of_block: a hypervisor's disk is named as one, not "HDD".

Every virtual disk says rotational=1 (the kernel's default), so without this a VM's disk reads
"HDD" and reports advise about the outer tracks of a platter it does not have. The trees are
built the way each hypervisor's disks appear in sysfs, with relative symlinks as the kernel's,
reusing the helpers of test_interface.py; one test runs on the real machine.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_interface import disk, link, nvme_tree, sata_tree, usb_tree, write

from diskmark.drive.probe import facts_for, list_mounts, virtual_disk_of_block
from diskmark.model.facts import SystemFacts
from diskmark.model.file_layout import FileLayout
from diskmark.model.results import SessionResult
from diskmark.model.settings import Settings
from diskmark.report.cdm_report import text_report
from diskmark.report.formatting import disk_kind


@pytest.fixture
def sysfs(tmp_path: Path) -> Path:
    root = tmp_path / "sys"
    root.mkdir()
    return root


def driver(root: Path, devpath: str, name: str, bus: str) -> None:
    """``<devpath>/driver`` and ``subsystem`` links, as the driver core makes them."""
    depth = devpath.count("/") + 1
    link(root, f"{devpath}/driver", "../" * depth + f"bus/{bus}/drivers/{name}")
    link(root, f"{devpath}/subsystem", "../" * depth + f"bus/{bus}")


def test_virtio_blk(sysfs):
    vda = "devices/pci0000:00/0000:00:02.0/virtio1/block/vda"
    disk(sysfs, "vda", vda, "254:0")
    link(sysfs, f"{vda}/device", "../../../virtio1")
    driver(sysfs, "devices/pci0000:00/0000:00:02.0/virtio1", "virtio_blk", "virtio")
    assert virtual_disk_of_block("vda", sysfs) == "virtio"
    assert virtual_disk_of_block("vda1", sysfs) == "virtio"  # a partition is its disk


def test_xen_blkfront(sysfs):
    xvda = "devices/vbd-51712/block/xvda"
    disk(sysfs, "xvda", xvda, "202:0")
    driver(sysfs, "devices/vbd-51712", "vbd", "xen")
    assert virtual_disk_of_block("xvda", sysfs) == "Xen"


def test_vmware_pvscsi_and_hyperv_storvsc(sysfs):
    sda = "devices/pci0000:00/0000:00:15.0/0000:03:00.0/host2/target2:0:0/2:0:0:0/block/sda"
    disk(sysfs, "sda", sda, "8:0")
    driver(sysfs, "devices/pci0000:00/0000:00:15.0/0000:03:00.0", "vmw_pvscsi", "pci")
    assert virtual_disk_of_block("sda", sysfs) == "VMware"
    sdb = ("devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/"
           "f8b3781b-1e82-4818-a1c3-63d806ec15bb/host0/target0:0:1/0:0:1:0/block/sdb")
    disk(sysfs, "sdb", sdb, "8:16")
    driver(sysfs, "devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/"
           "f8b3781b-1e82-4818-a1c3-63d806ec15bb", "hv_storvsc", "vmbus")
    assert virtual_disk_of_block("sdb", sysfs) == "Hyper-V"


@pytest.mark.parametrize("vendor, model, kind", [
    ("QEMU", "QEMU HARDDISK", "QEMU"), ("VMware", "Virtual disk", "VMware"),
    ("Msft", "Virtual Disk", "Hyper-V"), ("ATA", "VBOX HARDDISK", "VirtualBox")])
def test_emulated_disks_by_what_they_call_themselves(sysfs, vendor, model, kind):
    sdc = "devices/pci0000:00/0000:00:10.0/host3/target3:0:0/3:0:0:0/block/sdc"
    disk(sysfs, "sdc", sdc, "8:32")
    link(sysfs, f"{sdc}/device", "../../../3:0:0:0")
    write(sysfs, "devices/pci0000:00/0000:00:10.0/host3/target3:0:0/3:0:0:0/vendor", vendor)
    write(sysfs, "devices/pci0000:00/0000:00:10.0/host3/target3:0:0/3:0:0:0/model", model)
    assert virtual_disk_of_block("sdc", sysfs) == kind


def test_emulated_nvme_by_its_pci_vendor(sysfs):
    nvme_tree(sysfs, vendor="0x1b36")  # QEMU's NVMe controller
    assert virtual_disk_of_block("nvme0n1", sysfs) == "QEMU"


def test_real_disks_are_not_virtual_even_inside_a_vm(sysfs):
    nvme_tree(sysfs)
    sata_tree(sysfs)
    usb_tree(sysfs)
    for name in ("nvme0n1", "sda", "sdb"):
        assert virtual_disk_of_block(name, sysfs) == ""
    write(sysfs, "class/dmi/id/sys_vendor", "QEMU")  # passed through to a VM: still real
    for name in ("nvme0n1", "sda", "sdb"):
        assert virtual_disk_of_block(name, sysfs) == ""
    for name in ("zram0", "loop7"):  # not a hypervisor's either
        link(sysfs, f"class/block/{name}", f"../../devices/virtual/block/{name}")
        assert virtual_disk_of_block(name, sysfs) == ""


def test_dmi_names_a_disk_that_nothing_else_classifies(sysfs):
    sdd = "devices/platform/host0/target0:0:0/0:0:0:0/block/sdd"
    disk(sysfs, "sdd", sdd, "8:48")
    assert virtual_disk_of_block("sdd", sysfs) == ""
    write(sysfs, "class/dmi/id/sys_vendor", "Microsoft Corporation")
    write(sysfs, "class/dmi/id/product_name", "Virtual Machine")
    assert virtual_disk_of_block("sdd", sysfs) == "Hyper-V"


def test_md_is_virtual_only_when_every_member_is(sysfs):
    vda = "devices/pci0000:00/0000:00:02.0/virtio1/block/vda"
    disk(sysfs, "vda", vda, "254:0")
    driver(sysfs, "devices/pci0000:00/0000:00:02.0/virtio1", "virtio_blk", "virtio")
    sata_tree(sysfs)
    link(sysfs, "devices/virtual/block/md0/slaves/vda1", f"../../../../{vda.removeprefix('devices/')}/vda1")
    link(sysfs, "class/block/md0", "../../devices/virtual/block/md0")
    assert virtual_disk_of_block("md0", sysfs) == "virtio"
    link(sysfs, "devices/virtual/block/md0/slaves/sda1",
         "../../../../pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda/sda1")
    assert virtual_disk_of_block("md0", sysfs) == ""


def test_the_real_machine():
    """On this VM the disk is virtio; elsewhere the answer only has to be a string."""
    facts = facts_for("/")
    assert isinstance(facts.virtual, str)
    assert all(isinstance(m.virtual, str) for m in list_mounts())
    block = Path("/sys/block")
    names = sorted(os.listdir(block)) if block.is_dir() else []
    for name in names:
        kind = virtual_disk_of_block(name)
        if os.path.basename(os.readlink(block / name / "device" / "driver")
                            if (block / name / "device" / "driver").exists() else "") == "virtio_blk":
            assert kind == "virtio", name
    if facts.device.startswith("/dev/vd"):
        assert facts.virtual == "virtio" and "virtual disk (virtio)" in text_report(
            SessionResult(Settings(), facts))


def test_reports_call_it_a_virtual_disk_and_drop_platter_advice():
    layout = FileLayout(extents=1, fragments=1, start_offset=0, start_fraction=0.1)
    virtual = SystemFacts(device="/dev/vda", rotational=True, virtual="virtio")
    text = text_report(SessionResult(Settings(), virtual, test_file=layout))
    assert "virtual disk (virtio)" in text and "HDD" not in text
    assert "outer tracks" not in text
    real = SystemFacts(device="/dev/sda", rotational=True)
    text = text_report(SessionResult(Settings(), real, test_file=layout))
    assert "HDD" in text and "outer tracks" in text
    assert disk_kind(False) == "SSD" and disk_kind(None) == ""


def test_the_app_says_virtual_disk_too():
    from diskmark.app.screens.details import layout_text
    from diskmark.app.widgets.topbar import describe_facts

    virtual = SystemFacts(device="/dev/vda", fstype="ext4", rotational=True, virtual="virtio")
    line = describe_facts(virtual).plain
    assert "virtual disk (virtio)" in line and "HDD" not in line
    layout = FileLayout(extents=1, fragments=1, start_offset=0, start_fraction=0.1)
    assert not any("spinning" in x for x in layout_text(layout, virtual.spinning))
    assert any("spinning" in x for x in layout_text(layout, SystemFacts(rotational=True).spinning))
