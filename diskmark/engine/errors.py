"""Errors the engine reports. Each carries a message a user can act on and the CLI exit code.

Exit codes: 2 means nothing was started (bad arguments, unusable target, fio missing);
1 means the benchmark itself failed part-way.
"""

from __future__ import annotations


class DiskmarkError(Exception):
    exit_code = 1

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n{self.hint}" if self.hint else self.message


class TargetError(DiskmarkError):
    """The target cannot be used; nothing was started."""

    exit_code = 2


class DirectIOUnsupported(TargetError):
    """The filesystem refuses O_DIRECT (ramfs, old tmpfs, some FUSE/network filesystems)."""


class FioMissing(DiskmarkError):
    exit_code = 2


class FioFailed(DiskmarkError):
    """fio exited with an error, or was killed, in the middle of a run."""

    exit_code = 1
