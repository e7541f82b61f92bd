"""What the command line prints and the status it exits with: the report in the format
asked for, progress and notes on stderr, and what an error or a regression means to a
script (the exceptions say what happened; this module says which exit code that is)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from diskmark.cli.streams import (
    StdoutFailed,
    stdout_failed,
    stdout_gone,
    write_binary,
    write_err,
    write_out,
)
from diskmark.locale import _
from diskmark.locale.text_safety import json_utf8, shown
from diskmark.model.units import Unit
from diskmark.report.formatting import op_word

if TYPE_CHECKING:
    from diskmark.files.destination import Destination
    from diskmark.model.events import Event
    from diskmark.model.results import SessionResult, TestResult
    from diskmark.report.compare import Comparison

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_REGRESSION, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: A run that finished, its report printed, but not kept in the history (it could not be written).
EXIT_NOT_KEPT = 4


def exit_code_for(error: Exception) -> int:
    """What a failure means to a script: EXIT_USAGE when nothing was started or changed (an
    unusable target, fio missing, a bad baseline name or file), EXIT_FAILED when the work
    failed part-way (fio, reading or writing a file)."""
    from diskmark.engine.errors import NotStarted
    from diskmark.store.errors import StoreError, StoreIOError

    if isinstance(error, NotStarted):
        return EXIT_USAGE
    if isinstance(error, StoreError) and not isinstance(error, StoreIOError):
        return EXIT_USAGE
    return EXIT_FAILED


def out(text: str) -> None:
    """Write what the user asked for to stdout, with the control characters and undecodable
    bytes of names, notes, paths and device strings shown escaped (see diskmark.locale.text_safety).
    Raises BrokenPipeError when the reader has gone; ``main`` ends the command then."""
    write_out(shown(text))


def out_json(text: str) -> None:
    """Write JSON to stdout, valid whatever stdout's encoding: a stdout that is not UTF-8
    gets ``\\u00e9`` escapes, the same strings to any JSON reader."""
    write_out(json_utf8(text), json=True)


def out_html(text: str) -> None:
    """Write a shared page to stdout as the UTF-8 its ``<meta charset>`` says it is."""
    write_binary(text.encode("utf-8", "backslashreplace"))


def say(line: str) -> None:
    """One message line on stderr, escaped as ``out`` does; a broken stderr is ignored."""
    write_err(shown(line) + "\n")


def error(message: str) -> None:
    """What went wrong, after diskmark's name, on stderr."""
    say(f"diskmark: {message}")


def notice(message: str) -> None:
    """What diskmark did (saved, deleted, written), after its name, on stderr."""
    say(f"diskmark: {message}")


def gate(comparison: Comparison, pct: float, against: str, quiet: bool = False,
         where: str = "diskmark: ") -> int:
    """The regression gate's verdict said (a pass only unless ``quiet``), as an exit code:
    EXIT_REGRESSION, EXIT_USAGE when nothing could be compared, else EXIT_OK. ``where``
    starts each line ("diskmark: db3: " for a host)."""
    from diskmark.report.compare import gate as judge

    verdict, lines = judge(comparison, pct, against)
    if verdict != "pass" or not quiet:
        say("\n".join(f"{where}{line}" for line in lines))
    if verdict == "pass":
        return EXIT_OK
    return EXIT_REGRESSION if verdict == "fail" else EXIT_USAGE


def refuse_destination(problem: Exception, exists: bool | None = None) -> None:
    """Why a file was not written, in the words of diskmark.files.destination, the same for
    every command; for a file that exists (``exists``, or a DestinationExists), how to
    replace it."""
    from diskmark.files.destination import DestinationExists

    if exists or (exists is None and isinstance(problem, DestinationExists)):
        error(_("{problem}; add --replace to replace it.").format(problem=problem))
    else:
        error(str(problem))


def deliver(text: str, destination: Destination | None, quiet: bool, as_json: bool = False) -> int:
    """Write the report to --output or stdout. EXIT_FAILED (after printing it to stdout,
    so it is not lost) when --output cannot be written, and (after saying so) when stdout
    cannot; EXIT_PIPE when stdout's reader has gone. Neither ends anything else: the run
    is kept all the same."""
    from diskmark.files.destination import DestinationError

    if destination is None:
        try:
            (out_json if as_json else out)(text)
        except BrokenPipeError:
            return stdout_gone()
        except StdoutFailed as e:
            return stdout_failed(e)
        return EXIT_OK
    try:
        destination.write(text)
    except DestinationError as e:
        # TRANSLATORS: {problem} says why a file was not written; the report follows
        error(_("{problem}. The report:").format(problem=e))
        out(text)
        return EXIT_FAILED
    if not quiet:
        notice(_("report written to {path}").format(path=destination.path))
    return EXIT_OK


def render(session: SessionResult, fmt: str, unit: Unit, comparison: Comparison | None = None,
           history_id: str | None = None) -> str:
    """The report as it is printed or written to --output: text, CSV and Markdown show
    control characters and undecodable bytes escaped; JSON escapes them its own way, and
    names the run's id in the history (``history_id``) when it was kept there."""
    text = _render(session, fmt, unit, comparison, history_id)
    return text if fmt == "json" else shown(text)


def _render(session: SessionResult, fmt: str, unit: Unit, comparison: Comparison | None = None,
            history_id: str | None = None) -> str:
    from diskmark.report import text as report

    if fmt == "json":
        extra: dict[str, Any] = {"comparison": comparison.to_dict()} if comparison is not None else {}
        if history_id is not None:
            extra["history_id"] = history_id
        return report.json_report(session, extra=extra)
    if fmt == "csv":
        return report.csv_report(session)
    if fmt == "markdown":
        text = report.markdown_report(session)
        if comparison is not None:
            from diskmark.report.compare import comparison_markdown

            text += "\n" + comparison_markdown(comparison)
        return text
    from diskmark.report.cdm_report import text_report

    text = ""
    if fmt == "grid":
        text = report.grid_report(session, unit) + "\n"
        if session.settings.sweep:
            text += report.curve_report(session, unit) + "\n"
    text += text_report(session)
    if comparison is not None:
        from diskmark.report.compare import comparison_text

        text += "\n" + comparison_text(comparison)
    return text


#: Notices shown even with --quiet: a file left on disk or a failure must never go unsaid.
LOUD_SEVERITIES = ("warning", "error")


class ProgressLine:
    """Progress on stderr: one live line on a terminal, a line per finished test otherwise.
    With ``enabled`` False (--quiet) only warnings and errors are printed."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self._width = 0

    def on_event(self, event: Event) -> None:
        from diskmark.model.events import Progress, TestFinished
        from diskmark.report.text import describe_progress

        if self.noticed(event) or not self.enabled:
            return
        if isinstance(event, Progress) and self.tty:
            self.live(describe_progress(event))
        elif isinstance(event, TestFinished):
            self.finished(event.result)

    def noticed(self, event: Event, where: str = "") -> bool:
        """Say a notice (a warning or an error even with --quiet), after ``where`` (one of
        several targets) when given; True if ``event`` was one."""
        from diskmark.model.events import Notice

        if not isinstance(event, Notice):
            return False
        if self.enabled or event.severity in LOUD_SEVERITIES:
            self.clear()
            text = f"{shown(where, one_line=True)}: {event.text}" if where else event.text
            notice(_("note: {text}").format(text=text))
        return True

    def live(self, text: str) -> None:
        """Replace the live line with ``text``, cut to the terminal's width in cells (a
        Japanese or Chinese character takes two)."""
        from diskmark.report.cells import char_cells

        line, used, room = "", 0, _columns() - 1
        for ch in shown(text, one_line=True):
            size = char_cells(ch)
            if used + size > room:
                break
            line, used = line + ch, used + size
        if write_err("\r" + line + " " * max(0, self._width - used)):
            self._width = used

    def finished(self, r: TestResult, prefix: str = "") -> None:
        """A finished test's line: best MB/s, IOPS and the lowest latency."""
        from diskmark.model.settings import Op
        from diskmark.report.cells import text_cells
        from diskmark.report.formatting import format_figure

        self.clear()
        op = op_word(r.op)  # padded as wide as the widest, in cells: "read " in English
        op += " " * (max(5, *(text_cells(op_word(o)) for o in Op)) - text_cells(op))
        say(f"{prefix}{r.label:14} {op} {format_figure(r.best_mb_s, Unit.MB_S):>10} MB/s "
            f"{format_figure(r.best_iops, Unit.IOPS):>11} IOPS "
            f"{format_figure(r.best_lat_us, Unit.US):>10} {Unit.US.label}")

    def clear(self) -> None:
        if self.enabled and self.tty and self._width:
            write_err("\r" + " " * self._width + "\r")
            self._width = 0



def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except OSError:
        return 80
