"""A session's answer to Stop, shared by a local run, a sustained write and a fleet.

A stop must end whatever the session is doing within two seconds: a rest between tests, a
wait for the kernel's writeback, a fio process (SIGINT first, which lets fio print its last
figures; SIGKILL on a second request). One :class:`RunControl` per session holds the
request, the event every wait sleeps on and the fio processes running, so each part asks
it the same way instead of keeping a flag of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from diskmark.engine.process import FioProcess


class Stopped(Exception):
    """The user asked to stop; not an error."""


class RunControl:
    """Whether a stop was asked, and what it ends at once."""

    def __init__(self) -> None:
        self.stopping = False
        #: set by :meth:`stop`: every wait of the session (a rest, a drive's answer) ends
        self.wake = asyncio.Event()
        self._procs: set[FioProcess] = set()

    def stop(self) -> None:
        """Ask the session to stop: every fio process gets SIGINT, or SIGKILL when this is
        the second request; every wait ends. Call it on the session's event loop."""
        again, self.stopping = self.stopping, True
        self.wake.set()
        for proc in list(self._procs):
            if again:
                proc.kill()
            else:
                proc.interrupt()

    def check(self) -> None:
        """Raise :class:`Stopped` once a stop was asked: between steps."""
        if self.stopping:
            raise Stopped

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or less when a stop comes; then raise :class:`Stopped` if one did."""
        try:
            await asyncio.wait_for(self.wake.wait(), seconds)
        except TimeoutError:
            pass
        self.check()

    @contextmanager
    def running(self, proc: FioProcess) -> Iterator[FioProcess]:
        """``proc`` is one a stop must reach while the block runs."""
        self.add(proc)
        try:
            yield proc
        finally:
            self.discard(proc)

    def add(self, proc: FioProcess) -> None:
        """A stop must reach ``proc`` from now on."""
        self._procs.add(proc)

    def discard(self, proc: FioProcess) -> None:
        self._procs.discard(proc)

    def kill_all(self) -> None:
        """End every fio process at once (a session torn down by an error)."""
        for proc in list(self._procs):
            proc.kill()
