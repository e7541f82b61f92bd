"""Errors the engine reports. Each carries a message a user can act on, and says by its
class what happened: :class:`NotStarted` (nothing ran: an unusable target, fio missing) or a
failure part-way (:class:`FioFailed`). What that means for a script's exit status is the
CLI's to say.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from diskmark.locale import N_, _
from diskmark.model.settings import Op

#: What fio was doing while measuring a test, put into the sentences of a failure after "while".
DOING = {
    # TRANSLATORS: what fio was doing when it failed, put where {what} stands in "fio failed
    # while {what} (exit status 1)."; {test} is a test's name such as SEQ1M Q8T1
    Op.READ: N_("{test} read"),
    # TRANSLATORS: see "{test} read"
    Op.WRITE: N_("{test} write"),
    # TRANSLATORS: see "{test} read"
    Op.MIX: N_("{test} mix"),
}

#: What fio does while it lays out the test file, as a failure says it.
# TRANSLATORS: what fio was doing, put where {what} stands in "fio failed while {what} …"
PREPARING = N_("preparing the test file")


def doing(test: str, op: Op) -> str:
    """What fio was doing while measuring ``test`` (``op``), as a failure says it."""
    return _(DOING[op]).format(test=test)


class DiskmarkError(Exception):
    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n{self.hint}" if self.hint else self.message


class NotStarted(DiskmarkError):
    """Nothing was started: the session could not begin as asked."""


class TargetError(NotStarted):
    """The target cannot be used; nothing was started."""


class DirectIOUnsupported(TargetError):
    """The filesystem refuses O_DIRECT (ramfs, old tmpfs, some FUSE/network filesystems)."""


class FioMissing(NotStarted):
    """No usable fio: not installed, too old, or it does not answer."""


class FioFailed(DiskmarkError):
    """fio exited with an error, or was killed, in the middle of a run; ``no_space`` when
    the target ran out of space (whatever language the message is in)."""

    def __init__(self, message: str, hint: str = "", no_space: bool = False):
        super().__init__(message, hint)
        self.no_space = no_space


def no_space(stderr: str, noise: list[str], last: dict[str, Any] | None) -> bool:
    """Whether fio failed because the target ran out of space (ENOSPC)."""
    from diskmark.engine.parse import job_error  # fio's JSON reader: not at the app's start

    return ((job_error(last) if last else 0) == 28
            or any("No space left" in line for line in stderr.splitlines() + noise))


def fio_failure(what: str, rc: int, stderr: str, noise: list[str], last: dict[str, Any] | None) -> str:
    """What a user reads when fio failed while doing ``what``: the cause when it is known
    (out of space, a signal), then the last lines fio printed."""
    lines = [ln.strip() for ln in stderr.splitlines() + noise if ln.strip()]
    text = "\n".join(lines[-6:])
    from diskmark.engine.parse import job_error  # fio's JSON reader: not at the app's start

    errno_ = job_error(last) if last else 0
    if errno_ == 28 or "No space left" in text:
        # TRANSLATORS: {what} is what fio was doing ("preparing the test file", "SEQ1M Q8T1 read")
        head = _("The target ran out of space while {what}.").format(what=what)
    elif rc < 0:
        head = _("fio was killed by signal {signal} while {what}.").format(signal=-rc, what=what)
    elif errno_:
        head = _("fio failed while {what} (exit status {status}, error {errno}).").format(
            what=what, status=rc, errno=errno_)
    else:
        head = _("fio failed while {what} (exit status {status}).").format(what=what, status=rc)
    return f"{head}\n{text}" if text else head


@contextmanager
def reading_output(what: str) -> Iterator[None]:
    """Read what fio said while doing ``what`` (a status object as it comes, or the last
    one once fio has ended): output that is not fio's ends the session with one sentence,
    wherever it was found."""
    from diskmark.engine.parse import FioOutputError  # fio's JSON reader: not at the app's start

    try:
        yield
    except FioOutputError as e:
        raise FioFailed(unreadable_output(what, e)) from None


def unreadable_output(what: str, problem: Exception) -> str:
    """The one sentence for fio's output that is not fio's, here or on a fleet's host."""
    # TRANSLATORS: {what} is what fio was doing; {problem} what was wrong with its output
    return _("fio's output could not be read while {what}: {problem}").format(
        what=what, problem=problem)
