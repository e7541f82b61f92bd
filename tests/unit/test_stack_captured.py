"""The storage stack read from captured machines: the same code that reads /sys and
/proc/self/mountinfo here reads the trees in tests/fixtures/stack (see its README for where
each comes from), through a sysfs root and a mountinfo given (``System(live=False)``: nothing
is stat'ed, no program is asked). The kernel of the test machine has no device-mapper and no
md, so these are where LVM, dm-crypt and md are read; NVMe, SATA and USB links too, where a
capture has them, and a tree built to the kernel's documented layout where none does.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from diskmark.drive.mounts import parse_mountinfo
from diskmark.drive.stack import wait
from diskmark.drive.stack.blocks import crypt_table
from diskmark.drive.stack.resolve import System, block_stack, stack_of
from diskmark.model.settings import DataPattern, Op
from diskmark.model.stack import Effect, Kind, Layer, LayerEffect, Unknown, marks_for
from diskmark.report.stack_words import effect_sentence, why_lines, why_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "stack"
LVM = FIXTURES / "lvm-over-loops"
ARRAYS = FIXTURES / "arrays"


def captured(root: Path) -> System:
    mountinfo = root / "proc" / "self" / "mountinfo"
    mounts = parse_mountinfo(mountinfo.read_text()) if mountinfo.exists() else []
    return System(sys_root=root / "sys", mounts=mounts, live=False)


def kinds(layers: list[Layer]) -> list[tuple[int, Kind, str]]:
    return [(layer.depth, layer.kind, layer.name) for layer in layers]


def effects(layer: Layer) -> list[Effect]:
    return [e.effect for e in layer.effects]


# --- util-linux's capture of a machine with LVM over four loop devices, NVMe and SATA ------------


def test_lvm_over_four_loop_devices_down_to_their_files_in_tmpfs():
    layers = block_stack("dm-0", captured(LVM))
    assert kinds(layers)[:4] == [
        (0, Kind.LVM, "/dev/mapper/vg_foo.4059-lv_foo.4059"),
        (1, Kind.LOOP, "/dev/loop0"),
        (2, Kind.FILE, "/tmp/foo.4059-0.img"),
        (3, Kind.MEMORY, "/tmp")]
    assert [x.name for x in layers if x.kind is Kind.LOOP] == [f"/dev/loop{n}" for n in range(4)]
    assert layers[0].type == "linear" and layers[0].device == "/dev/dm-0"
    loop = layers[1]
    assert loop.facts["backing_file"] == "/tmp/foo.4059-0.img" and loop.facts["direct_io"] == "0"
    assert effects(loop) == [Effect.LOOP_CACHE]  # no direct I/O: its file's page cache
    assert effects(layers[3]) == [Effect.MEMORY]


def test_a_file_system_on_an_nvme_partition():
    layers = stack_of("/home/test/some/dir", captured(LVM))
    assert kinds(layers) == [(0, Kind.FILESYSTEM, "/home/test"),
                             (1, Kind.PARTITION, "/dev/nvme0n1p3"),
                             (2, Kind.DISK, "/dev/nvme0n1")]
    assert layers[0].type == "ext4" and layers[1].facts["number"] == "3"
    disk = layers[2]
    assert disk.type == "NVMe" and disk.facts["model"] == "KINGSTON SKC1000240G"
    assert disk.facts["size"] == str(468862128 * 512)  # its 512-byte sectors, as captured


def test_the_root_file_system_on_a_sata_disk_and_a_bind_of_another_is_not_it():
    layers = stack_of("/", captured(LVM))
    assert kinds(layers) == [(0, Kind.FILESYSTEM, "/"), (1, Kind.PARTITION, "/dev/sda4"),
                             (2, Kind.DISK, "/dev/sda")]
    assert layers[2].type == "SATA" and layers[2].facts["model"] == "KINGSTON SH103S3"
    assert stack_of("/tmp/x", captured(LVM))[0].kind is Kind.MEMORY  # tmpfs mounted on /tmp


def test_the_nvme_link_and_one_trained_below_what_the_device_can_do(tmp_path):
    """The PCIe link attributes are those prometheus/procfs captured of an NVMe controller
    (class 0x010802: 8.0 GT/s, x4, of 8.0 GT/s x4), written into util-linux's NVMe machine;
    then the same device trained at x2."""
    root = tmp_path / "m"
    shutil.copytree(LVM, root, symlinks=True)
    pci = root / "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
    for name, value in (("current_link_speed", "8.0 GT/s PCIe"), ("current_link_width", "4"),
                        ("max_link_speed", "8.0 GT/s PCIe"), ("max_link_width", "4")):
        (pci / name).write_text(value + "\n")
    disk = stack_of("/home", captured(root))[-1]
    assert disk.facts["link"] == "PCIe 3.0 x4 (8 GT/s)" and effects(disk)[0] is Effect.LINK
    assert disk.effects[0].mb_s == pytest.approx(4 * 984.6)
    assert Effect.LINK_LOW not in effects(disk)
    (pci / "current_link_width").write_text("2\n")
    disk = stack_of("/home", captured(root))[-1]
    low = disk.effect(Effect.LINK_LOW)
    assert low is not None and low.values["capable"] == "PCIe 3.0 x4 (8 GT/s)"
    assert low.mb_s == pytest.approx(2 * 984.6)
    assert "below the PCIe 3.0 x4" in effect_sentence(low)


# --- prometheus/procfs's md and device-mapper ----------------------------------------------------


def test_md_degraded_recovering_and_reshaping_as_captured():
    system = captured(ARRAYS)
    md5, md6, md8 = (block_stack(n, system)[0] for n in ("md5", "md6", "md8"))
    assert (md5.kind, md5.type, md5.facts["raid_disks"]) == (Kind.MD, "raid5", "3")
    assert effects(md5) == [Effect.RAID, Effect.DEGRADED]
    assert md5.effect(Effect.DEGRADED).values == {"missing": 1}  # type: ignore[union-attr]
    resync = md6.effect(Effect.RESYNC)
    assert resync is not None and resync.values == {"action": "recover", "pct": 75.0}
    assert effects(md8) == [Effect.RAID, Effect.RESYNC]  # reshape, nothing degraded
    assert "The array is busy (recover, 75.0% done)" in effect_sentence(resync)


def test_a_member_the_tree_does_not_hold_is_named_and_unknown():
    layers = block_stack("md5", captured(ARRAYS))
    members = layers[1:]
    assert [x.name for x in members] == ["/dev/sdaa", "/dev/sdn", "/dev/sdo", "/dev/sdp"]
    assert all(x.kind is Kind.UNKNOWN and x.effects[0].values["reason"] == Unknown.NOT_IN_SYSFS
               for x in members)


def test_device_mapper_named_by_its_uuid_owner():
    system = captured(ARRAYS)
    lvm, multipath = block_stack("dm-0", system)[0], block_stack("dm-1", system)[0]
    assert (lvm.kind, lvm.name, lvm.type) == (Kind.LVM, "/dev/mapper/vg0--lv_root", "linear")
    assert (multipath.kind, multipath.type) == (Kind.DEVICE_MAPPER, "multipath")
    assert len(block_stack("dm-1", system)) == 3  # its two paths


def test_dm_crypt_by_its_uuid_and_its_cipher_from_dmsetup(tmp_path):
    """cryptsetup names a LUKS mapping's uuid CRYPT-<type>-<uuid>-<name> (lib/libdevmapper.c,
    dm_prepare_uuid): util-linux's LVM volume given such a uuid is read as dm-crypt."""
    root = tmp_path / "m"
    shutil.copytree(LVM, root, symlinks=True)
    (root / "sys/devices/virtual/block/dm-0/dm/uuid").write_text(
        "CRYPT-LUKS2-0f0bd8a1f1d04e5d9e4f2b1a7c6d5e4f-cryptdata\n")
    layer = block_stack("dm-0", captured(root))[0]
    assert (layer.kind, layer.type) == (Kind.DM_CRYPT, "LUKS2")
    assert layer.effect(Effect.CIPHER) is not None
    assert "cipher known to root" in why_lines([layer], sentences=False)[0]
    # dmsetup's answers: the key in the keyring (cryptsetup 2), and a key in the table
    # (cryptsetup's own tests/api-test.c makes this one), whose hex length is its size
    assert crypt_table("0 41940992 crypt aes-xts-plain64 :64:logon:cryptsetup:"
                       "0f0bd8a1-f1d0-4e5d-9e4f-2b1a7c6d5e4f-d0 0 259:2 32768\n") == {
        "cipher": "aes-xts-plain64", "key_bits": "512"}
    assert crypt_table("0 100 crypt aes-cbc-essiv:sha256 deadbabedeadbabedeadbabedeadbabe 0 "
                       "/dev/loop0 2048") == {"cipher": "aes-cbc-essiv:sha256", "key_bits": "128"}
    assert crypt_table("0 2048 linear 8:2 0") == {}


# --- links in trees built to the kernel's documented layout (no capture has them) ----------------


def _link(root: Path, rel: str, target: str) -> None:
    f = root / rel
    f.parent.mkdir(parents=True, exist_ok=True)
    (f.parent / target).mkdir(parents=True, exist_ok=True)
    os.symlink(target, f)


def _write(root: Path, rel: str, text: str) -> None:
    f = root / rel
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(text + "\n")


def usb_disk(root: Path, speed: str, version: str, driver: str) -> None:
    """A USB bridge at 2-1 (its speed and the USB version it can do), its mass-storage
    interface 2-1:1.0 bound to ``driver`` (Documentation/ABI/stable/sysfs-bus-usb)."""
    dev = "devices/pci0000:00/0000:00:14.0/usb2/2-1"
    disk = f"{dev}/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb"
    _write(root, f"{dev}/speed", speed)
    _write(root, f"{dev}/version", version)
    _link(root, f"{dev}/2-1:1.0/driver", f"../../../../../../bus/usb/drivers/{driver}")
    _write(root, f"{disk}/dev", "8:16")
    _write(root, f"{disk}/queue/rotational", "0")
    _link(root, "class/block/sdb", f"../../{disk}")


@pytest.mark.parametrize(("speed", "version", "driver", "found"), [
    ("480", " 3.20", "usb-storage", [Effect.LINK, Effect.LINK_LOW, Effect.USB_BOT]),
    ("5000", " 3.20", "uas", [Effect.LINK]),
    ("480", " 2.00", "uas", [Effect.LINK]),
])
def test_usb_speed_against_the_device_and_its_driver(tmp_path, speed, version, driver, found):
    usb_disk(tmp_path, speed, version, driver)
    disk = block_stack("sdb", System(sys_root=tmp_path, mounts=[], live=False))[0]
    assert disk.type == "USB" and disk.facts["driver"] == driver
    assert effects(disk) == found
    assert disk.effects[0].mb_s == {"480": 40.0, "5000": 500.0}[speed]


def test_sata_link_below_the_ports_limit(tmp_path):
    ata = "devices/pci0000:00/0000:00:1f.2/ata1"
    disk = f"{ata}/host0/target0:0:0/0:0:0:0/block/sda"
    _write(tmp_path, f"{ata}/link1/ata_link/link1/sata_spd", "3.0 Gbps")
    _write(tmp_path, f"{ata}/link1/ata_link/link1/hw_sata_spd_limit", "6.0 Gbps")
    _write(tmp_path, f"{disk}/dev", "8:0")
    _write(tmp_path, f"{disk}/queue/rotational", "1")
    _link(tmp_path, "class/block/sda", f"../../{disk}")
    layer = block_stack("sda", System(sys_root=tmp_path, mounts=[], live=False))[0]
    assert effects(layer) == [Effect.LINK, Effect.LINK_LOW, Effect.ROTATIONAL]
    assert layer.effects[0].mb_s == 300.0 and layer.facts["link_max"] == "SATA 6.0 Gb/s"


# --- names, unknown layers, the bounded wait, the marks rule ----------------------------------


def test_escaped_names_are_read_as_themselves_and_shown_escaped():
    r"""mountinfo writes space, tab, newline and backslash as \040, \011, \012, \134 and
    leaves the rest, U+2028 and the no-break space among them, as they are."""
    text = ("27 1 254:0 / / rw - ext4 /dev/vda rw\n"
            "40 27 0:40 / /mnt/a\\040b rw - tmpfs tmpfs rw\n"
            "41 27 0:41 / /mnt/new\\012line rw - tmpfs tmpfs rw\n"
            "42 27 0:42 / /mnt/sep\u2028ar\xa0ator rw - tmpfs tmpfs rw\n")
    mounts = parse_mountinfo(text)
    assert [m.mountpoint for m in mounts] == ["/", "/mnt/a b", "/mnt/new\nline",
                                              "/mnt/sep\u2028ar\xa0ator"]
    system = System(sys_root=Path("/nonexistent"), mounts=mounts, live=False)
    for where in ("/mnt/a b/x", "/mnt/new\nline/x", "/mnt/sep\u2028ar\xa0ator/x"):
        assert stack_of(where, system)[0].kind is Kind.MEMORY
    shown = why_text("/mnt/new\nline", stack_of("/mnt/new\nline", system))
    assert "/mnt/new\\nline  tmpfs" in shown and "\nline  tmpfs" not in shown
    assert "\u2028" not in why_text("x", stack_of("/mnt/sep\u2028ar\xa0ator", system))


def test_a_layer_diskmark_does_not_know_is_shown_with_what_identifies_it():
    mounts = parse_mountinfo("27 1 0:50 / /data rw - weirdfs server-7:/pool rw\n")
    layers = stack_of("/data/x", System(sys_root=Path("/nonexistent"), mounts=mounts, live=False))
    assert [(x.kind, x.type) for x in layers] == [(Kind.FILESYSTEM, "weirdfs")]
    unknown = layers[0].effect(Effect.UNKNOWN)
    assert unknown is not None and unknown.values == {"reason": "no-source",
                                                      "what": "server-7:/pool"}
    assert "its source is server-7:/pool" in effect_sentence(unknown)
    no_mount = stack_of("/x", System(sys_root=Path("/nonexistent"), mounts=[], live=False))
    assert no_mount[0].kind is Kind.UNKNOWN


def test_a_question_that_never_answers_is_given_up_after_its_wait():
    stuck = threading.Event()
    started = time.monotonic()
    answer = wait.ask("stat /mnt/dead", lambda: stuck.wait(30), 0.2)
    took = time.monotonic() - started
    stuck.set()
    assert not answer.answered and 0.19 <= took < 1.0
    assert wait.ask("quick", lambda: 42).value == 42
    failed = wait.ask("refused", lambda: os.stat("/nonexistent/x"))
    assert failed.answered and isinstance(failed.error, FileNotFoundError)


def test_which_figures_each_effect_marks():
    compressed = [Layer(Kind.FILESYSTEM, "/mnt/b", type="btrfs",
                        effects=[LayerEffect(Effect.COMPRESSED)])]
    assert marks_for(Op.READ, 900.0, compressed, DataPattern.ZEROS)[0].effect is Effect.COMPRESSED
    assert marks_for(Op.WRITE, 900.0, compressed, DataPattern.RANDOM) == []
    arc = [Layer(Kind.FILESYSTEM, "/tank", effects=[LayerEffect(Effect.ARC)])]
    assert [bool(marks_for(op, 1.0, arc, DataPattern.RANDOM)) for op in Op] == [True, False, True]
    usb2 = [Layer(Kind.FILESYSTEM, "/media/x"),
            Layer(Kind.DISK, "/dev/sdb", 1, effects=[LayerEffect(Effect.LINK, 40.0)])]
    assert marks_for(Op.READ, 38.0, usb2, DataPattern.RANDOM)[0].effect is Effect.LINK
    assert marks_for(Op.READ, 20.0, usb2, DataPattern.RANDOM) == []
    two = usb2 + [Layer(Kind.DISK, "/dev/sdc", 1, effects=[LayerEffect(Effect.LINK, 40.0)])]
    assert marks_for(Op.READ, 38.0, two, DataPattern.RANDOM) == []  # their links add up



# --- network and FUSE mounts, ZFS through its own program ---------------------------------------

#: mountinfo lines as the kernel writes them for each (fs/proc_namespace.c; nfs(5),
#: mount.cifs(8), Documentation/filesystems/9p.rst and virtiofs.rst for their options).
NETWORK_MOUNTS = (
    "36 27 0:52 / /mnt/nfs rw,relatime shared:1 - nfs4 nas:/export rw,vers=4.2,rsize=1048576,"
    "wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,addr=192.0.2.1\n"
    "37 27 0:53 / /mnt/smb rw,relatime - cifs //nas/share rw,vers=3.1.1,cache=strict,"
    "rsize=4194304,wsize=4194304\n"
    "38 27 0:54 / /mnt/9p rw,relatime - 9p hostshare rw,cache=loose,access=client,"
    "msize=512000,trans=virtio\n"
    "39 27 0:55 / /mnt/host rw,relatime - virtiofs myfs rw\n"
    "40 27 0:56 / /mnt/ssh rw,nosuid,nodev,relatime - fuse.sshfs me@host:/home "
    "rw,user_id=0,group_id=0\n")


@pytest.mark.parametrize(("where", "fstype", "facts"), [
    ("/mnt/nfs", "nfs4", {"vers": "4.2", "proto": "tcp", "rsize": "1048576", "hard": "hard"}),
    ("/mnt/smb", "cifs", {"vers": "3.1.1", "cache": "strict"}),
    ("/mnt/9p", "9p", {"trans": "virtio", "cache": "loose", "msize": "512000"}),
    ("/mnt/host", "virtiofs", {}),
])
def test_network_file_systems_with_their_server_and_options(where, fstype, facts):
    system = System(sys_root=Path("/nonexistent"), mounts=parse_mountinfo(NETWORK_MOUNTS),
                    live=False)
    layers = stack_of(f"{where}/x", system)
    assert [(x.kind, x.type) for x in layers] == [(Kind.NETWORK, fstype)]
    assert facts.items() <= layers[0].facts.items()
    assert effects(layers[0]) == [Effect.NETWORK]


def test_sshfs_is_fuse_over_the_network():
    system = System(sys_root=Path("/nonexistent"), mounts=parse_mountinfo(NETWORK_MOUNTS),
                    live=False)
    layers = stack_of("/mnt/ssh/x", system)
    assert kinds(layers) == [(0, Kind.FUSE, "/mnt/ssh"), (1, Kind.NETWORK, "me@host:/home")]
    assert layers[0].type == "sshfs"


@pytest.mark.parametrize(("version", "arc"), [("2.1.11-1", True), ("2.3.0-1", False)])
def test_zfs_datasets_properties_come_from_zfs_itself(tmp_path, monkeypatch, version, arc):
    """A ``zfs`` on the PATH that answers as OpenZFS's ``zfs get -H -p -o property,value``
    does (tab-separated), run through diskmark's one way to start a program; the module's
    version as /sys/module/zfs/version gives it."""
    from diskmark.drive.mounts import Mount
    from diskmark.drive.stack.filesystems import filesystem_layer

    tool = tmp_path / "bin" / "zfs"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\nprintf 'primarycache\\tall\\ncompression\\tlz4\\n"
                    "recordsize\\t131072\\nsync\\tstandard\\ndirect\\t-\\n'\n")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tool.parent}:{os.environ['PATH']}")
    (tmp_path / "sys/module/zfs").mkdir(parents=True)
    (tmp_path / "sys/module/zfs/version").write_text(version + "\n")
    mount = Mount("0:60", "/tank/data", "zfs", "tank/data", "rw,xattr,noacl", False)
    layer = filesystem_layer(mount, "/tank/data", 0, tmp_path / "sys", live=True)
    assert {k: layer.facts[k] for k in ("primarycache", "compression", "recordsize")} == {
        "primarycache": "all", "compression": "lz4", "recordsize": "131072"}
    assert (Effect.ARC in effects(layer)) is arc and Effect.COMPRESSED in effects(layer)
    assert "direct" not in layer.facts  # "-": the property does not exist before 2.3


def test_bcache_in_front_of_its_backing_device(tmp_path):
    """bcache as Documentation/admin-guide/bcache.rst lays it out: /sys/block/bcache0/bcache
    (the backing device's attributes: ``cache_mode`` with the one in use in brackets,
    ``state``, ``dirty_data``), and the backing device under ``slaves/``; ``dirty_data`` 0 is
    what prometheus/procfs captured of one."""
    backing = "devices/pci0000:00/0000:00:0d.0/ata4/host3/target3:0:0/3:0:0:0/block/sdb"
    _write(tmp_path, f"{backing}/dev", "8:16")
    _link(tmp_path, "class/block/sdb", f"../../{backing}")
    cache = "devices/virtual/block/bcache0"
    _write(tmp_path, f"{cache}/dev", "252:0")
    _write(tmp_path, f"{cache}/bcache/cache_mode", "writethrough [writeback] writearound none")
    _write(tmp_path, f"{cache}/bcache/state", "dirty")
    _write(tmp_path, f"{cache}/bcache/dirty_data", "0")
    _link(tmp_path, f"{cache}/slaves/sdb", "../../../../pci0000:00/0000:00:0d.0/ata4/host3/"
          "target3:0:0/3:0:0:0/block/sdb")
    _link(tmp_path, "class/block/bcache0", f"../../{cache}")
    layers = block_stack("bcache0", System(sys_root=tmp_path, mounts=[], live=False))
    assert kinds(layers) == [(0, Kind.BCACHE, "/dev/bcache0"), (1, Kind.DISK, "/dev/sdb")]
    assert layers[0].type == "writeback" and layers[0].facts["state"] == "dirty"
    assert effects(layers[0]) == [Effect.CACHE_DEVICE]
    assert marks_for(Op.READ, 1.0, layers, DataPattern.RANDOM)[0].effect is Effect.CACHE_DEVICE
