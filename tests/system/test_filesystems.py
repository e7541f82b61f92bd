"""The engine on freshly made filesystems: ext4, xfs, btrfs on loop devices, tmpfs and ramfs.

Needs root and loop devices (CI has both); elsewhere each test skips and says why.
"""

from __future__ import annotations

import asyncio
import os
import subprocess

import pytest
from conftest import TINY, fio_processes, leftovers
from mounts import can_loop_mount, loop_mount, ramfs_mount, tmpfs_mount

from diskmark.cli.output import exit_code_for
from diskmark.engine.errors import DirectIOUnsupported, TargetError
from diskmark.engine.runner import Engine
from diskmark.model.events import Notice, Phase, Progress
from diskmark.model.results import Status
from diskmark.model.settings import Settings
from diskmark.model.units import MIB

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("mkfs.ext4", "mkfs.xfs", "mkfs.btrfs")


def need(fstype: str) -> None:
    ok, reason = can_loop_mount(fstype)
    if not ok:
        print(f"SKIP {fstype}: {reason}")
        pytest.skip(reason)


def run(settings: Settings, on_event=None):
    events = []

    def sink(event):
        events.append(event)
        if on_event:
            on_event(event)

    return asyncio.run(Engine().run(settings, sink)), events


def assert_clean(directory):
    assert fio_processes(directory) == [], "fio left running"
    assert leftovers(directory) == [], "test file left behind"


@pytest.mark.parametrize("fstype", ["ext4", "xfs", "btrfs"])
def test_full_default_run_on_fresh_loop_filesystem(tmp_path, fstype):
    need(fstype)
    with loop_mount(tmp_path, fstype, size_mib=320) as mnt:
        session, events = run(Settings(target=str(mnt), **TINY))
        assert session.status is Status.COMPLETE, session.error
        assert len(session.tests) == 8
        # every figure of every test, but for a loop device that stalled for a whole
        # one-second pass (no I/O completed): then that pass is nothing, not a figure
        for t in session.tests:
            stalled = all(r.io_bytes == 0 for r in t.runs)
            assert (t.best_mb_s > 0 and t.best_iops > 0 and t.best_lat_us > 0) or (
                stalled and t.best_mb_s == t.best_iops == t.best_lat_us == 0), (
                t.label, t.kind, [(r.mb_s, r.iops, r.lat_us, r.io_bytes) for r in t.runs])
        assert sum(t.best_mb_s > 0 for t in session.tests) >= 6, "more than a stall or two"
        assert session.system.fstype == fstype
        assert session.system.device.startswith("/dev/loop")
        assert session.system.mountpoint == str(mnt)
        if fstype == "btrfs":
            assert any("btrfs" in e.text for e in events if isinstance(e, Notice))
        assert_clean(mnt)


def test_tmpfs_runs_and_says_it_measures_memory(tmp_path):
    need("tmpfs")
    with tmpfs_mount(tmp_path, size_mib=64) as mnt:
        try:
            session, events = run(Settings(target=str(mnt), only_test=0, **TINY))
        except DirectIOUnsupported:  # tmpfs before Linux 6.6
            print("tmpfs refuses O_DIRECT on this kernel; running buffered")
            session, events = run(Settings(target=str(mnt), only_test=0, direct=False, **TINY))
        assert session.status is Status.COMPLETE, session.error
        assert any("RAM, not a disk" in w for w in session.warnings)
        assert session.system.fstype == "tmpfs"
        assert_clean(mnt)


def test_ramfs_refuses_o_direct_then_runs_buffered(tmp_path):
    need("ramfs")
    with ramfs_mount(tmp_path) as mnt:
        with pytest.raises(DirectIOUnsupported) as e:
            run(Settings(target=str(mnt), **TINY))
        assert "ramfs" in e.value.message and "--buffered" in e.value.hint
        assert list(mnt.iterdir()) == [], "the O_DIRECT probe must not leave a file"
        session, events = run(Settings(target=str(mnt), only_test=0, direct=False, **TINY))
        assert session.status is Status.COMPLETE, session.error
        assert all("--direct=0" in t.fio_command for t in session.tests)
        notes = [e.text for e in events if isinstance(e, Notice)]
        assert any("no size or free space" in n for n in notes)
        assert any("Buffered" in n for n in notes)
        assert_clean(mnt)


def test_too_little_free_space_is_refused_with_figures(tmp_path):
    need("tmpfs")
    with tmpfs_mount(tmp_path, size_mib=24) as mnt:
        with pytest.raises(TargetError) as e:
            run(Settings(target=str(mnt), **{**TINY, "size": 32 * MIB}))
        msg = str(e.value)
        assert "Not enough free space" in msg and "needs 48.0 MiB" in msg and "free" in msg
        assert exit_code_for(e.value) == 2
        assert list(mnt.iterdir()) == []


def test_filesystem_filling_up_mid_run_fails_cleanly(tmp_path):
    need("ext4")
    with loop_mount(tmp_path, "ext4", size_mib=96) as mnt:
        filler = mnt / "someone-elses-file"

        def on_event(event):
            # another program grabs the free space just after the checks passed
            if isinstance(event, Progress) and event.phase is Phase.PREPARING and not filler.exists():
                st = os.statvfs(mnt)
                subprocess.run(["fallocate", "-l", str(st.f_bavail * st.f_frsize - 4 * MIB),
                                str(filler)], check=True)

        session, _ = run(Settings(target=str(mnt), **{**TINY, "size": 48 * MIB}), on_event)
        assert session.status is Status.FAILED
        assert "ran out of space" in session.error
        assert "No space left on device" in session.error, "fio's own message is shown"
        assert filler.exists(), "diskmark must not touch files it did not create"
        assert_clean(mnt)


def test_read_only_mount_is_refused(tmp_path):
    need("ext4")
    with loop_mount(tmp_path, "ext4", size_mib=64, options="ro") as mnt:
        with pytest.raises(TargetError, match="read-only") as e:
            run(Settings(target=str(mnt), **TINY))
        assert exit_code_for(e.value) == 2


def test_btrfs_nocow_directory_is_used_and_removed(tmp_path):
    need("btrfs")
    with loop_mount(tmp_path, "btrfs", size_mib=320) as mnt:
        seen = []

        def on_event(event):
            if isinstance(event, Progress) and event.phase is Phase.MEASURING and not seen:
                nocow = [p for p in mnt.iterdir() if p.name.startswith(".diskmark-")]
                assert len(nocow) == 1
                flags = subprocess.run(["lsattr", "-d", str(nocow[0])], capture_output=True,
                                       text=True).stdout.split()[0]
                seen.append(flags)

        session, events = run(Settings(target=str(mnt), only_test=0, nocow=True, **TINY), on_event)
        assert session.status is Status.COMPLETE, session.error
        assert seen and "C" in seen[0], "the test directory must have copy-on-write off"
        assert not any("btrfs" in e.text for e in events if isinstance(e, Notice))
        assert list(mnt.iterdir()) == []
        assert_clean(mnt)
