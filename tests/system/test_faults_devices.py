"""Fault injection on real loop devices: a device the kernel holds read-only (``losetup -r``,
``blockdev --setro``) and an option that means nothing on a device. Each is refused before
anything starts, in one line, with exit status 2.

Before: with --destroy-data a read-only device started anyway, said "what was there is
lost", then failed with a wall of fio's ``io_u error`` lines; --nocow on a device was
silently ignored.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from pathlib import Path

import pytest
from conftest import TINY_ARGS, fio_processes
from test_devices import IMAGE_MIB, diskmark, need_loop, sha256

from diskmark.model.units import MIB
from diskmark.store.store import Store


@contextlib.contextmanager
def read_only_device(tmp_path: Path, how: str):
    """A loop device over 64 MiB of data that the kernel holds read-only: attached with
    ``losetup -r``, or attached read-write and then flagged with ``blockdev --setro``
    (``how`` empty: a writable one)."""
    need_loop()
    image = tmp_path / "disk.img"
    image.write_bytes(bytes(range(256)) * (IMAGE_MIB * MIB // 256))
    args = ["losetup", "--find", "--show", *(["-r"] if how == "losetup -r" else []), str(image)]
    device = subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()
    try:
        if how == "blockdev --setro":
            subprocess.run(["blockdev", "--setro", device], check=True, capture_output=True)
        ro = Path(f"/sys/class/block/{Path(device).name}/ro").read_text().strip()
        assert ro == ("1" if how else "0")
        yield Path(device), image
    finally:
        # the flag outlives the loop device's attachment: the next user of it gets it back
        subprocess.run(["blockdev", "--setrw", device], capture_output=True)
        subprocess.run(["losetup", "-d", device], capture_output=True)
        image.unlink(missing_ok=True)


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got:\n{stderr}"
    return lines[0]


WAYS = ["losetup -r", "blockdev --setro"]


@pytest.mark.parametrize("how", WAYS)
@pytest.mark.parametrize("mode", [["--mode", "write"], []], ids=["write", "read and write"])
def test_a_read_only_device_with_destroy_data_is_refused_in_one_line(tmp_path, how, mode):
    with read_only_device(tmp_path, how) as (device, image):
        before = sha256(image)
        started = time.monotonic()
        out = diskmark("run", "--target", str(device), "--destroy-data", str(device),
                       *TINY_ARGS, *mode)
        assert out.returncode == 2, out.stderr
        line = one_line(out.stderr)
        assert line == (f"diskmark: {device} is read-only (the kernel's read-only flag is set), "
                        f"so the write tests cannot run on it; nothing was started: run the "
                        f"read tests only (--mode read).")
        assert out.stdout == "" and "io_u error" not in out.stderr
        assert time.monotonic() - started < 30
        assert fio_processes(device) == [] and sha256(image) == before
        assert Store().history() == []


@pytest.mark.parametrize("how", WAYS)
def test_explicit_writes_on_a_read_only_device_say_read_only_not_consent(tmp_path, how):
    """Without --destroy-data, asking for writes is refused for what matters: adding the
    consent the other refusal asks for would not help."""
    with read_only_device(tmp_path, how) as (device, _):
        out = diskmark("run", "--target", str(device), *TINY_ARGS, "--mode", "write")
        assert out.returncode == 2, out.stderr
        assert "is read-only" in one_line(out.stderr)
        assert "--destroy-data" not in out.stderr


@pytest.mark.slow
def test_a_read_only_device_runs_its_reads_and_says_why_no_writes(tmp_path):
    with read_only_device(tmp_path, "losetup -r") as (device, image):
        before = sha256(image)
        out = diskmark("run", "--target", str(device), *TINY_ARGS, "--profile", "demo")
        assert out.returncode == 0, out.stderr
        assert (f"Write tests skipped: {device} is read-only (the kernel's read-only flag is "
                f"set), so only the read tests ran.") in out.stderr
        assert "--destroy-data" not in out.stderr
        assert sha256(image) == before


def test_nocow_on_a_block_device_is_refused_in_one_line(tmp_path):
    with read_only_device(tmp_path, "") as (device, _):
        out = diskmark("run", "--target", str(device), *TINY_ARGS, "--nocow")
    assert out.returncode == 2, out.stderr
    assert one_line(out.stderr) == (
        f"diskmark: --nocow is for a test directory on btrfs; {device} is a block device, "
        f"measured itself, with no copy-on-write to turn off: leave --nocow out.")
    assert out.stdout == ""
