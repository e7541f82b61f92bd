"""Block devices as targets, on real loop devices over files of random data: the read tests
run and leave every byte as it was; writes are refused without consent, with consent that
names another device, and while the device is mounted; with consent on a throw-away device
they run. Needs root (loop devices); every loop device and mount goes, even on failure."""

from __future__ import annotations

import contextlib
import grp
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import TINY_ARGS, fio_processes, tiny, wait_until
from faults import as_nobody, can_drop_privileges
from mounts import can_loop_mount

from diskmark.app.app import DiskmarkApp
from diskmark.app.widgets.mounts import check_directory, describe, mount_status
from diskmark.drive import probe as system
from diskmark.engine.device import fio_path
from diskmark.engine.errors import TargetError
from diskmark.engine.runner import Engine
from diskmark.model.settings import Mode, Op
from diskmark.model.units import MIB

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("mkfs.ext4")

IMAGE_MIB = 64


def need_loop() -> None:
    if os.geteuid() != 0:
        pytest.skip("loop devices need root")
    if not shutil.which("losetup") or not os.path.exists("/dev/loop-control"):
        pytest.skip("no loop devices here (losetup or /dev/loop-control missing)")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


@contextlib.contextmanager
def attached(image: Path):
    """``image`` as a loop device, detached on the way out whatever happens."""
    device = subprocess.run(["losetup", "--find", "--show", str(image)], check=True,
                            capture_output=True, text=True).stdout.strip()
    try:
        yield Path(device)
    finally:
        subprocess.run(["losetup", "-d", device], capture_output=True)


@pytest.fixture
def loop_device(tmp_path):
    """A loop device over a 64 MiB file of random data: (device, its backing file)."""
    need_loop()
    with contextlib.ExitStack() as stack:
        def make(name: str = "disk") -> tuple[Path, Path]:
            image = tmp_path / f"{name}.img"
            with open(image, "wb") as f:
                for _ in range(IMAGE_MIB):
                    f.write(os.urandom(MIB))
            stack.callback(image.unlink, missing_ok=True)
            return stack.enter_context(attached(image)), image
        yield make


def diskmark(*args: str, env: dict | None = None, wrap=None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "diskmark", *args]
    return subprocess.run(wrap(command) if wrap else command, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300, env=env, cwd="/")


@pytest.mark.slow
def test_every_read_test_runs_and_the_data_stays_as_it_was(loop_device):
    device, image = loop_device()
    before = sha256(image)
    out = diskmark("run", "--target", str(device), *TINY_ARGS, "--format", "json")
    assert out.returncode == 0, out.stderr
    assert sha256(image) == before, "a read test changed the device"
    data = json.loads(out.stdout)
    assert [(t["label"], t["kind"]) for t in data["tests"]] == [
        (label, "read") for label in ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1")]
    for t in data["tests"]:
        assert t["best"]["mb_s"] > 0
        assert f"--filename={device}" in t["fio_command"] and "--readonly" in t["fio_command"]
        assert "--direct=1" in t["fio_command"]
    assert data["system"]["target_kind"] == "device"
    assert data["settings"]["mode"] == "read"  # what ran, not the rw that was asked for
    assert data["system"]["device"] == str(device) and data["system"]["target"] == str(device)
    assert data["system"]["model"].startswith("loop: ")  # the model sysfs gives a loop device
    assert data["test_file"] is None
    said = " ".join(data["warnings"])
    assert "Write tests skipped" in said and f"--destroy-data {device}" in said
    assert "no test file is laid out" in said
    assert fio_processes(device) == []
    text = diskmark("run", "--target", str(device), *TINY_ARGS, "--profile", "demo")
    assert text.returncode == 0, text.stderr
    assert f"[{device}: device of 64.0 MiB]" in text.stdout
    assert "FS: none: the device itself was measured" in text.stdout
    assert sha256(image) == before


@pytest.mark.parametrize("extra", [["--mode", "write"], ["--mix", "70"], ["--mode", "write",
                                   "--profile", "demo"]])
def test_writes_without_consent_are_refused_before_anything_starts(loop_device, extra):
    device, image = loop_device()
    before = sha256(image)
    out = diskmark("run", "--target", str(device), *TINY_ARGS, *extra)
    assert out.returncode == 2, out.stderr
    assert "would destroy the data" in out.stderr and f"--destroy-data {device}" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert sha256(image) == before


def test_consent_naming_another_device_is_refused(loop_device, tmp_path):
    device, image = loop_device("one")
    other, _ = loop_device("two")
    before = sha256(image)
    for named in (str(other), str(tmp_path), "/dev/null", "/dev/no-such-device"):
        out = diskmark("run", "--target", str(device), *TINY_ARGS, "--mode", "write",
                       "--destroy-data", named)
        assert out.returncode == 2, out.stderr
        assert f"not the target {device}" in out.stderr
    assert sha256(image) == before
    # consent is only for devices: in a directory diskmark writes its own file only
    out = diskmark("run", "--target", str(tmp_path), *TINY_ARGS, "--destroy-data", str(device))
    assert out.returncode == 2 and "is for a block device target" in out.stderr


def test_writes_are_refused_while_mounted_even_with_consent(loop_device, tmp_path):
    ok, reason = can_loop_mount("ext4")
    if not ok:
        pytest.skip(reason)
    device, image = loop_device()
    subprocess.run(["mkfs.ext4", "-q", "-F", str(device)], check=True, capture_output=True)
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    subprocess.run(["mount", str(device), str(mnt)], check=True, capture_output=True)
    try:
        (mnt / "precious").write_text("keep me")
        os.sync()
        out = diskmark("run", "--target", str(device), *TINY_ARGS, "--mode", "write",
                       "--destroy-data", str(device))
        assert out.returncode == 2, out.stderr
        assert f"{device} is mounted at {mnt}" in out.stderr
        assert "even with --destroy-data" in out.stderr
        # (the mounted filesystem may write its own journal meanwhile: no checksum here)
        assert (mnt / "precious").read_text() == "keep me"
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def refused_write(device: Path) -> str:
    """Ask for writes with consent; return what diskmark said when it refused (exit 2)."""
    out = diskmark("run", "--target", str(device), *TINY_ARGS, "--mode", "write",
                   "--destroy-data", str(device))
    assert out.returncode == 2, out.stderr
    return out.stderr


def test_writes_are_refused_while_device_mapper_holds_it(loop_device):
    device, _ = loop_device()
    name = f"diskmark-test-{os.getpid()}"
    if not shutil.which("dmsetup"):
        pytest.skip("dmsetup not found")
    made = subprocess.run(["dmsetup", "create", name, "--table",
                           f"0 {IMAGE_MIB * MIB // 512} linear {device} 0"], capture_output=True,
                          text=True)
    if made.returncode != 0:
        pytest.skip(f"no device-mapper here: {made.stderr.strip().splitlines()[0]}")
    try:
        said = refused_write(device)
        assert f"{device} is held by dm-" in said and "device-mapper" in said
    finally:
        subprocess.run(["dmsetup", "remove", name], capture_output=True)


def test_writes_are_refused_while_the_device_is_swap(loop_device):
    device, _ = loop_device()
    if not shutil.which("mkswap") or not shutil.which("swapon"):
        pytest.skip("mkswap/swapon not found")
    subprocess.run(["mkswap", str(device)], check=True, capture_output=True)
    if subprocess.run(["swapon", str(device)], capture_output=True).returncode != 0:
        pytest.skip("swapon refused the loop device here")
    try:
        assert f"{device} is in use as swap" in refused_write(device)
    finally:
        subprocess.run(["swapoff", str(device)], capture_output=True)


#: What a refusal to write to a device in use says next, however the use was found.
IN_USE_HINT = ("Unmount it and its partitions, turn its swap off or stop what holds it (LVM, "
               "RAID, another program), then run again; or run the read tests only (--mode "
               "read).")


def test_a_device_in_use_is_refused_in_one_wording_however_the_use_is_found(loop_device):
    """Found before it is opened (swap) or by the kernel as it is (another program holds it
    exclusively): the same refusal, and the same way out (it was worded two ways, the
    second without the read tests)."""
    device, _ = loop_device()
    if not shutil.which("mkswap") or not shutil.which("swapon"):
        pytest.skip("mkswap/swapon not found")
    held = os.open(device, os.O_RDONLY | os.O_EXCL)  # what the kernel says EBUSY for
    try:
        said = refused_write(device)
    finally:
        os.close(held)
    assert said == (f"diskmark: {device} is in use, so diskmark will not write to it, even "
                    f"with --destroy-data.\n{IN_USE_HINT}\n")
    subprocess.run(["mkswap", str(device)], check=True, capture_output=True)
    if subprocess.run(["swapon", str(device)], capture_output=True).returncode != 0:
        pytest.skip("swapon refused the loop device here")
    try:
        said = refused_write(device)
    finally:
        subprocess.run(["swapoff", str(device)], capture_output=True)
    assert said == (f"diskmark: {device} is in use, so diskmark will not write to it, even "
                    f"with --destroy-data: {device} is in use as swap.\n{IN_USE_HINT}\n")


@pytest.mark.slow
def test_with_consent_a_write_test_runs_on_a_throwaway_device(loop_device):
    device, image = loop_device()
    before = sha256(image)
    out = diskmark("run", "--target", str(device), *TINY_ARGS, "--mode", "write",
                   "--profile", "demo", "--destroy-data", str(device), "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [t["kind"] for t in data["tests"]] == ["write"]
    assert data["tests"][0]["best"]["mb_s"] > 0
    assert "--readonly" not in data["tests"][0]["fio_command"]
    assert any("overwrite the first 16MiB" in w for w in data["warnings"])
    assert sha256(image) != before, "the write test wrote nothing"
    assert fio_processes(device) == []


def test_a_size_larger_than_the_device_is_refused(loop_device):
    device, _ = loop_device()
    out = diskmark("run", "--target", str(device), "--size", "128MiB", "--count", "1",
                   "--measure", "1", "--interval", "0", "--mode", "read")
    assert out.returncode == 2, out.stderr
    assert "larger than" in out.stderr and "--size 64MiB or less" in out.stderr


def test_a_user_without_access_is_told_which_group_is_missing(loop_device, tmp_path):
    ok, reason = can_drop_privileges()
    if not ok:
        pytest.skip(reason)
    try:
        disk = grp.getgrnam("disk").gr_gid
    except KeyError:
        pytest.skip("no group 'disk' here")
    device, image = loop_device()
    st = os.stat(device)
    home = Path("/tmp") / f"dm-devhome-{os.getpid()}"
    home.mkdir(mode=0o777)
    said = {}
    try:
        os.chmod(home, 0o777)
        env = dict(os.environ, DISKMARK_HOME=str(home))
        for mode in (0o660, 0o600):  # as udev makes disks; as a bare devtmpfs makes loops
            os.chown(device, 0, disk)
            os.chmod(device, mode)
            out = diskmark("run", "--target", str(device), *TINY_ARGS, "--mode", "read",
                           env=env, wrap=as_nobody)
            assert out.returncode == 2, out.stderr
            assert "Traceback" not in out.stderr
            said[mode] = out.stderr
    finally:
        os.chown(device, st.st_uid, st.st_gid)
        os.chmod(device, st.st_mode & 0o7777)
        subprocess.run(["rm", "-rf", str(home)])
    assert "Permission denied" in said[0o660] and "group 'disk'" in said[0o660]
    assert "membership" in said[0o660] and "never asks for root" in said[0o660]
    assert "Only its owner may read" in said[0o600] and "run diskmark as root" in said[0o600]


@pytest.mark.slow
def test_ctrl_c_on_a_device_run_leaves_no_fio(loop_device):
    device, image = loop_device()
    before = sha256(image)
    proc = subprocess.Popen([sys.executable, "-m", "diskmark", "run", "--target", str(device),
                             "--size", "16MiB", "--count", "3", "--measure", "5", "--interval",
                             "0"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd="/")
    deadline = time.monotonic() + 60
    while not fio_processes(device) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    assert fio_processes(device), "fio never started"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert fio_processes(device) == []
    assert sha256(image) == before


# --- the engine in-process: the plan a device gets ---------------------------------------


async def test_the_engine_runs_reads_only_and_refuses_explicit_writes(loop_device):
    device, image = loop_device()
    engine = Engine()
    with pytest.raises(TargetError, match="would destroy"):
        await engine.run(tiny(device, mode=Mode.WRITE))
    with pytest.raises(TargetError, match="would destroy"):
        await engine.run(tiny(device, mix=70))
    with pytest.raises(TargetError, match="not the target"):
        await engine.run(tiny(device, mode=Mode.WRITE), destroy="/dev/null")
    plan = engine.plan(tiny(device))
    assert {t.op for t in plan.tests} == {Op.READ, Op.WRITE}


def test_fio_is_given_the_kernel_name_not_a_link_it_could_misread(loop_device, tmp_path):
    device, _ = loop_device()
    link = tmp_path / "by-id:usb;disk#1"
    link.symlink_to(device)
    assert fio_path(link, os.stat(device).st_rdev) == device


def test_the_picker_offers_devices_labelled_as_such(loop_device):
    device, image = loop_device()
    found = {m.mountpoint: m for m in system.list_block_devices()}
    m = found[str(device)]
    assert m.block_device and m.device == "disk" and m.total_bytes == IMAGE_MIB * MIB
    assert m.model == f"loop: {image}"
    assert m.rotational is None, "a loop device is as fast as its file's disk: not an HDD"
    assert system.facts_for_device(str(device)).rotational is None
    assert mount_status(m) == "device · reads only"
    assert check_directory(str(device)) == (str(device), "")
    line = describe(str(device), m)
    assert line.startswith(f"{device}: block device (disk)") and "read tests only" in line


@pytest.mark.slow
async def test_the_app_runs_the_read_tests_of_a_device_and_says_why_not_the_writes(loop_device):
    device, image = loop_device()
    before = sha256(image)
    # NOCOW saved from a btrfs target earlier: a choice for directories, not this device's
    app = DiskmarkApp(settings=tiny(device, mix=70, nocow=True), persist=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.state.facts is not None, 10, "the device's facts")
        assert app.state.facts.target_kind == "device"
        await pilot.click("#all")
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")
        await wait_until(pilot, lambda: not app.state.running, 120, "All to finish")
        await pilot.pause()
        session = app.state.history[0]
        assert [t.op for t in session.tests] == [Op.READ] * 4
        assert not session.settings.nocow
        assert any("Write tests skipped" in w for w in session.warnings)
        written = [t for t in app.main.grid.tiles if t.op is not Op.READ and t.value is not None]
        assert written == []
    assert sha256(image) == before
    assert fio_processes(device) == []
