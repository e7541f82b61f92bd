"""The errors the store raises: each a sentence the user can act on, shown as it is."""

from __future__ import annotations


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
    """An export would replace an existing file (``--force`` replaces it)."""


class InvalidFile(StoreError):
    """A file offered for import is not a usable diskmark result."""


class StoreIOError(StoreError):
    """Reading or writing a file failed (permissions, disk full, ...)."""
