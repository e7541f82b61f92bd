"""diskmark.drive.probe on the real machine: the current filesystem, then fresh loop/tmpfs/ramfs mounts."""

from __future__ import annotations

import os
import platform
from pathlib import Path

import pytest
from mounts import can_loop_mount, loop_mount, ramfs_mount, tmpfs_mount

from diskmark.drive.mounts import MountInfo
from diskmark.drive.probe import facts_for, list_mounts
from diskmark.model.units import MIB
from diskmark.model.units import format_bytes as human_bytes

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("mkfs.ext4", "mkfs.btrfs")


def need(fstype: str) -> None:
    ok, reason = can_loop_mount(fstype)
    if not ok:
        print(f"SKIP {fstype}: {reason}")
        pytest.skip(reason)


def mount_at(path: Path) -> MountInfo:
    found = [m for m in list_mounts() if m.mountpoint == str(path)]
    assert len(found) == 1, f"{path} not (or twice) in list_mounts()"
    return found[0]


def test_facts_for_tmp_path(tmp_path):
    f = facts_for(tmp_path)
    assert f.target == str(tmp_path.resolve())
    assert f.mountpoint and (f.mountpoint == "/" or str(tmp_path.resolve()).startswith(f.mountpoint + "/"))
    assert f.fstype
    assert f.total_bytes > 0 and 0 <= f.free_bytes <= f.total_bytes
    assert f.kernel == platform.release()
    assert f.os
    assert f.rotational in (True, False, None)


def test_facts_for_missing_path_uses_nearest_parent(tmp_path):
    missing = tmp_path / "not" / "yet"
    f = facts_for(missing)
    assert f.target == str(missing)
    assert f.mountpoint == facts_for(tmp_path).mountpoint
    assert f.total_bytes > 0


def test_facts_for_root_and_list_mounts():
    """Their speed is measured in benchmarks/facts_speed.py, not timed here."""
    root = facts_for("/")
    mounts = list_mounts()
    assert root.mountpoint == "/" and root.fstype
    points = [m.mountpoint for m in mounts]
    assert points == sorted(set(points))
    assert "/" in points
    assert not any(m.pseudo for m in mounts)
    assert all(m.usable == (m.reason == "") for m in mounts)


def test_pseudo_filesystems_only_on_request():
    everything = list_mounts(include_pseudo=True)
    proc = [m for m in everything if m.mountpoint == "/proc"]
    assert proc and proc[0].pseudo and not proc[0].usable and proc[0].reason == "pseudo filesystem (proc)"
    assert "/proc" not in [m.mountpoint for m in list_mounts()]


def test_human_bytes():
    assert human_bytes(0) == "0 B"
    assert human_bytes(1023) == "1023 B"
    assert human_bytes(16 * MIB) == "16.0 MiB"
    assert human_bytes(int(814.2 * 1024**3)) == "814.2 GiB"


def test_loop_ext4_with_space_in_mount_point(tmp_path):
    need("ext4")
    with loop_mount(tmp_path, "ext4", size_mib=64, name="disk mark") as mnt:
        assert " " in str(mnt)
        f = facts_for(mnt)
        assert f.fstype == "ext4"
        assert f.device.startswith("/dev/loop")
        assert f.mountpoint == str(mnt)
        assert 40 * MIB <= f.total_bytes <= 70 * MIB
        assert f.rotational in (True, False, None)
        assert f.model.startswith("loop: ") and f.model.endswith("disk mark.ext4.img")
        assert "rw" in f.mount_options.split(",")
        m = mount_at(mnt)
        assert m.fstype == "ext4" and m.device == f.device and m.usable and not m.readonly
        # a directory inside and a file not created yet resolve to the same mount
        (mnt / "sub").mkdir()
        assert facts_for(mnt / "sub" / "later.tmp").mountpoint == str(mnt)


def test_loop_ext4_read_only(tmp_path):
    need("ext4")
    with loop_mount(tmp_path, "ext4", size_mib=64, options="ro") as mnt:
        m = mount_at(mnt)
        assert m.readonly and not m.usable and "read-only" in m.reason
        assert "ro" in facts_for(mnt).mount_options.split(",")


def test_loop_btrfs_virtual_st_dev_still_finds_the_loop_device(tmp_path):
    need("btrfs")
    with loop_mount(tmp_path, "btrfs", size_mib=128) as mnt:
        assert os.major(os.stat(mnt).st_dev) == 0, "btrfs reports an anonymous st_dev"
        f = facts_for(mnt)
        assert f.fstype == "btrfs" and f.device.startswith("/dev/loop")
        assert f.model.startswith("loop: ") and f.scheduler


def test_tmpfs_and_ramfs(tmp_path):
    need("tmpfs")
    with tmpfs_mount(tmp_path, size_mib=32) as tmpfs, ramfs_mount(tmp_path) as ramfs:
        t = facts_for(tmpfs)
        assert t.fstype == "tmpfs" and t.mountpoint == str(tmpfs) and t.total_bytes == 32 * MIB
        assert t.model == "" and t.rotational is None
        r = mount_at(ramfs)
        assert r.fstype == "ramfs" and r.total_bytes == 0 and r.usable and r.reason == ""
        assert facts_for(ramfs).fstype == "ramfs"
        assert mount_at(tmpfs).usable
