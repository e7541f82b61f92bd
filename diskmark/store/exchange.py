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
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from diskmark.files.destination import Destination, DestinationUnwritable
from diskmark.files.destination import DestinationError as UnusableDestination
from diskmark.files.destination import DestinationExists as FileInTheWay
from diskmark.locale import _, ngettext
from diskmark.locale.text_safety import json_utf8
from diskmark.store import database
from diskmark.store.entry import Entry
from diskmark.store.errors import ExportExists, InvalidFile, NotFound, StoreError, StoreIOError
from diskmark.store.indexed import digest
from diskmark.store.schema import check_name
from diskmark.store.store import Store


class Outcome(NamedTuple):
    """What became of one result of a file offered to the history: ``imported`` (detail:
    the new id), ``duplicate`` (detail: the id of the run it repeats), ``invalid`` (detail:
    why; nothing of the file was written) or, after an ``imported`` one, a ``problem`` (a
    note on what the reading left out, said). ``part``: the result's number and the count
    of results in the file, when it holds several (each imported as its own run)."""

    src: Path
    outcome: str
    detail: str
    part: tuple[int, int] | None = None


def import_history(store: Store, sources: list[Path]) -> list[Outcome]:
    """Import result files (``diskmark run --format json`` reports, exports, text results)
    into the history, a batch of files per transaction; a file holding several results
    (text results pasted one after the other) gives a run for each."""
    from diskmark.store.saved_files import BATCH, read_result_file

    out: list[Outcome] = []
    with store.db() as conn:
        for start in range(0, len(sources), BATCH):
            with database.transaction(conn):
                for src in sources[start:start + BATCH]:
                    try:
                        results = read_result_file(Path(src))
                    except (InvalidFile, NotFound) as e:
                        out.append(Outcome(src, "invalid", str(e)))
                        continue
                    for header, document in results:
                        out.extend(_add_history(store, conn, src, header, document))
    return out


def _add_history(store: Store, conn: sqlite3.Connection, src: Path, header: dict[str, Any],
                 document: dict[str, Any]) -> list[Outcome]:
    part = header.get("part")
    same = database.by_digest(conn, "history", digest(document))
    if same is not None:
        return [Outcome(src, "duplicate", same.name, part)]
    # an export of this history (<id>.json), or a report naming the id its run was kept
    # under, keeps that id where it is free
    entry_id = header.get("name") if header.get("kind") == "history" else \
        header.get("history_id") or Path(src).stem
    entry = store.add_history(document, header.get("saved"),
                              header.get("diskmark_version", ""), entry_id, conn=conn)
    return [Outcome(src, "imported", entry.name, part),
            *(Outcome(src, "problem", text, part) for text in header.get("problems", []))]


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
    first; on failure raises InvalidFile (or NameTaken) and writes nothing: a text file
    holding several results is refused. What the reading of a text result left out is
    said to ``on_problem`` (and kept as a note)."""
    from diskmark.store.saved_files import read_result_file, refuse_unmeasured

    src = Path(src)
    results = read_result_file(src)
    if len(results) > 1:
        # which one was meant cannot be told (the first? the newest?), and a baseline is
        # what later runs are judged by: refused, nothing written, the way out said
        raise InvalidFile(ngettext(
            "{path} cannot be imported as a baseline: it holds {count} results, and a "
            "baseline is one. Keep the one you mean in the file, or import each as a run "
            "of the history with `diskmark history import`.",
            "{path} cannot be imported as a baseline: it holds {count} results, and a "
            "baseline is one. Keep the one you mean in the file, or import each as a run "
            "of the history with `diskmark history import`.", len(results)).format(
                path=src, count=len(results)))
    [(header, document)] = results
    refuse_unmeasured(src, document)
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
