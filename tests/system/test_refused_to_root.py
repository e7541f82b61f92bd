"""A target the system refuses to root: a device file that is immutable (opened for writing:
EPERM, root included), one on a file system mounted nodev (EACCES, root included), and an
immutable directory (EPERM for root and for any user). Each is a real refusal by the kernel,
made here on a small ext4 of the test's own mounted under /dev (where diskmark takes a device
file's path as it is given).

Before: diskmark told root to "run diskmark as root" (found in a container where
``--target /dev/vda`` as root is refused with EPERM by the container's device policy), and a
user refused by an immutable directory to change its permissions. Now what the refusal
means is said by its errno and by whether diskmark runs as root, and what to do.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TINY_ARGS
from faults import as_nobody, can_drop_privileges, leftovers

MIB = 1024 * 1024


def need(*programs: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("making device files and mounting needs root")
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not found")
    if not os.path.exists("/dev/loop-control"):
        pytest.skip("no loop devices here (/dev/loop-control missing)")


def run(*args: str) -> str:
    return subprocess.run(list(args), check=True, capture_output=True, text=True).stdout.strip()


@contextlib.contextmanager
def attached(tmp_path: Path, name: str, mib: int):
    """A loop device over a file of ``mib`` MiB, detached on the way out."""
    image = tmp_path / f"{name}.img"
    with open(image, "wb") as f:
        f.truncate(mib * MIB)
    device = run("losetup", "--find", "--show", str(image))
    try:
        yield Path(device)
    finally:
        subprocess.run(["losetup", "-d", device], capture_output=True)
        image.unlink(missing_ok=True)


@contextlib.contextmanager
def device_file(tmp_path: Path, device: Path, how: str):
    """A second device file for ``device``, in /dev/diskmark-test-PID on an ext4 of its
    own: ``immutable`` (the kernel's immutable flag, set with debugfs since chattr cannot
    set it on a device file) or ``nodev`` (on a mount where no device may be opened)."""
    st = os.stat(device)
    with attached(tmp_path, "nodes", 8) as holder:
        run("mkfs.ext4", "-q", "-F", str(holder))
        commands = [f"mknod disk b {os.major(st.st_rdev)} {os.minor(st.st_rdev)}",
                    "sif disk mode 060600"] + (["sif disk flags 0x10"] if how == "immutable" else [])
        for command in commands:
            run("debugfs", "-w", "-R", command, str(holder))
        where = Path(f"/dev/diskmark-test-{os.getpid()}")
        where.mkdir()
        try:
            run("mount", "-t", "ext4", *(["-o", "nodev"] if how == "nodev" else []),
                str(holder), str(where))
            try:
                yield where / "disk"
            finally:
                if subprocess.run(["umount", str(where)], capture_output=True).returncode:
                    subprocess.run(["umount", "-l", str(where)], capture_output=True)
        finally:
            where.rmdir()


def refusal(path: Path, flags: int) -> int:
    """The errno with which this process (root) is refused ``path``, 0 if it is not."""
    try:
        os.close(os.open(path, flags))
    except OSError as e:
        return e.errno or -1
    return 0


def diskmark(*args: str, wrap=None, env=None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "diskmark", *args]
    return subprocess.run(wrap(command) if wrap else command, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300, cwd="/", env=env)


CASES = {
    "immutable, written": ("immutable", os.O_RDWR, errno.EPERM, [], "Operation not permitted",
                           "a device policy of the container"),
    "nodev, read": ("nodev", os.O_RDONLY, errno.EACCES, ["--mode", "read"], "Permission denied",
                    "mounted nodev"),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_device_refused_to_root_is_not_a_reason_to_become_root(tmp_path, case):
    how, flags, expected, mode, strerror, cause = case
    need("losetup", "mkfs.ext4", "debugfs", "mount")
    with attached(tmp_path, "disk", 64) as device, device_file(tmp_path, device, how) as node:
        got = refusal(node, flags)
        if got != expected:
            pytest.skip(f"the kernel did not refuse {how} as expected here "
                        f"({errno.errorcode.get(got, got)})")
        out = diskmark("run", "--target", str(node), "--destroy-data", str(node), *mode,
                       *TINY_ARGS)
    assert out.returncode == 2, out.stderr
    first, hint = out.stderr.splitlines()[:2]
    assert first == (f"diskmark: diskmark runs as root, and the system still refused to open "
                     f"the device {node}: {strerror}."), out.stderr
    assert cause in hint, out.stderr
    assert "as root" not in hint and "Traceback" not in out.stderr


@contextlib.contextmanager
def immutable(directory: Path):
    directory.mkdir(mode=0o777)
    os.chmod(directory, 0o777)
    made = subprocess.run(["chattr", "+i", str(directory)], capture_output=True, text=True)
    if made.returncode:
        pytest.skip(f"chattr +i is not possible here: {made.stderr.strip()}")
    try:
        yield directory
    finally:
        subprocess.run(["chattr", "-i", str(directory)], capture_output=True)


def test_an_immutable_directory_refuses_root_and_says_so(tmp_path):
    need("chattr")
    with immutable(tmp_path / "target") as target:
        out = diskmark("run", "--target", str(target), *TINY_ARGS)
        assert leftovers(target) == []
    assert out.returncode == 2, out.stderr
    first, hint = out.stderr.splitlines()[:2]
    assert first == (f"diskmark: diskmark runs as root, and the system still refused to write "
                     f"in {target}: Operation not permitted."), out.stderr
    assert "an immutable or append-only directory (lsattr -d" in hint, out.stderr
    assert "not writable by this user" not in out.stderr


@contextlib.contextmanager
def as_a_user():
    """A directory in /tmp that the user nobody reaches (pytest's own are root's alone), and
    a DISKMARK_HOME there."""
    ok, reason = can_drop_privileges()
    if not ok:
        pytest.skip(reason)
    top = Path("/tmp") / f"dm-refused-{os.getpid()}"
    top.mkdir(mode=0o755)
    os.chmod(top, 0o755)
    (top / "home").mkdir(mode=0o777)
    os.chmod(top / "home", 0o777)
    try:
        yield top, dict(os.environ, DISKMARK_HOME=str(top / "home"))
    finally:
        subprocess.run(["chattr", "-R", "-i", str(top)], capture_output=True)
        shutil.rmtree(top, ignore_errors=True)


def test_an_immutable_directory_is_not_a_matter_of_permissions_for_a_user():
    """Open to all (0777) but immutable: the user is refused with EPERM, which root would
    meet too, so changing permissions or becoming root is no advice."""
    need("chattr")
    with as_a_user() as (top, env), immutable(top / "target") as target:
        out = diskmark("run", "--target", str(target), *TINY_ARGS, wrap=as_nobody, env=env)
    assert out.returncode == 2, out.stderr
    first, hint = out.stderr.splitlines()[:2]
    assert first == (f"diskmark: The system refused to write in {target}: Operation not "
                     f"permitted. Running diskmark as root would not change that."), out.stderr
    assert "which binds root too" in hint, out.stderr


def test_a_target_behind_a_directory_the_user_may_not_enter_is_refused_in_one_line():
    """Before: a traceback (PermissionError from Path.exists)."""
    with as_a_user() as (top, env):
        (top / "closed" / "target").mkdir(parents=True)
        os.chmod(top / "closed", 0o700)
        out = diskmark("run", "--target", str(top / "closed" / "target"), *TINY_ARGS,
                       wrap=as_nobody, env=env)
    assert out.returncode == 2, out.stderr
    assert out.stderr == (f"diskmark: Cannot open the target {top}/closed/target: Permission "
                          f"denied.\n"), out.stderr
