"""Real fio servers on loopback ports that behave as separate hosts: each runs in a mount
namespace of its own (``unshare -m``) with a fresh tmpfs mounted at the same path, so a file
one "host" writes there is invisible to the others and to this machine. Needs root; the
fixture skips with the reason elsewhere. Whatever happens, every server and its job
processes are killed; the tmpfs goes with the last process of its namespace."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

#: One path per test process: removing a mount point removes the mounts on it in every
#: namespace, so test runs sharing a path (other worktrees at once) would unmount each other's.
TARGET = Path(f"/mnt/diskmark-fleet-target-{os.getpid()}")


@dataclass
class Server:
    port: int
    proc: subprocess.Popen

    @property
    def host(self) -> str:
        """How diskmark names this host (its label)."""
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """How a user gives it: a raw fio server, not a host reached over SSH."""
        return f"fio://127.0.0.1:{self.port}"

    def files(self) -> list[str]:
        """What lies in the target inside this server's namespace."""
        out = subprocess.run(["nsenter", f"--mount=/proc/{self.proc.pid}/ns/mnt", "ls", "-A",
                              str(TARGET)], capture_output=True, text=True, timeout=10)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    def sizes(self) -> dict[str, int]:
        """The files in the target inside this server's namespace, with their sizes."""
        out = subprocess.run(["nsenter", f"--mount=/proc/{self.proc.pid}/ns/mnt", "find",
                              str(TARGET), "-maxdepth", "1", "-type", "f", "-printf", "%s %f\\n"],
                             capture_output=True, text=True, timeout=10)
        assert out.returncode == 0, out.stderr
        return {name: int(size) for size, name in
                (line.split(" ", 1) for line in out.stdout.splitlines() if " " in line)}

    def kill(self) -> None:
        """The server and the processes it forked for its jobs (one process group)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def why_not() -> str | None:
    if os.geteuid() != 0:
        return "fio servers in mount namespaces of their own need root (unshare -m, mount)"
    missing = [tool for tool in ("unshare", "nsenter", "setpriv") if shutil.which(tool) is None]
    return f"{', '.join(missing)} not installed (util-linux)" if missing else None


def start(n: int, servers: list[Server], fstype: str = "tmpfs", mode: str = "0755",
          uid: int | None = None) -> None:
    """``n`` more servers; on ``ramfs`` (which refuses O_DIRECT) when asked. The target has
    ``mode`` (a fresh tmpfs would be 1777, which diskmark refuses); with ``uid`` the server
    runs as that user (no groups), who owns the target."""
    TARGET.mkdir(exist_ok=True)
    options = f"mode={mode}" + (",size=256m" if fstype == "tmpfs" else "")
    fio = "fio"
    if uid is not None:
        options += f",uid={uid},gid={uid}"
        fio = f"setpriv --reuid={uid} --regid={uid} --clear-groups fio"
    for _ in range(n):
        port = free_port()
        script = (f"mount -t {fstype} -o {options} diskmark-fleet {TARGET} && "
                  f"exec {fio} --server=ip:127.0.0.1,{port}")
        proc = subprocess.Popen(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        servers.append(Server(port, proc))
        deadline = time.monotonic() + 10
        while not _listening(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"fio --server on port {port} did not start")
            time.sleep(0.05)


def stop(servers: list[Server]) -> None:
    for s in servers:
        s.kill()
    try:
        TARGET.rmdir()  # only ever a mount point inside the servers' namespaces
    except OSError:
        pass


@pytest.fixture
def fio_servers():
    reason = why_not()
    if reason:
        pytest.skip(reason)
    servers: list[Server] = []
    try:
        start(2, servers)
        yield servers
    finally:
        stop(servers)


@pytest.fixture
def servers():
    """No server yet: each test starts the ones it needs, stopped whatever happens."""
    reason = why_not()
    if reason:
        pytest.skip(reason)
    started: list[Server] = []
    try:
        yield started
    finally:
        stop(started)


def _crc16(data: bytes) -> int:
    """fio's crc16 (CRC-16/ARC), which guards every command header of its protocol."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


@contextmanager
def other_fio_version():
    """A server speaking fio's protocol in another version: every connection gets one
    command header whose version is not this fio's (what a server of another fio release
    sends). Yields its port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.settimeout(0.2)
    done = threading.Event()

    def serve() -> None:
        head = struct.pack("<HHIQI", 999, 1, 0, 0, 0)  # version, opcode, flags, tag, pdu_len
        while not done.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(head + struct.pack("<HH", _crc16(head), 0))
                conn.settimeout(2)
                try:
                    conn.recv(65536)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield sock.getsockname()[1]
    finally:
        done.set()
        thread.join(5)
        sock.close()
