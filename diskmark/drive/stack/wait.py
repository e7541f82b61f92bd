"""Asking the kernel about a path without hanging: a stat or statfs on a dead NFS server or
a FUSE program that never answers (stopped, deadlocked) blocks its caller until the server
comes back, which may be never. So every such question is asked in a thread of its own,
named after what it waits for (``ps -L`` and a debugger show it), and given up on after a
bounded wait; the thread is a daemon, left to end when the answer comes or the process does.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

#: How long one question may take: a local file system answers in microseconds, a live
#: network one in milliseconds; a quarter of a second keeps `diskmark why` within a second
#: even when one layer does not answer.
WAIT_S = 0.25


@dataclass(frozen=True)
class Answer(Generic[T]):
    """What a bounded question returned: ``value`` when it answered (None when it raised
    OSError: ``error``), or ``answered`` False when the wait ran out."""

    answered: bool
    value: T | None = None
    error: OSError | None = None


def ask(name: str, question: Callable[[], T], wait: float = WAIT_S) -> Answer[T]:
    """``question()`` in a daemon thread named ``name``, waited for ``wait`` seconds."""
    box: list[Answer[T]] = []

    def run() -> None:
        try:
            box.append(Answer(True, question()))
        except OSError as e:
            box.append(Answer(True, None, e))

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    thread.join(wait)
    return box[0] if box else Answer(False)


def stat(path: str, wait: float = WAIT_S) -> Answer[os.stat_result]:
    return ask(f"stat {path}", lambda: os.stat(path), wait)


def statvfs(path: str, wait: float = WAIT_S) -> Answer[os.statvfs_result]:
    return ask(f"statfs {path}", lambda: os.statvfs(path), wait)
