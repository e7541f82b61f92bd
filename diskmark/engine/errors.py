"""Errors the engine reports. Each carries a message a user can act on, and says by its
class what happened: :class:`NotStarted` (nothing ran: an unusable target, fio missing) or a
failure part-way (:class:`FioFailed`). What that means for a script's exit status is the
CLI's to say.
"""

from __future__ import annotations

from typing import Any


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
    """fio exited with an error, or was killed, in the middle of a run."""


def fio_failure(what: str, rc: int, stderr: str, noise: list[str], last: dict[str, Any] | None) -> str:
    """What a user reads when fio failed while doing ``what``: the cause when it is known
    (out of space, a signal), then the last lines fio printed."""
    lines = [ln.strip() for ln in stderr.splitlines() + noise if ln.strip()]
    text = "\n".join(lines[-6:])
    from diskmark.engine.parse import job_error  # fio's JSON reader: not at the app's start

    errno_ = job_error(last) if last else 0
    if errno_ == 28 or "No space left" in text:
        head = f"The target ran out of space while {what}."
    elif rc < 0:
        head = f"fio was killed by signal {-rc} while {what}."
    else:
        head = f"fio failed while {what} (exit status {rc}{f', error {errno_}' if errno_ else ''})."
    return f"{head}\n{text}" if text else head
