"""One fio process: started without a shell, bound to diskmark's life, read with a watchdog,
and stopped within seconds whatever state it is in.

Facts this rests on (fio 3.33, found by fault injection):

- fio calls ``setsid()`` for every job *process*, so a signal to fio's process group never
  reached the jobs, and a job kept running (and kept the stdout pipe open) after its parent
  died. diskmark runs fio with ``--thread``: every job is a thread of the one process
  started here, so one SIGKILL ends all of it and the pipe closes with it.
- The process is tied to diskmark's life with ``PR_SET_PDEATHSIG``: whatever ends diskmark
  (SIGKILL, a crash, the terminal closing) sends fio SIGKILL too.
- fio prints a status object every second (``--status-interval=1``), also during start
  delays, ramp time and the final fsync. A process that prints no status object for
  :data:`WATCHDOG_S` is stopped (``kill -STOP``, a hung device, a broken binary) and the
  step fails, instead of waiting forever; other bytes are not reports, and a flood of them
  fails the step at once (:class:`~diskmark.engine.parse.JsonStream`'s bounds).
- On SIGINT fio prints one last JSON object and exits; one that ignores SIGINT gets SIGKILL
  after :data:`KILL_GRACE_S`.
"""

from __future__ import annotations

import asyncio
import codecs
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from diskmark.engine import parse
from diskmark.files import program

WATCHDOG_S = 10.0
KILL_GRACE_S = 1.5
REAP_S = 5.0  # after SIGKILL: a process in uninterruptible sleep (a dead device) may never go
STDERR_KEEP = 64 * 1024


@dataclass
class Outcome:
    """How a fio process ended and what it said."""

    returncode: int | None  # None: it did not exit even after SIGKILL
    last: dict[str, Any] | None  # the final JSON object (or the last status one)
    stderr: str
    noise: list[str] = field(default_factory=list)  # non-JSON text on stdout
    hung: bool = False  # the watchdog stopped it
    interrupted: bool = False  # stopped on request


class FioProcess:
    """Start with :meth:`run`; :meth:`interrupt` and :meth:`kill` may be called at any time
    from the same event loop."""

    def __init__(self, args: list[str], cwd_fd: int | None = None, watchdog: float = WATCHDOG_S):
        self.args = args
        self.cwd_fd = cwd_fd
        self.watchdog = watchdog  # fio's client prints nothing until the end: it waits longer
        self.proc: asyncio.subprocess.Process | None = None
        self._interrupted = False
        self._hung = False
        self._escalation: asyncio.TimerHandle | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def _signal(self, sig: int) -> None:
        if not self.alive:
            return
        assert self.proc is not None
        program.signal_group(self.proc.pid, sig)  # fio and a wrapper's children

    def interrupt(self) -> None:
        """SIGINT now (fio ends its jobs and prints its last object), SIGKILL if it is still
        there after the grace period. A second call kills at once."""
        if self._interrupted:
            self.kill()
            return
        self._interrupted = True
        self._signal(signal.SIGINT)
        self._escalation = asyncio.get_running_loop().call_later(KILL_GRACE_S, self.kill)

    def kill(self) -> None:
        self._signal(signal.SIGCONT)  # a stopped process takes SIGKILL too, but be plain
        self._signal(signal.SIGKILL)

    async def run(self, on_object: Callable[[dict[str, Any]], None]) -> Outcome:
        """Run fio to its end, calling ``on_object`` for every status object."""
        self.proc = await program.start(self.args, cwd_fd=self.cwd_fd)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        said = bytearray()  # all of stderr is read, only its end kept
        stderr_task = asyncio.ensure_future(program.keep_tail(self.proc.stderr, said,
                                                              STDERR_KEEP))
        stream = parse.JsonStream()
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        last: dict[str, Any] | None = None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.watchdog  # a status object moves it, bytes do not
        try:
            while True:
                try:
                    chunk = await asyncio.wait_for(self.proc.stdout.read(65536),
                                                   max(0.0, deadline - loop.time()))
                except TimeoutError:
                    self._hung = True
                    self.kill()
                    break
                if not chunk:
                    break
                try:
                    objects = stream.feed(decoder.decode(chunk))
                except parse.FioOutputError:
                    if not self._interrupted:
                        raise
                    self.kill()  # asked to stop, it floods instead: a stop all the same
                    break
                for obj in objects:
                    deadline = loop.time() + self.watchdog
                    last = obj
                    on_object(obj)
            returncode = await self._reap()
        finally:
            if self.alive:  # an exception (or a cancelled task) left it running
                self.kill()
                await self._reap()
            if self._escalation is not None:
                self._escalation.cancel()
        try:
            if returncode is not None:
                await asyncio.wait_for(stderr_task, 1.0)
            stderr = said.decode("utf-8", errors="replace") if stderr_task.done() else ""
        except TimeoutError:
            stderr = ""
        if not stderr_task.done():
            stderr_task.cancel()
        stream.feed(decoder.decode(b"", final=True))
        return Outcome(returncode, last, stderr, stream.noise, self._hung, self._interrupted)

    async def _reap(self) -> int | None:
        """The exit status, once fio is gone. asyncio reports an exit only when the pipes
        have closed too, and a pipe left full (the reading stopped in a flood) never does:
        what is left on stdout is read and dropped meanwhile."""
        assert self.proc is not None and self.proc.stdout is not None
        drain = asyncio.ensure_future(_discard(self.proc.stdout))
        try:  # stdout closed: fio is exiting (or was killed)
            return await asyncio.wait_for(self.proc.wait(), KILL_GRACE_S + REAP_S)
        except TimeoutError:
            self.kill()
            try:
                return await asyncio.wait_for(self.proc.wait(), REAP_S)
            except TimeoutError:
                return None  # stuck in the kernel; nothing more a signal can do
        finally:
            drain.cancel()


async def _discard(reader: asyncio.StreamReader) -> None:
    while await reader.read(65536):
        pass
