"""The errors the store raises: each a sentence the user can act on, shown as it is."""

from __future__ import annotations

from diskmark.locale import _


class StoreError(Exception):
    """Something the user can act on: a bad name, a damaged or invalid file (nothing was
    changed), or an I/O failure (:class:`StoreIOError`). The message is fit to show as is."""


class NameTaken(StoreError):
    """A baseline of that name exists already (or its file exists but is damaged)."""


class NotFound(StoreError):
    """No baseline (or history entry) of that name."""


class Damaged(StoreError):
    """The entry's file exists but cannot be used; the message says why."""


class ExportExists(StoreError):
    """An export would replace an existing file (``--replace`` replaces it)."""


class InvalidFile(StoreError):
    """A file offered for import is not a usable diskmark result."""


class StoreIOError(StoreError):
    """Reading or writing a file failed (permissions, disk full, ...)."""


def taken(name: str, damaged: str | None, where: object) -> NameTaken:
    """Baseline ``name`` exists already at ``where`` (or its file there is ``damaged``)."""
    if damaged:
        return NameTaken(_("a baseline named {name} is damaged ({reason}) ({where})").format(
            name=repr(name), reason=damaged, where=where))
    return NameTaken(_("a baseline named {name} exists already ({where})").format(
        name=repr(name), where=where))


def non_finite(e: ValueError) -> StoreError:
    """A result with NaN or infinity among its figures, which JSON cannot hold."""
    return StoreError(_("cannot save a result with non-finite figures: {error}").format(error=e))


def damaged_run(name: str, reason: str | None) -> Damaged:
    """History entry ``name`` cannot be read, for ``reason``."""
    return Damaged(_("history entry {name} is damaged: {reason}").format(name=repr(name),
                                                                         reason=reason))
