"""The one way diskmark starts a program: fio and its probes, smartctl, ssh, the clipboard's
programs. Nothing else in diskmark starts one (a test reads every module to keep it so).

Fault injection found what a program can do to the one that started it: a fio that answered
``--version`` with an endless line was read whole until its 10 s timeout (``subprocess.run``
keeps every byte: 2.5 GB); a hung ``xsel`` was killed on its timeout, but the child it had
started lived on (only the direct child is killed); a wrapper script's children kept its
pipe open after it was gone. So every program here:

- gets an argument list, never a shell;
- leads a process group of its own (a new session), and the whole group is ended, every
  helper and wrapper's child with it: by SIGKILL, before the leader is reaped, so that the
  group's number cannot have been given to another process by then;
- has its output bounded: at most ``limit`` bytes of its standard output and error together
  are kept, and a program that says more is stopped ("too long");
- has a time limit, and may be stopped on request (a run being stopped).

:func:`run` runs a program to its end and returns what it said (a probe, a query, a copy);
:func:`run_async` does the same for the event loop. fio's runs and ssh's tunnels talk with
their program while it lives: :func:`start` starts them the same way and ties them to
diskmark's life; they read with :func:`keep_tail` and :func:`read_lines`, which bound what
they keep, and end it with :func:`signal_group`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import enum
import os
import selectors
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

#: What a program may say, standard output and error together, unless told otherwise: far
#: beyond any answer diskmark asks for (fio's list of engines is 1 KiB).
LIMIT = 1024 * 1024
#: How often a wait looks whether it is asked to stop (or, where the kernel cannot tell it
#: when the program exits, whether it has).
POLL_S = 0.05
#: How long a program killed is waited for: one in uninterruptible sleep (a dead device)
#: may never go, and is left to the kernel.
REAP_S = 5.0
_CHUNK = 65536
_PR_SET_PDEATHSIG = 1

try:
    _libc: ctypes.CDLL | None = ctypes.CDLL(None, use_errno=True)
except OSError:  # pragma: no cover - every Linux libc has prctl
    _libc = None


class Ending(enum.Enum):
    """How a program's run ended."""

    EXITED = "exited"  # by itself
    TIMEOUT = "timeout"  # it was stopped when its time was up
    TOO_LONG = "too long"  # it was stopped when it had said more than its limit
    STOPPED = "stopped"  # it was stopped on request


@dataclass(frozen=True)
class Finished:
    """What a program said (at most its limit) and how its run ended. ``returncode`` is
    None when it had to be stopped and did not go even then."""

    ending: Ending
    returncode: int | None
    stdout: bytes = b""
    stderr: bytes = b""

    @property
    def succeeded(self) -> bool:
        return self.ending is Ending.EXITED and self.returncode == 0


def signal_group(pid: int, sig: int = signal.SIGKILL) -> None:
    """Signal the process group ``pid`` leads (the program and whatever it started), or the
    program alone when the group cannot be signalled; nothing when it is gone."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def run(argv: Sequence[str], *, timeout: float, limit: int = LIMIT, stdin: bytes | None = None,
        stdout: bool = True, stderr: bool = True, env: Mapping[str, str] | None = None,
        stop: threading.Event | None = None, leave_behind: bool = False) -> Finished:
    """Run a program to its end: what it said on ``stdout`` and ``stderr`` (each read when
    True, else sent to /dev/null), at most ``limit`` bytes of both; ``stdin`` is given as its
    input. It is stopped, with its whole group, when ``timeout`` seconds have passed, when it
    says more than ``limit``, or when ``stop`` is set. Once it has exited, what is already in
    its pipes is read and no more: a program that leaves a helper behind holding them (a
    clipboard program serving the selection) is not waited for. Its group is then ended,
    unless ``leave_behind``: what it started to outlive it (that helper) stays.

    Raises OSError when the program cannot be started."""
    with _input(stdin) as given:
        proc = subprocess.Popen(
            list(argv), stdin=given, stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
            stderr=subprocess.PIPE if stderr else subprocess.DEVNULL,
            env=dict(env) if env is not None else None, start_new_session=True, close_fds=True)
    ending, said = Ending.STOPPED, {"out": bytearray(), "err": bytearray()}
    try:
        ending = _follow(proc, timeout, limit, stop, said)
    finally:  # an exception too (KeyboardInterrupt) ends it: never a group left running
        if ending is not Ending.EXITED or not leave_behind:
            signal_group(proc.pid)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        try:
            returncode: int | None = proc.wait(REAP_S)
        except subprocess.TimeoutExpired:
            returncode = None
    return Finished(ending, returncode, bytes(said["out"]), bytes(said["err"]))


async def run_async(argv: Sequence[str], *, timeout: float, limit: int = LIMIT,
                    stdin: bytes | None = None, stdout: bool = True, stderr: bool = True,
                    env: Mapping[str, str] | None = None) -> Finished:
    """:func:`run` off the event loop; the program is stopped when the task is cancelled."""
    stop = threading.Event()
    try:
        return await asyncio.to_thread(run, argv, timeout=timeout, limit=limit, stdin=stdin,
                                       stdout=stdout, stderr=stderr, env=env, stop=stop)
    finally:
        stop.set()


@contextlib.contextmanager
def _input(data: bytes | None) -> Iterator[int]:
    """A descriptor the program reads ``data`` from, to its end: a file in memory, so that no
    pipe has to be fed while it runs (nor left blocking when it reads nothing)."""
    if data is None:
        yield subprocess.DEVNULL
        return
    try:
        fd = os.memfd_create("diskmark-input", os.MFD_CLOEXEC)
    except OSError:  # a sandbox that forbids it: an unnamed file in the temporary directory
        with tempfile.TemporaryFile() as spare:
            fd = os.dup(spare.fileno())
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.lseek(fd, 0, os.SEEK_SET)
        yield fd
    finally:
        os.close(fd)


def _exit_watch(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` exits, without reaping it (a pidfd,
    Linux 5.3); None where the kernel has none."""
    try:
        return os.pidfd_open(pid)
    except (OSError, AttributeError):
        return None


def _has_exited(pid: int) -> bool:
    """Whether ``pid`` has exited, leaving it to be reaped (its group's number stays its)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _follow(proc: subprocess.Popen[bytes], timeout: float, limit: int,
            stop: threading.Event | None, said: dict[str, bytearray]) -> Ending:
    """Read the program's pipes into ``said`` until it exits (and what it left in them is
    read), or its time is up, or it says too much, or ``stop`` is set."""
    deadline = time.monotonic() + timeout
    size = 0
    exit_fd = _exit_watch(proc.pid)
    exited = False
    with selectors.DefaultSelector() as sel:
        for name, pipe in (("out", proc.stdout), ("err", proc.stderr)):
            if pipe is not None:
                sel.register(pipe.fileno(), selectors.EVENT_READ, name)
        if exit_fd is not None:
            sel.register(exit_fd, selectors.EVENT_READ, "exit")
        try:
            while True:
                if stop is not None and stop.is_set():
                    return Ending.STOPPED
                left = deadline - time.monotonic()
                if left <= 0:
                    return Ending.TIMEOUT
                if exited:
                    wait = 0.0  # what is in the pipes already, no more
                elif exit_fd is None or stop is not None:
                    wait = min(left, POLL_S)
                else:
                    wait = left
                read = False
                for key, _events in sel.select(wait):
                    if key.data == "exit":
                        exited = True
                        sel.unregister(key.fd)
                        continue
                    chunk = os.read(key.fd, _CHUNK)
                    if not chunk:
                        sel.unregister(key.fd)
                        continue
                    read = True
                    size += len(chunk)
                    said[key.data] += chunk[:max(0, len(chunk) - (size - limit))]
                    if size > limit:
                        return Ending.TOO_LONG
                if exit_fd is None and not exited:
                    exited = _has_exited(proc.pid)
                elif exited and not read:
                    return Ending.EXITED
        finally:
            if exit_fd is not None:
                os.close(exit_fd)


def _child_setup(parent: int, cwd_fd: int | None) -> Callable[[], None]:
    """Runs in the child between fork and exec: die with the parent, work in the
    session's private directory (reached by descriptor, never by path)."""

    def setup() -> None:
        if _libc is not None:
            _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)
        if cwd_fd is not None:
            os.fchdir(cwd_fd)

    return setup


async def start(argv: Sequence[str], *, stdin: bool = False, cwd_fd: int | None = None,
                ) -> asyncio.subprocess.Process:
    """Start a program that diskmark talks with while it runs (fio, ssh): its standard output
    and error are pipes for the caller to read (with :func:`keep_tail` and
    :func:`read_lines`), its standard input one too when ``stdin`` (else /dev/null). It
    leads a process group of its own, for :func:`signal_group`, dies with diskmark
    (PR_SET_PDEATHSIG), and works in ``cwd_fd`` when given.

    Raises OSError when the program cannot be started."""
    fds = (cwd_fd,) if cwd_fd is not None else ()
    return await asyncio.create_subprocess_exec(
        *argv, stdin=asyncio.subprocess.PIPE if stdin else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True,
        pass_fds=fds, preexec_fn=_child_setup(os.getpid(), cwd_fd))


async def keep_tail(reader: asyncio.StreamReader, kept: bytearray, keep: int) -> None:
    """Read a stream to its end, keeping its last ``keep`` bytes in ``kept`` as they come:
    a program that floods it cannot fill the memory, and its last words are what explain
    its end."""
    while chunk := await reader.read(_CHUNK):
        kept += chunk
        del kept[:-keep]


async def read_lines(reader: asyncio.StreamReader, line_max: int = 4096) -> AsyncIterator[bytes]:
    """A stream's lines (without their line break) to its end, each cut to ``line_max``
    bytes: a line without end is read, but not kept (``StreamReader.readline`` raises on
    one longer than its buffer)."""
    line = bytearray()
    while chunk := await reader.read(_CHUNK):
        *whole, rest = chunk.split(b"\n")
        for part in whole:
            yield bytes((line + part)[:line_max])
            line.clear()
        if len(line) < line_max:
            line += rest[:line_max - len(line)]
    if line:
        yield bytes(line)
