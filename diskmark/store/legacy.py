"""Bringing JSON result files into the database: the per-run and per-baseline files of earlier
versions, files copied into those directories by hand, and files offered for import.

Earlier versions kept ``history/<started>-<id>.json`` and ``baselines/<slug>.json`` in the
data directory. :func:`adopt` imports every such file it finds, in batches of one
transaction each, then reads each row back and compares it with the file; only a file whose
row matches is moved aside to ``imported-json/<dir>/`` (never deleted). A file that cannot
be imported stays where it is and is returned with the reason, for the listings to show:
damaged (empty, truncated, not JSON, another program's, from a newer diskmark, impossible
figures) or, for a baseline, a different baseline of the same name in the database.
A run seen twice (same content) is imported once; the second file is moved aside too.

If the database cannot be written (a read-only data directory), the files are listed as
they are, readable ones included, so nothing saved earlier disappears from view.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from diskmark.locale import _
from diskmark.store import database
from diskmark.store.entry import Entry
from diskmark.store.errors import StoreIOError
from diskmark.store.ids import HISTORY_ID, started_stamp
from diskmark.store.indexed import digest
from diskmark.store.saved_files import BATCH, load


class JsonPlace(Protocol):
    """Where the JSON files of earlier versions lie and the database they go into: the
    store, as this module needs it (it must not import the store, which imports it)."""

    @property
    def database(self) -> Path: ...

    @property
    def history_dir(self) -> Path: ...

    @property
    def baselines_dir(self) -> Path: ...

    @property
    def imported_dir(self) -> Path: ...

    def db(self) -> AbstractContextManager[sqlite3.Connection]: ...


def _files(directory: Path) -> list[Path]:
    try:
        return sorted(p for p in directory.iterdir()
                      if p.name.endswith(".json") and not p.name.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        raise StoreIOError(_("cannot list {directory}: {error}").format(
            directory=directory, error=e.strerror or e)) from None


def adopt(store: JsonPlace, kind: str) -> list[Entry]:
    """Import every JSON file of ``kind`` lying in its directory; return the ones that stay
    there (each with the reason in ``damaged``)."""
    directory = store.history_dir if kind == "history" else store.baselines_dir
    files = _files(directory)
    if not files:
        return []
    loaded = [load(path, kind) for path in files]
    # a file gone meanwhile was imported and moved aside by another diskmark: not damaged
    kept = [entry for entry, document in loaded
            if document is None and (entry.path.exists() or entry.path.is_symlink())]
    good = [(entry, document) for entry, document in loaded if document is not None]
    if not good:
        return kept
    try:
        with store.db() as conn:
            for start in range(0, len(good), BATCH):
                kept += _import_batch(store, conn, good[start:start + BATCH])
    except StoreIOError as e:
        if not store.database.exists():  # cannot create it here: show the files as they are
            return kept + [entry for entry, _document in good]
        raise StoreIOError(_("cannot import the files in {directory}: {error}").format(
            directory=directory, error=e)) from None
    return kept


def _import_batch(store: JsonPlace, conn: sqlite3.Connection, batch: list[tuple[Entry, dict[str, Any]]]) -> list[Entry]:
    """Insert a batch in one transaction, then check each row against its file and move
    the file aside when they agree. Returns the entries left in place."""
    placed: list[tuple[Entry, dict[str, Any], int]] = []
    kept: list[Entry] = []
    with database.transaction(conn):
        for entry, document in batch:
            row_id = _place(conn, entry, document)
            if row_id is None:
                kept.append(entry)
            else:
                placed.append((entry, document, row_id))
    for entry, document, row_id in placed:
        text = database.document(conn, row_id)
        row = conn.execute("SELECT note FROM results WHERE id = ?", (row_id,)).fetchone()
        if text is None or json.loads(text) != document or row[0] != entry.note:
            entry.damaged = _("not imported: the database does not hold what this file holds "
                              "(row {row}); the file is kept").format(row=row_id)
            kept.append(entry)
            continue
        _move_aside(store, entry.path)
    return kept


def _place(conn: sqlite3.Connection, entry: Entry, document: dict[str, Any]) -> int | None:
    """The row that holds this file's content: a new one, or the one already holding the
    same run. None (with ``entry.damaged`` set) when it cannot go in."""
    fingerprint = digest(document)
    if entry.kind == "history":
        same = database.by_digest(conn, "history", fingerprint)
        if same is not None:
            return same.id
        name = entry.path.stem
        if not HISTORY_ID.fullmatch(name) or database.by_name(conn, "history", name):
            name = _free_id(conn, document)
        return database.insert(conn, "history", name, entry.note, entry.saved,
                               entry.diskmark_version, document)
    existing = database.by_name(conn, "baseline", entry.name)
    if existing is None:
        return database.insert(conn, "baseline", entry.name, entry.note, entry.saved,
                               entry.diskmark_version, document)
    if existing.digest == fingerprint and existing.note == entry.note:
        return existing.id
    entry.damaged = _("not imported: a different baseline named {name} is saved already; "
                      "import this file under another name with `diskmark baselines import FILE "
                      "--name NEW`").format(name=repr(entry.name))
    entry.session = None
    return None


def _free_id(conn: sqlite3.Connection, document: dict[str, Any]) -> str:
    import secrets


    stamp = started_stamp(str(document.get("started", "")))
    while True:
        name = f"{stamp}-{secrets.token_hex(3)}"
        if database.by_name(conn, "history", name) is None:
            return name


def _move_aside(store: JsonPlace, path: Path) -> Path | None:
    """Move an imported file to ``imported-json/<its directory>/``; a name taken there gets
    a number. A file another diskmark moved meanwhile is fine."""
    folder = store.imported_dir / path.parent.name
    folder.mkdir(parents=True, exist_ok=True)
    dest, n = folder / path.name, 1
    while dest.exists():
        n += 1
        dest = folder / f"{path.name}.{n}"
    try:
        os.rename(path, dest)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise StoreIOError(_("imported {path}, but cannot move it to {folder}: {error}").format(
            path=path, folder=folder, error=e.strerror or e)) from None
    return dest
