"""What the tests of diskmark's destinations write into: a FIFO with a reader in a thread
(as `cat fifo` would be), and a private character device equal to /dev/null, made with
mknod in a temporary directory so that the system's own /dev/null is never at stake."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

NULL = os.makedev(1, 3)  # /dev/null's major and minor


def make_null_node(path: Path) -> Path:
    """A character device at ``path`` that is /dev/null (needs root)."""
    os.mknod(path, stat.S_IFCHR | 0o666, NULL)
    return path


def is_null_node(path: Path) -> bool:
    """Still the character device make_null_node made, not a file put in its place."""
    st = os.lstat(path)
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == NULL


class FifoReader:
    """A reader on a new FIFO at ``path`` in a thread, until its writer closes it."""

    def __init__(self, path: Path):
        os.mkfifo(path)
        self.path, self.data = path, b""
        opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(opened,), daemon=True)
        self.thread.start()
        opened.wait(5)

    def _read(self, opened: threading.Event) -> None:
        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)  # does not wait for a writer
        opened.set()
        os.set_blocking(fd, True)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            chunk = os.read(fd, 65536)
            if chunk:
                self.data += chunk
            elif self.data:
                break  # the writer closed it
            else:
                time.sleep(0.05)  # no writer yet
        os.close(fd)

    def received(self, timeout: float = 60) -> bytes:
        self.thread.join(timeout)
        return self.data

    def text(self) -> str:
        return self.received().decode()
