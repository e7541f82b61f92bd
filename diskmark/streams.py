"""stdout and stderr as a command-line tool must treat them: possibly closed from the start
(``2>&-``), possibly a pipe whose reader has gone (``| head -1``).

- A closed descriptor 0, 1 or 2 is opened on /dev/null first thing, so the next file diskmark
  opens cannot become "stderr" and receive messages, and Python has a stream to write to.
- stderr carries progress and notes only: when it breaks, it is quietly sent to /dev/null and
  the benchmark goes on, so the report and the history are never lost for it.
- stdout carries what the user asked for: when its reader is gone, the command stops writing
  and exits with :data:`EXIT_PIPE` (141, what a shell reports for a process killed by
  SIGPIPE, as ``cat`` or ``yes`` would be), following the Python documentation's recipe
  ("Note on SIGPIPE" in the signal module): /dev/null goes over stdout so that Python's own
  flush at exit does not fail again.
"""

from __future__ import annotations

import io
import os
import sys

EXIT_PIPE = 141  # 128 + SIGPIPE


def ensure_std_streams() -> None:
    """Give closed descriptors 0-2 /dev/null and Python a stream for a missing stdout/stderr."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            devnull = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if devnull != fd:
                os.dup2(devnull, fd)
                os.close(devnull)
    if sys.stdout is None:
        sys.stdout = _text_stream(1)
    if sys.stderr is None:
        sys.stderr = _text_stream(2)


def _text_stream(fd: int) -> io.TextIOWrapper:
    return open(fd, "w", encoding="utf-8", errors="backslashreplace", buffering=1,
                closefd=False)


def write_err(text: str) -> bool:
    """Write to stderr; False (and stderr silenced) when it cannot be written any more."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
        return True
    except (OSError, ValueError):  # a broken pipe, a full disk, a closed stream
        _to_devnull(sys.stderr)
        return False


def write_out(text: str) -> None:
    """Write to stdout and flush; a reader that has gone raises BrokenPipeError, which the
    caller ends with :func:`stdout_gone`."""
    sys.stdout.write(text)
    sys.stdout.flush()


def stdout_gone() -> int:
    """After a BrokenPipeError on stdout: discard what is still buffered; returns EXIT_PIPE."""
    _to_devnull(sys.stdout)
    return EXIT_PIPE


def _to_devnull(stream) -> None:
    """Point ``stream``'s descriptor at /dev/null, so that anything still buffered (and
    Python's flush at exit) goes nowhere instead of failing again."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)
