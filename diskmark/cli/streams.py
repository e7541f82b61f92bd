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
  flush at exit does not fail again. When stdout refuses what is written for another reason
  (``> /dev/full``: no space left, an I/O error), that is a failure a script must see: one
  line on stderr, "cannot write to standard output: <the system's reason>", and exit status
  1 (:data:`EXIT_STDOUT_FAILED`), never a traceback; what was done is kept (a run is in the
  history before its report is printed).
- Either may be unable to encode a character (``PYTHONIOENCODING=ascii``, a Latin-1
  terminal): what it cannot encode is written as ASCII that reads the same (``x`` for ``×``,
  ``u`` for ``µ``, ``-`` for ``—``) or, for anything else, as a backslash escape
  (``\\u00e9``), so no output ever fails for a character. JSON, which is UTF-8 or ASCII, is
  written with its own escapes (the same JSON) when stdout is not UTF-8; a shared page, which
  says it is UTF-8, is written as UTF-8 bytes whatever stdout's encoding.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from typing import TextIO

from diskmark.locale import _

EXIT_PIPE = 141  # 128 + SIGPIPE
#: stdout could not take what was written (a full disk, an I/O error): a failure, as
#: diskmark's EXIT_FAILED.
EXIT_STDOUT_FAILED = 1


class StdoutFailed(Exception):
    """stdout refused a write for a reason other than its reader gone (that is
    BrokenPipeError); ``main`` ends the command with :func:`stdout_failed`. Not an OSError,
    so that no handler of a file's errors takes it for one."""

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.error = error

#: ASCII that reads as the characters diskmark's own words and charts use: what a stream
#: that cannot encode them shows instead.
STAND_INS = {
    "×": "x", "µ": "u", "\u03bc": "u", "—": "-", "–": "-", "−": "-", "…": "...", "·": "-",
    "▲": "^", "▼": "v", "±": "+/-", "°": "", "→": "->", "←": "<-", "≤": "<=", "≥": ">=",
    "“": '"', "”": '"', "‘": "'", "’": "'", "•": "*", "●": "*", "★": "*", "⚠": "!",
    "▶": ">", "½": "1/2", "─": "-", "━": "=", "┄": "-", "│": "|", "┤": "|", "└": "+",
    "▁": ".", "▂": ".", "▃": ".", "▄": ".", "▅": ":", "▆": ":", "▇": ":", "█": "#",
}
READABLE = "diskmark-readable"  # the error handler of stdout and stderr
JSON = "diskmark-json"  # \u00e9: the same JSON string in ASCII


def _escaped(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _readable(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chars = error.object[error.start:error.end]
    return "".join(STAND_INS[c] if c in STAND_INS else _escaped(c) for c in chars), error.end


def _json_escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a UTF-16 surrogate pair, as JSON writes characters beyond U+FFFF
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _json(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(map(_json_escape, error.object[error.start:error.end])), error.end


codecs.register_error(READABLE, _readable)
codecs.register_error(JSON, _json)


def ensure_std_streams() -> None:
    """Give closed descriptors 0-2 /dev/null and Python a stream for a missing stdout/stderr;
    make both write what they cannot encode as readable ASCII rather than fail."""
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
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=READABLE)


def _text_stream(fd: int) -> io.TextIOWrapper:
    return open(fd, "w", encoding="utf-8", errors=READABLE, buffering=1, closefd=False)


def _utf8(stream: TextIO) -> bool:
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name == "utf-8"
    except LookupError:
        return False


def write_err(text: str) -> bool:
    """Write to stderr; False (and stderr silenced) when it cannot be written any more."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
        return True
    except (OSError, ValueError):  # a broken pipe, a full disk, a closed stream
        _to_devnull(sys.stderr)
        return False


def write_out(text: str, json: bool = False) -> None:
    """Write to stdout and flush; a reader that has gone raises BrokenPipeError, which the
    caller ends with :func:`stdout_gone`. ``json``: ``text`` is JSON, written as ASCII
    (``\\u00e9``, the same JSON) unless stdout is UTF-8, as JSON must be one or the other."""
    if json and not _utf8(sys.stdout):
        text = text.encode("ascii", JSON).decode("ascii")
    try:
        if text:  # "" would write zero bytes, which /dev/full refuses
            sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise StdoutFailed(e) from None


def write_binary(data: bytes) -> None:
    """Write bytes (a PNG, a UTF-8 page) to stdout after the text before them; as
    :func:`write_out`."""
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise StdoutFailed(e) from None


def flush_out() -> None:
    """Flush stdout at the end of a command; raises as :func:`write_out`."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise StdoutFailed(e) from None


def stdout_gone() -> int:
    """After a BrokenPipeError on stdout: discard what is still buffered; returns EXIT_PIPE."""
    _to_devnull(sys.stdout)
    return EXIT_PIPE


def stdout_failed(failure: StdoutFailed) -> int:
    """After :class:`StdoutFailed`: discard what is still buffered, say so in one line on
    stderr, and return EXIT_STDOUT_FAILED."""
    _to_devnull(sys.stdout)
    # TRANSLATORS: {error} is the system's reason (No space left on device)
    write_err("diskmark: " + _("cannot write to standard output: {error}").format(
        error=failure) + "\n")
    return EXIT_STDOUT_FAILED


def _to_devnull(stream: TextIO) -> None:
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
