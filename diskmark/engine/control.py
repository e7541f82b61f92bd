"""A session's answer to Stop, shared by a local run, a sustained write and a fleet.

A stop must end whatever the session is doing within two seconds: a rest between tests, a
wait for the kernel's writeback, a fio process (SIGINT first, which lets fio print its last
figures; SIGKILL on a second request). One :class:`RunControl` per session holds the
request, the event every wait sleeps on and the fio processes running, so each part asks
it the same way instead of keeping a flag of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager, suppress
from typing import TypeVar

from diskmark.engine.process import FioProcess

T = TypeVar("T")


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

    async def until_stopped(self, work: Awaitable[T]) -> T:
        """``work``'s result, or :class:`Stopped` as soon as a stop comes: ``work`` is then
        cancelled and awaited, so that it ends what it started as a cancelled task does (an
        SSH login that hangs, a host that does not answer)."""
        if self.stopping:
            if asyncio.iscoroutine(work):
                work.close()  # never started: nothing to end
            raise Stopped
        task = asyncio.ensure_future(work)
        woken = asyncio.ensure_future(self.wake.wait())
        try:
            await asyncio.wait((task, woken), return_when=asyncio.FIRST_COMPLETED)
        finally:
            woken.cancel()
            if not task.done():  # stopped, or this task itself cancelled
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
        if task.cancelled():
            raise Stopped
        return task.result()

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
