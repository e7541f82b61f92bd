"""What a failed read or write of the data directory says: the path to blame and what to
do about it, instead of the error number or SQLite's own words."""

from __future__ import annotations

import os
from pathlib import Path

from diskmark.locale import _
from diskmark.store import database


def write_failure(path: Path, e: OSError) -> str:
    """'cannot write X: No space left on device', naming the culprit when it is another path
    (a parent that is a file, say)."""
    reason = e.strerror or str(e)
    for culprit in (path.parent, *path.parent.parents):
        if culprit.exists():
            if not culprit.is_dir():
                return _("cannot write {path}: {culprit} is not a directory").format(
                    path=path, culprit=culprit)
            break
    if e.filename and str(e.filename) != str(path) and not str(e.filename).endswith(".tmp"):
        return _("cannot write {path}: {error} ({file})").format(path=path, error=reason,
                                                                 file=e.filename)
    return _("cannot write {path}: {error}").format(path=path, error=reason)


def store_failure(path: Path, e: Exception) -> str:
    """Why the database at ``path`` could not be used, put so a person can act on it: a
    data directory (or database file) that cannot be written is named with what to do,
    rather than SQLite's "unable to open database file" or "attempt to write a readonly
    database"; a file from a newer diskmark says so whatever else is wrong."""
    if not isinstance(e, database.NewerSchema):
        why = _unwritable(path)
        if why:
            return why
    if isinstance(e, database.DatabaseError):
        return str(e)
    if isinstance(e, OSError):
        return write_failure(path, e)
    return _("cannot write {path}: {error}").format(path=path, error=e)


def _unwritable(path: Path) -> str | None:
    directory = path.parent
    # the directory, or the nearest of its parents that exists (it is made when first needed)
    existing = next((d for d in (directory, *directory.parents) if d.exists()), None)
    if existing is not None and existing.is_dir() and not os.access(existing, os.W_OK):
        try:
            read_only = bool(os.statvfs(existing).f_flag & os.ST_RDONLY)
        except OSError:
            read_only = False
        if existing == directory:
            why = (_("cannot use the data directory {directory}: it is on a read-only file "
                     "system.") if read_only else
                   _("cannot use the data directory {directory}: you have no permission to "
                     "write to it."))
        else:
            why = (_("cannot use the data directory {directory}: {parent} is on a read-only "
                     "file system.") if read_only else
                   _("cannot use the data directory {directory}: you have no permission to "
                     "write to {parent}."))
        return _("{why} diskmark keeps its history and baselines there and writes to it even to "
                 "read them; make it writable, or set DISKMARK_HOME to a directory you can "
                 "write to.").format(why=why.format(directory=directory, parent=existing))
    if path.is_file() and not os.access(path, os.W_OK):
        return _("you have no permission to write to {path}, where diskmark keeps its history "
                 "and baselines; make it writable, or set DISKMARK_HOME to a directory you can "
                 "write to.").format(path=path)
    return None
