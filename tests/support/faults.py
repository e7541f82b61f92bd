"""Helpers for the fault-injection tests: diskmark as a real process (CLI, or the app on a
pseudo-terminal), watching which phase it is in from the outside, and taking a picture of a
directory tree to prove nothing outside the target changed."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import psutil
from conftest import fio_processes

FSYNC_NR = {"x86_64": 74, "aarch64": 82}.get(os.uname().machine)


def can_drop_privileges() -> tuple[bool, str]:
    if os.geteuid() != 0:
        return False, "needs root to act as another user"
    if not shutil.which("setpriv"):
        return False, "setpriv (util-linux) not found"
    try:
        import pwd

        pwd.getpwnam("nobody")
    except KeyError:
        return False, "no user 'nobody'"
    return True, ""


def as_nobody(args: list[str]) -> list[str]:
    """A command line that runs ``args`` as the unprivileged user nobody."""
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", *args]


def picture(root: Path, skip: Path | None = None) -> dict[str, tuple]:
    """Every entry under ``root`` (but ``skip``): type, size, mode and a hash of files."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        if skip is not None and Path(dirpath) == skip.parent:
            dirnames[:] = [d for d in dirnames if Path(dirpath, d) != skip]
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            if skip is not None and path == skip:
                continue
            st = path.lstat()
            digest = ""
            if path.is_file() and not path.is_symlink():
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            out[str(path.relative_to(root))] = (st.st_mode, st.st_size, digest)
    return out


def leftovers(directory: Path) -> list[Path]:
    try:
        return sorted(p for p in directory.iterdir() if p.name.startswith(".diskmark-"))
    except FileNotFoundError:
        return []


def diskmark_cli(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "diskmark", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", **kw)


def next_start() -> str:
    """Start diskmark again (a quick command): it removes what a killed run left."""
    out = subprocess.run([sys.executable, "-m", "diskmark", "presets"], capture_output=True,
                         text=True, timeout=60)
    return out.stderr


def wait_for(condition, timeout: float, what: str, step: float = 0.01):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(step)


def in_fsync(pid: int) -> bool:
    """Whether a thread of ``pid`` is inside fsync() now (the flush after a write test)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/syscall") as f:
                if f.read().split(" ", 1)[0] == str(FSYNC_NR):
                    return True
        except OSError:
            pass
    return False


def phase_reached(phase: str, pid: int, target: Path, seen: dict) -> bool:
    """Whether diskmark (``pid``) working in ``target`` is in ``phase`` now, judged from
    outside: which fio runs, whether a thread is in fsync. ``seen`` carries history."""
    procs = fio_processes(target)
    cmd = " ".join(_cmdline(p) for p in procs)
    if procs:
        seen["fio"] = True
    if phase == "preparing":
        return "diskmark-prepare" in cmd
    measuring = bool(cmd) and "diskmark-prepare" not in cmd
    if phase == "measuring":
        if measuring:
            seen.setdefault("measuring_since", time.monotonic())
            return time.monotonic() - seen["measuring_since"] > 0.5
        return False
    if phase == "interval":
        if measuring:
            seen["measured"] = True
        if seen.get("measured") and not procs and leftovers(target):
            seen.setdefault("quiet_since", time.monotonic())
            return time.monotonic() - seen["quiet_since"] > 0.3
        seen.pop("quiet_since", None)
        return False
    if phase == "flush":  # after a write pass (other fsyncs save settings and results)
        if measuring:
            seen["measured"] = True
        return bool(seen.get("measured")) and not procs and in_fsync(pid)
    raise ValueError(phase)


def _cmdline(p: psutil.Process) -> str:
    try:
        return " ".join(p.cmdline())
    except (psutil.Error, OSError):  # it ended meanwhile
        return ""


class Terminal:
    """diskmark's app on a pseudo-terminal of its own, as a user's terminal runs it: the app
    is the session leader, so closing the terminal sends it SIGHUP."""

    def __init__(self, args: list[str], cols: int = 120, rows: int = 40):
        env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows))
        env.pop("NO_COLOR", None)
        pid, fd = pty.fork()
        if pid == 0:  # the child: become the app
            try:
                os.execve(sys.executable, [sys.executable, "-m", "diskmark", *args], env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.output = bytearray()
        self.status: int | None = None
        self._closed = False
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while not self._closed:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.1)
                if ready:
                    chunk = os.read(self.fd, 65536)
                    if not chunk:
                        return
                    self.output += chunk
            except OSError:
                return

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def close(self) -> None:
        """Close the terminal (the window, or the SSH connection, going away)."""
        if not self._closed:
            self._closed = True
            self._reader.join(1)
            try:
                os.close(self.fd)
            except OSError:
                pass

    def wait(self, timeout: float) -> int | None:
        """The app's wait status once it exits, or None if it is still there."""
        if self.status is not None:
            return self.status
        deadline = time.monotonic() + timeout
        while True:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
                return status
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)

    def kill(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.wait(5)
        self.close()


@contextlib.contextmanager
def write_throttle(device_majmin: str, bytes_per_s: int):
    """A block-I/O cgroup whose writes to one device are capped: an fsync issued from it
    takes as long as a slow disk's would (cgroup v1 blkio, or v2 io.max). Yields the
    ``cgroup.procs`` file to put a process in, or raises RuntimeError saying why not."""
    with io_throttle(device_majmin, wbps=bytes_per_s) as procs:
        yield procs


#: io.max's keys and cgroup v1 blkio's file for each.
_V1_LIMITS = {"wbps": "write_bps", "rbps": "read_bps", "wiops": "write_iops",
              "riops": "read_iops"}


@contextlib.contextmanager
def io_throttle(device_majmin: str, **limits: int):
    """A block-I/O cgroup whose I/O to one device is capped by ``limits`` (io.max's keys:
    ``wbps``, ``rbps``, ``wiops``, ``riops``): a slow disk for the processes put in it,
    through cgroup v2's io.max or, where the io controller is v1's, blkio's throttle files.
    Yields the ``cgroup.procs`` file (write a pid into it before the process starts fio:
    fio's threads follow it), or raises RuntimeError saying why it cannot be made."""
    v1 = Path("/sys/fs/cgroup/blkio")
    v2 = Path("/sys/fs/cgroup")
    name = f"diskmark-test-{os.getpid()}-{threading.get_ident() % 10000}"
    if (v1 / "blkio.throttle.write_bps_device").exists():
        group = v1 / name
        group.mkdir()
        for key, value in limits.items():
            (group / f"blkio.throttle.{_V1_LIMITS[key]}_device").write_text(
                f"{device_majmin} {value}\n")
    elif "io" in (v2 / "cgroup.controllers").read_text().split() if (v2 / "cgroup.controllers").exists() else False:
        try:
            (v2 / "cgroup.subtree_control").write_text("+io\n")
        except OSError:
            pass
        group = v2 / name
        group.mkdir()
        (group / "io.max").write_text(
            f"{device_majmin} " + " ".join(f"{k}={v}" for k, v in limits.items()) + "\n")
    else:
        raise RuntimeError("no block-I/O cgroup controller (cgroup v1 blkio or v2 io) here")
    try:
        yield group / "cgroup.procs"
    finally:
        for _ in range(50):
            try:
                group.rmdir()
                break
            except OSError:  # processes still leaving it
                time.sleep(0.1)


def majmin(mountpoint: Path) -> str:
    st = os.stat(mountpoint)
    return f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"


@contextlib.contextmanager
def phase_target(tmp_path: Path, phase: str):
    """(target, cgroup.procs or None): a flush needs a slow disk, which is a loop ext4 whose
    writes are capped for the processes put in that cgroup; other phases use a plain
    directory. Skips, saying why, where that cannot be made."""
    import pytest
    from mounts import can_loop_mount, loop_mount

    if phase != "flush":
        target = tmp_path / "target"
        target.mkdir()
        yield target, None
        return
    if FSYNC_NR is None:
        pytest.skip(f"cannot see fsync from outside on {os.uname().machine}")
    ok, reason = can_loop_mount("ext4")
    if not ok:
        pytest.skip(f"ext4 mounts unavailable: {reason}")
    with loop_mount(tmp_path, "ext4", size_mib=128) as mnt:
        try:
            throttle = write_throttle(majmin(mnt), 8 * 1024 * 1024)
            procs = throttle.__enter__()
        except (RuntimeError, OSError) as e:
            pytest.skip(f"cannot make a slow disk for the flush: {e}")
        try:
            yield mnt, procs
        finally:
            throttle.__exit__(None, None, None)


@contextlib.contextmanager
def writeback_throttle(device_majmin: str, bytes_per_s: int):
    """Every write to one device capped, the kernel's writeback of the page cache included:
    a slow disk under a fast page cache. With cgroup v1 (no cgroup writeback) the flusher
    threads work in the root block-I/O group, so the cap goes there, for this device only;
    with v2 a group of its own gets memory and io, so that the pages its processes dirty
    are written back under its cap. Yields ``(procs, lift)``: the ``cgroup.procs`` file to
    put a process in (None: every process is capped) and a function that lifts the cap (a
    flush afterwards need not wait). Raises RuntimeError saying why it cannot be made."""
    v1 = Path("/sys/fs/cgroup/blkio")
    v2 = Path("/sys/fs/cgroup")
    if (v1 / "blkio.throttle.write_bps_device").exists():
        limit = v1 / "blkio.throttle.write_bps_device"
        limit.write_text(f"{device_majmin} {bytes_per_s}\n")
        try:
            yield None, lambda: limit.write_text(f"{device_majmin} 0\n")
        finally:
            limit.write_text(f"{device_majmin} 0\n")
        return
    if not (v2 / "cgroup.controllers").exists() or not {"io", "memory"} <= set(
            (v2 / "cgroup.controllers").read_text().split()):
        raise RuntimeError("no block-I/O cgroup controller with writeback (v1 blkio, or v2 "
                           "io and memory) here")
    try:
        (v2 / "cgroup.subtree_control").write_text("+io +memory\n")
    except OSError:
        pass
    group = v2 / f"diskmark-test-{os.getpid()}-{threading.get_ident() % 10000}"
    group.mkdir()
    limit = group / "io.max"
    limit.write_text(f"{device_majmin} wbps={bytes_per_s}\n")
    try:
        yield group / "cgroup.procs", lambda: limit.write_text(f"{device_majmin} wbps=max\n")
    finally:
        for _ in range(50):
            try:
                group.rmdir()
                break
            except OSError:  # processes still leaving it
                time.sleep(0.1)


@contextlib.contextmanager
def dirty_limits(dirty_bytes: int, background_bytes: int):
    """The kernel's dirty-page limits (vm.dirty_bytes, vm.dirty_background_bytes) lowered
    for the block, and put back as they were afterwards, whatever happens: a writer through
    the page cache is held back to the disk's speed once this much is dirty."""
    vm = Path("/proc/sys/vm")
    names = ("dirty_bytes", "dirty_ratio", "dirty_background_bytes", "dirty_background_ratio")
    before = {name: (vm / name).read_text().strip() for name in names}
    try:
        (vm / "dirty_bytes").write_text(f"{dirty_bytes}\n")
        (vm / "dirty_background_bytes").write_text(f"{background_bytes}\n")
        yield
    finally:
        # writing one of a pair zeroes the other: write back whichever was in use
        for pair in (("dirty_bytes", "dirty_ratio"),
                     ("dirty_background_bytes", "dirty_background_ratio")):
            name = pair[0] if before[pair[0]] != "0" else pair[1]
            (vm / name).write_text(before[name] + "\n")


def finish_run(proc: subprocess.Popen, timeout: float = 240) -> tuple[int, str, str]:
    """A diskmark run's (status, stdout, stderr); one that outlives ``timeout`` is killed and
    fails the test with what it printed."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"diskmark did not finish: {err}") from None
    return proc.returncode, out, err
