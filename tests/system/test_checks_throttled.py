"""`diskmark check` on a slow disk made for the test: ext4 on a loop device whose I/O a
block-I/O cgroup caps (cgroup v2's io.max, or v1 blkio's throttle where that is the io
controller), diskmark put in the cgroup before it starts fio. The verdicts must say how far
the disk missed: etcd's fdatasync p99 over its 10 ms, an SD card's class floors met below
the cap and missed above it, in one run; and the exit status must say a check failed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import fio_processes, leftovers
from faults import io_throttle, majmin
from mounts import can_loop_mount, loop_mount

pytestmark = [pytest.mark.slow, pytest.mark.needs("mkfs.ext4"),
              pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")]

#: A check run as short as it can be: the smallest test file, one pass of a second, no rest.
SHORT = ["--size", "16MiB", "--count", "1", "--measure", "1", "--interval", "0"]


def check_in(procs: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``diskmark check …`` in the cgroup ``procs`` belongs to: the child puts itself
    there before it runs anything, so fio's threads are throttled too."""
    def enter() -> None:
        procs.write_text(f"{os.getpid()}\n")

    return subprocess.run([sys.executable, "-m", "diskmark", "check", *args],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=180, preexec_fn=enter)


@pytest.fixture
def slow_disk(tmp_path):
    """(mount point, a function making a cgroup that caps the loop device's I/O)."""
    ok, reason = can_loop_mount("ext4")
    if not ok:
        pytest.skip(f"ext4 on a loop device unavailable: {reason}")
    with loop_mount(tmp_path, "ext4", size_mib=64) as mnt:
        def throttle(**limits: int):
            try:
                return io_throttle(majmin(mnt), **limits)
            except (RuntimeError, OSError) as e:  # pragma: no cover - a machine without it
                pytest.skip(f"cannot cap the loop device's I/O: {e}")
        yield mnt, throttle
        assert fio_processes(mnt) == [] and leftovers(mnt) == []


def test_etcd_on_a_disk_of_20_writes_a_second_fails_by_how_much(slow_disk):
    mnt, throttle = slow_disk
    with throttle(wiops=20) as procs:
        out = check_in(procs, "etcd", "--target", str(mnt), *SHORT)
    print(out.stdout)
    assert out.returncode == 3, out.stderr  # as --fail-on-regression's
    assert "FAIL  etcd" in out.stdout
    line = next(x for x in out.stdout.splitlines() if "sync p99 of fio rw=write bs=2300" in x)
    # each write waits for its fdatasync, and each fdatasync for the capped disk: 50 ms at least
    assert ", below 10 ms: fail, " in line and " over (" in line and "× the limit)" in line, line
    p99 = line.split(": ")[1].split(",")[0]
    assert p99.endswith(" ms") and float(p99.split()[0]) >= 20, line
    assert "Passed 0, failed 1, cannot tell 0." in out.stdout


def test_sd_v30_on_a_disk_of_20_mbs_fails_v30_and_meets_v10_in_the_same_run(slow_disk):
    mnt, throttle = slow_disk
    with throttle(wbps=20_000_000) as procs:
        out = check_in(procs, "sd-v30", "--target", str(mnt), *SHORT)
    print(out.stdout)
    assert out.returncode == 3, out.stderr
    assert "FAIL  sd-v30 (SD Video Speed Class 30 (V30))" in out.stdout
    line = next(x for x in out.stdout.splitlines() if "MB/s of SEQ1M Q1T1 write" in x)
    assert ", at least 30 MB/s: fail, " in line and "% below the limit)" in line, line
    assert 15 < float(line.split(": ")[1].split()[0]) < 25, line
    # the same figure, against the rest of the class's family: V10 met, V60 not
    meets = next(x for x in out.stdout.splitlines() if "it meets:" in x).split(": ")[1].split(", ")
    misses = next(x for x in out.stdout.splitlines() if "does not meet:" in x)
    assert {"sd-v10", "sd-c10", "sd-u1", "sd-v6"} <= set(meets), meets
    assert "sd-v60" in misses and "sd-v90" in misses and "sd-u3" in misses


def test_sd_classes_either_side_of_the_disk_pass_the_lower_and_fail_the_higher(slow_disk):
    mnt, throttle = slow_disk
    # between Class 2's floor and Class 6's, a margin either side: a loop device under a
    # cgroup's cap measured 3.55 MB/s of a 4.7 MB/s cap on a loaded machine
    with throttle(wbps=4_700_000) as procs:
        out = check_in(procs, "sd-c2", "sd-c6", "--target", str(mnt), *SHORT)
    print(out.stdout)
    assert out.returncode == 3, out.stderr
    assert "PASS  sd-c2 (SD Speed Class 2 (C2))" in out.stdout
    assert "FAIL  sd-c6 (SD Speed Class 6 (C6))" in out.stdout
    assert ", at least 2 MB/s: pass, " in out.stdout and ", at least 6 MB/s: fail, " in out.stdout
    assert "Passed 1, failed 1, cannot tell 0." in out.stdout
