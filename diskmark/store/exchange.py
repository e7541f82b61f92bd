"""Saved results as files to share: export a baseline, import results into the history
and the baselines.

Sharing stays JSON while the store is SQLite: a baseline exports to a ``diskmark.saved/1``
file, and the history and baselines import those files and the reports of
``diskmark run --format json``. An export never replaces a file unless asked, and is written
into, never over, a FIFO or character device (``/dev/stdout``); an import checks everything
before it writes anything. The functions take the :class:`~diskmark.store.store.Store` they
read from or write to.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diskmark.files.destination import Destination, DestinationUnwritable
from diskmark.files.destination import DestinationError as UnusableDestination
from diskmark.files.destination import DestinationExists as FileInTheWay
from diskmark.files.text_safety import json_utf8
from diskmark.locale import _
from diskmark.store import database
from diskmark.store.entry import Entry
from diskmark.store.errors import ExportExists, InvalidFile, NotFound, StoreError, StoreIOError
from diskmark.store.indexed import digest, measured_figures
from diskmark.store.schema import check_name
from diskmark.store.store import Store


def import_history(store: Store, sources: list[Path]) -> list[tuple[Path, str, str]]:
    """Import result files (``diskmark run --format json`` reports, or exports) into the
    history, a batch of files per transaction. Returns (file, outcome, detail) for each:
    ``imported`` (detail: the new id), ``duplicate`` (detail: the id of the run it
    repeats) or ``invalid`` (detail: why; nothing of it was written); after an
    ``imported`` one, a ``problem`` for each line of a text result that could not be
    placed (detail: the line, said)."""
    from diskmark.store.saved_files import BATCH, read_result_file

    out: list[tuple[Path, str, str]] = []
    with store.db() as conn:
        for start in range(0, len(sources), BATCH):
            with database.transaction(conn):
                for src in sources[start:start + BATCH]:
                    try:
                        header, document = read_result_file(Path(src))
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
                    entry = store.add_history(document, header.get("saved"),
                                             header.get("diskmark_version", ""), entry_id,
                                             conn=conn)
                    out.append((src, "imported", entry.name))
                    out.extend((src, "problem", text) for text in header.get("problems", []))
    return out

def export_baseline(store: Store, name: str, dest: Path, replace: bool = False) -> Path:
    """Write baseline ``name`` to ``dest`` (a file, or an existing directory to put it
    in) as a ``diskmark.saved/1`` file, by the rule of every file diskmark writes
    (diskmark.files.destination): an existing file is replaced only with ``replace``; a
    FIFO or character device (``/dev/stdout``) is written into, never replaced; no
    directory is made on the way. Returns the path written."""
    entry = store.get_baseline(name)
    return export(entry, Path(dest), _dumps(entry.to_file_dict()), replace)

def export_text(store: Store, name: str) -> str:
    """What an export of baseline ``name`` holds (``baselines export NAME -`` prints it)."""
    return _dumps(store.get_baseline(name).to_file_dict())

def export(entry: Entry, dest: Path, text: str, replace: bool = False) -> Path:
    """Write ``text`` (an export of ``entry``) to ``dest``, or into it when it is a
    directory, by the rules of :meth:`export_baseline`. Raises ExportExists (its message
    the destination's own) for a file that exists, StoreIOError when the place cannot be
    written, StoreError when it is not a place for a file."""
    if dest.is_dir():
        dest = dest / entry.file_name
    try:
        destination = Destination(dest, replace=replace)
        try:
            destination.write(text)
        finally:
            destination.close()
    except FileInTheWay as e:
        raise ExportExists(str(e)) from None
    except DestinationUnwritable as e:
        raise StoreIOError(str(e)) from None
    except UnusableDestination as e:
        raise StoreError(str(e)) from None
    return dest

def import_baseline(store: Store, src: Path, name: str | None = None, replace: bool = False,
                    on_problem: Callable[[str], None] | None = None) -> Entry:
    """Import a baseline file (an export, ``diskmark run --format json`` output, or a
    CrystalDiskMark text result) under its own name or ``name``. Validates everything
    first; on failure raises InvalidFile (or NameTaken) and writes nothing. A line of a
    text result the reader could not place is said to ``on_problem`` (and kept as a note)."""
    from diskmark.store.saved_files import read_result_file

    src = Path(src)
    header, document = read_result_file(src)
    if not measured_figures(document):
        raise InvalidFile(_("{path} cannot be imported: it holds no measured test").format(
            path=src))
    try:
        chosen = check_name(name if name is not None else header["name"])
    except StoreError as e:
        raise InvalidFile(_("{path} cannot be imported: {reason}").format(path=src,
                                                                           reason=e)) from None
    entry = store.save_document_as_baseline(document, chosen, header["note"], replace)
    for problem in header.get("problems", []):
        if on_problem is not None:
            on_problem(problem)
    return entry



def _dumps(d: dict[str, Any]) -> str:
    try:
        return json_utf8(json.dumps(d, indent=2, ensure_ascii=False, allow_nan=False)) + "\n"
    except ValueError as e:  # NaN or infinity somewhere in the figures
        raise StoreError(_("cannot save a result with non-finite figures: {error}").format(
            error=e)) from None
