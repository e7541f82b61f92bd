"""Saved results as files to share: export a baseline, import results into the history
and the baselines.

Sharing stays JSON while the store is SQLite: a baseline exports to a ``diskmark.saved/1``
file, and the history and baselines import those files and the reports of
``diskmark run --format json``. An export never replaces a file unless asked, and is written
into, never over, a FIFO or character device (``/dev/stdout``); an import checks everything
before it writes anything. :class:`FileExchange` is a part of :class:`diskmark.store.Store`:
it needs the store's connection and its ``add_history``, ``get_baseline`` and
``_save_baseline``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from diskmark.store import database
from diskmark.store.indexed import digest, measured_figures
from diskmark.files.destination import Destination
from diskmark.files.destination import DestinationError as UnusableDestination
from diskmark.files.destination import DestinationExists as FileInTheWay
from diskmark.files.destination import DestinationUnwritable
from diskmark.files.text_safety import json_utf8
from diskmark.store.schema import (DestinationExists, Entry, InvalidFile, NotFound, StoreError,
                                   StoreIOError, check_name)


class FileExchange:
    """Export and import, as methods of the store."""

    def import_history(self, sources: list[Path]) -> list[tuple[Path, str, str]]:
        """Import result files (``diskmark run --format json`` reports, or exports) into the
        history, a batch of files per transaction. Returns (file, outcome, detail) for each:
        ``imported`` (detail: the new id), ``duplicate`` (detail: the id of the run it
        repeats) or ``invalid`` (detail: why; nothing of it was written)."""
        from diskmark.store import legacy as legacy_json

        out: list[tuple[Path, str, str]] = []
        with self.db() as conn:
            for start in range(0, len(sources), legacy_json.BATCH):
                with database.transaction(conn):
                    for src in sources[start:start + legacy_json.BATCH]:
                        try:
                            header, document = legacy_json.read_result_file(Path(src))
                        except (InvalidFile, NotFound) as e:
                            out.append((src, "invalid", str(e)))
                            continue
                        same = database.by_digest(conn, "history", digest(document))
                        if same is not None:
                            out.append((src, "duplicate", same.name))
                            continue
                        # an export of this history (<id>.json), or a report naming the id
                        # its run was kept under, keeps that id where it is free
                        entry_id = header.get("name") if header.get("kind") == "history" else \
                            header.get("history_id") or Path(src).stem
                        entry = self.add_history(document, header.get("saved"),
                                                 header.get("diskmark_version", ""), entry_id,
                                                 conn=conn)
                        out.append((src, "imported", entry.name))
        return out

    def export_baseline(self, name: str, dest: Path, force: bool = False) -> Path:
        """Write baseline ``name`` to ``dest`` (a file, or an existing directory to put it
        in) as a ``diskmark.saved/1`` file. Never replaces an existing file unless
        ``force``; a FIFO or character device (``/dev/stdout``) is written into, never
        replaced (see diskmark.files.destination). Returns the path written."""
        entry = self.get_baseline(name)
        return self.export(entry, Path(dest), _dumps(entry.to_file_dict()), force)

    def export_text(self, name: str) -> str:
        """What an export of baseline ``name`` holds (``baselines export NAME -`` prints it)."""
        return _dumps(self.get_baseline(name).to_file_dict())

    def export(self, entry: Entry, dest: Path, text: str, force: bool = False) -> Path:
        """Write ``text`` (an export of ``entry``) to ``dest``, or into it when it is a
        directory, by the rules of :meth:`export_baseline`."""
        if dest.is_dir():
            dest = dest / entry.file_name
        try:
            destination = Destination(dest, force=force, make_parents=True)
        except FileInTheWay:
            raise DestinationExists(f"{dest} exists; not replacing it") from None
        except DestinationUnwritable as e:
            raise StoreIOError(str(e)) from None
        except UnusableDestination as e:
            raise StoreError(str(e)) from None
        try:
            destination.write(text)
        except FileExistsError as e:
            if not dest.exists():
                raise StoreIOError(write_failure(dest, e)) from None
            raise DestinationExists(f"{dest} exists; not replacing it") from None
        except UnusableDestination as e:
            raise StoreError(str(e)) from None
        except OSError as e:
            raise StoreIOError(write_failure(dest, e)) from None
        finally:
            destination.close()
        return dest

    def import_baseline(self, src: Path, name: str | None = None, replace: bool = False) -> Entry:
        """Import a baseline file (an export, or ``diskmark run --format json`` output) under
        its own name or ``name``. Validates everything first; on failure raises InvalidFile
        (or NameTaken) and writes nothing."""
        from diskmark.store import legacy as legacy_json

        src = Path(src)
        header, document = legacy_json.read_result_file(src)
        if not measured_figures(document):
            raise InvalidFile(f"{src} cannot be imported: it holds no measured test")
        try:
            chosen = check_name(name if name is not None else header["name"])
        except StoreError as e:
            raise InvalidFile(f"{src} cannot be imported: {e}") from None
        return self._save_baseline(document, chosen, header["note"], replace)



def _dumps(d: dict[str, Any]) -> str:
    try:
        return json_utf8(json.dumps(d, indent=2, ensure_ascii=False, allow_nan=False)) + "\n"
    except ValueError as e:  # NaN or infinity somewhere in the figures
        raise StoreError(f"cannot save a result with non-finite figures: {e}") from None


def write_failure(path: Path, e: OSError) -> str:
    """'cannot write X: No space left on device', naming the culprit when it is another path
    (a parent that is a file, say)."""
    reason = e.strerror or str(e)
    for culprit in (path.parent, *path.parent.parents):
        if culprit.exists():
            if not culprit.is_dir():
                return f"cannot write {path}: {culprit} is not a directory"
            break
    if e.filename and str(e.filename) != str(path) and not str(e.filename).endswith(".tmp"):
        reason += f" ({e.filename})"
    return f"cannot write {path}: {reason}"


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
    return f"cannot write {path}: {e}"


def _unwritable(path: Path) -> str | None:
    directory = path.parent
    # the directory, or the nearest of its parents that exists (it is made when first needed)
    existing = next((d for d in (directory, *directory.parents) if d.exists()), None)
    if existing is not None and existing.is_dir() and not os.access(existing, os.W_OK):
        try:
            read_only = bool(os.statvfs(existing).f_flag & os.ST_RDONLY)
        except OSError:
            read_only = False
        where = "it" if existing == directory else str(existing)
        why = (f"{where} is on a read-only file system" if read_only else
               f"you have no permission to write to {where}")
        return (f"cannot use the data directory {directory}: {why}. diskmark keeps its "
                f"history and baselines there and writes to it even to read them; make it "
                f"writable, or set DISKMARK_HOME to a directory you can write to.")
    if path.is_file() and not os.access(path, os.W_OK):
        return (f"you have no permission to write to {path}, where diskmark keeps its history "
                f"and baselines; make it writable, or set DISKMARK_HOME to a directory you "
                f"can write to.")
    return None
