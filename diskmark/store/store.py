"""Saved results: the run history and named baselines, in one SQLite file.

Under :func:`diskmark.paths.data_dir` (``DISKMARK_HOME/data`` when that is set) the file
``diskmark.sqlite3`` (see :mod:`diskmark.store.database`) holds every finished session and every
named baseline: the whole ``diskmark.result/1`` document of each, plus indexed columns for
listings, filters and trends. Writes are transactions (WAL, ``synchronous=FULL``), so a crash
or a ``kill -9`` leaves what was committed, never half of a save; two processes saving at
once both succeed.

Sharing stays JSON (:mod:`diskmark.store.exchange`): a baseline exports to (and imports from) a
``diskmark.saved/1`` file, ``{"schema", "kind", "name", "note", "saved", "diskmark_version",
"result"}``; the history imports the reports of ``diskmark run --format json``. The JSON files of earlier versions
(``history/*.json``, ``baselines/*.json``) are imported when found and then moved aside to
``imported-json/`` (see :mod:`diskmark.store.legacy`).

A file or row that cannot be read (empty, truncated, not JSON, another program's, written by
a newer diskmark, with impossible figures) is listed as an :class:`Entry` with ``damaged``
set to the reason. It never raises out of a listing and is never replaced without
``replace=True``; a damaged file is then moved aside to ``<file>.damaged-<timestamp>``.

Baseline names are any printable text; an export's file name is a safe slug of the name plus
a short hash of it, so "NVMe / ext4" and "nvme-ext4" stay distinct.

Nothing here imports Textual; the TUI and the CLI both call :class:`Store`.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any

from diskmark import __version__
from diskmark.files import paths
from diskmark.files.atomic import move_aside, remove_stale_temps
from diskmark.locale import _
from diskmark.locale.text_safety import json_utf8
from diskmark.model.moments import timestamp
from diskmark.model.results import SessionResult
from diskmark.store import database
from diskmark.store.database import Filters, Row
from diskmark.store.entry import Entry
from diskmark.store.errors import Damaged, NameTaken, NotFound, StoreError, StoreIOError, damaged_run, non_finite, taken
from diskmark.store.failures import store_failure
from diskmark.store.ids import HISTORY_ID, started_stamp
from diskmark.store.indexed import measured_figures
from diskmark.store.schema import check_name, normalize_name, session_problem, slug, validate_result

# --- times ---------------------------------------------------------------------------------


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


# --- the store ---------------------------------------------------------------------------

class Store:
    """History and baselines under ``root`` (default: the data directory, read each time so
    ``DISKMARK_HOME`` set later still applies), in one SQLite file (diskmark.store.database).

    The JSON directories of earlier versions (``history/``, ``baselines/``) are still
    watched: a file found there (left by an older diskmark, or copied in by hand) is
    imported the next time that kind is listed or looked up, checked against what was
    written, and only then moved aside to ``imported-json/``; a file that cannot be imported
    stays where it is and is listed with the reason (see diskmark.store.legacy)."""

    def __init__(self, root: Path | None = None):
        self._root = Path(root) if root is not None else None
        for directory in (self.history_dir, self.baselines_dir):
            remove_stale_temps(directory)  # what saves killed with SIGKILL left behind

    @property
    def root(self) -> Path:
        return self._root if self._root is not None else paths.data_dir()

    @property
    def database(self) -> Path:
        return self.root / database.FILE_NAME

    @property
    def history_dir(self) -> Path:
        """Where earlier versions kept one JSON file per run (imported when found)."""
        return self.root / "history"

    @property
    def baselines_dir(self) -> Path:
        """Where earlier versions kept one JSON file per baseline (imported when found)."""
        return self.root / "baselines"

    @property
    def imported_dir(self) -> Path:
        """Where imported JSON files are moved to: kept, never deleted."""
        return self.root / "imported-json"

    @contextmanager
    def db(self) -> Iterator[sqlite3.Connection]:
        """A connection to the database, made when there is none yet; failures become
        StoreIOError (exit status 1) with the file named."""
        try:
            with database.connect(self.database) as conn:
                yield conn
        except sqlite3.IntegrityError:
            raise  # a name taken: the caller's to say (NameTaken), not a broken file
        except (database.DatabaseError, sqlite3.Error, OSError) as e:
            raise StoreIOError(store_failure(self.database, e)) from None

    @contextmanager
    def existing_db(self) -> Iterator[sqlite3.Connection | None]:
        """:meth:`db`, or None when there is no database yet: a listing need not make one."""
        if not self.database.exists():
            yield None
            return
        with self.db() as conn:
            yield conn

    # --- rows and entries ----------------------------------------------------------------

    def _entry(self, row: Row, text: str | None) -> Entry:
        """The full entry of a row: its document parsed and checked (a row that fails is
        listed as damaged, with the reason)."""
        entry = Entry(name=row.name, note=row.note, saved=row.saved, path=self.database,
                      kind=row.kind, diskmark_version=row.diskmark_version, id=row.id)
        try:
            doc = json.loads(text) if text is not None else None
            if doc is None:
                raise ValueError(_("it was removed meanwhile"))
            entry.session = validate_result(doc)
            entry.document = doc
        except (ValueError, RecursionError) as e:
            entry.damaged = str(e)
        return entry

    def entry(self, row: Row) -> Entry:
        """The full entry (document parsed) of a row from a listing."""
        with self.existing_db() as conn:
            text = database.document(conn, row.id) if conn is not None else None
        if text is None:
            raise NotFound((_("no baseline {name} (deleted meanwhile?)") if row.kind == "baseline"
                            else _("no history entry {name} (deleted meanwhile?)")).format(
                                name=repr(row.name)))
        return self._entry(row, text)

    def _all(self, kind: str) -> list[Entry]:
        with self.existing_db() as conn:
            if conn is None:
                return []
            rows = conn.execute(f"SELECT {database.ROW_COLUMNS}, document FROM results "
                                f"WHERE kind = ?", (kind,)).fetchall()
        return [self._entry(Row(*r[:-1]), r[-1]) for r in rows]

    def _adopt(self, kind: str) -> list[Entry]:
        """Import what lies in that kind's JSON directory; returns the files kept there."""
        from diskmark.store.legacy import adopt

        return adopt(self, kind)

    def load(self, path: Path, kind: str) -> Entry:
        """Read one JSON file as an Entry; never raises: problems become ``damaged``."""
        from diskmark.store.saved_files import load

        return load(path, kind)[0]

    # --- reading -------------------------------------------------------------------------

    def history(self) -> list[Entry]:
        """Every history entry, newest first, documents parsed; JSON files that could not be
        imported included (by modification time). For a long history use :meth:`page`."""
        return sorted(self._adopt("history") + self._all("history"), key=_age_key, reverse=True)

    def page(self, limit: int | None = 50, offset: int = 0,
             filters: Filters | None = None, kind: str = "history") -> list[Row]:
        """One page of the history (or baselines), newest first, without parsing a document."""
        with self.existing_db() as conn:
            return database.page(conn, kind, limit, offset, filters) if conn is not None else []

    def count(self, filters: Filters | None = None, kind: str = "history") -> int:
        with self.existing_db() as conn:
            return database.count(conn, kind, filters) if conn is not None else 0

    def distinct(self, column: str, kind: str = "history") -> list[tuple[str, int]]:
        """The devices (targets, hosts) in the history, with how many runs each."""
        with self.existing_db() as conn:
            return database.distinct(conn, kind, column) if conn is not None else []

    def unimported(self, kind: str = "history") -> list[Entry]:
        """Import what can be imported from the JSON directory; the files that are left
        (damaged, or clashing), each with the reason."""
        return self._adopt(kind)

    def baselines(self) -> list[Entry]:
        """Every baseline, sorted by name (case-insensitive); damaged files included."""
        return sorted(self._adopt("baseline") + self._all("baseline"),
                      key=lambda e: (e.name.casefold(), e.name, str(e.path)))

    def baseline_path(self, name: str) -> Path:
        """Where an earlier diskmark kept baseline ``name`` as JSON (and the name an export
        of it takes)."""
        return self.baselines_dir / f"{slug(name)}.json"

    def find_baseline(self, name: str) -> Entry | None:
        """The baseline called ``name`` (or whose file name is ``name``), damaged or not."""
        norm = normalize_name(name)
        if not norm:
            return None
        kept = self._adopt("baseline")
        with self.existing_db() as conn:
            row = database.by_name(conn, "baseline", norm) if conn is not None else None
            text = database.document(conn, row.id) if conn is not None and row is not None else None
            if row is None and conn is not None:  # an export's file stem: nvme-1a2b3c4d
                row = next((r for r in database.page(conn, "baseline", None)
                            if norm in (slug(r.name), f"{slug(r.name)}.json")), None)
                text = database.document(conn, row.id) if row is not None else None
        if row is not None:
            return self._entry(row, text)
        direct = self.baseline_path(norm)  # the file an earlier diskmark kept it in, damaged
        return next((e for e in kept if e.path == direct), None) or \
            next((e for e in kept if norm in (e.path.stem, e.path.name)), None)

    def get_baseline(self, name: str, allow_damaged: bool = False) -> Entry:
        """The baseline called ``name``. Raises NotFound, or Damaged (unless
        ``allow_damaged``) with the reason."""
        entry = self.find_baseline(name)
        if entry is None:
            known = ", ".join(repr(e.name) for e in self.baselines() if e.ok)
            raise NotFound((_("no baseline named {name} (saved baselines: {known})") if known else
                            _("no baseline named {name} (no baselines are saved yet)")).format(
                                name=repr(normalize_name(name)), known=known))
        if entry.damaged and not allow_damaged:
            raise Damaged(_("baseline {name} ({path}) is damaged: {reason}").format(
                name=repr(name), path=entry.path, reason=entry.damaged))
        return entry

    def find_history(self, entry_id: str) -> list[Row]:
        """The runs whose id is ``entry_id`` or starts with it (as git takes a short id);
        ``last`` is the newest run (the first one listed), to reach the run just made."""
        entry_id = entry_id.strip().removesuffix(".json")
        if not entry_id:
            return []
        with self.existing_db() as conn:
            if conn is None:
                return []
            if entry_id == "last":
                return database.page(conn, "history", 1)
            exact = database.by_name(conn, "history", entry_id)
            return [exact] if exact is not None else database.by_prefix(conn, "history", entry_id)

    def get_history(self, entry_id: str, allow_damaged: bool = False) -> Entry:
        """The run ``entry_id`` (its full id or a unique beginning of it); NotFound,
        Damaged (unless ``allow_damaged``: a damaged run can be deleted) or StoreError."""
        self._adopt("history")
        found = self.find_history(entry_id)
        if not found:
            kept = next((e for e in self._adopt("history")
                         if entry_id in (e.path.stem, e.path.name)), None)
            if kept is not None:
                raise damaged_run(entry_id, kept.damaged)
            raise NotFound(_("no history entry {name}").format(name=repr(entry_id)))
        if len(found) > 1:
            raise StoreError(_("{name} fits several runs ({runs}); give more of the id").format(
                name=repr(entry_id), runs=", ".join(r.name for r in found)
                + (", …" if len(found) >= 5 else "")))
        entry = self.entry(found[0])
        if entry.damaged and not allow_damaged:
            raise damaged_run(entry.name, entry.damaged)
        return entry

    # --- writing -------------------------------------------------------------------------

    def _insert(self, kind: str, name: str, note: str, document: dict[str, Any],
                saved: str | None = None, version: str = "", replace_id: int | None = None,
                conn: sqlite3.Connection | None = None) -> Entry:
        """Add a row in one transaction (replacing row ``replace_id`` in the same one).
        Raises NameTaken when ``(kind, name)`` is taken."""
        saved = saved or _now()
        version = version or __version__
        try:
            with (nullcontext(conn) if conn is not None else self.db()) as c:
                # inside the caller's transaction (a batch of imports), or in one of its own
                with nullcontext(c) if c.in_transaction else database.transaction(c):
                    if replace_id is not None:
                        database.delete(c, [replace_id])
                    row_id = database.insert(c, kind, name, note, saved, version, document)
        except sqlite3.IntegrityError:
            if kind == "baseline":
                raise taken(name, None, self.database) from None
            raise NameTaken(_("history entry {name} exists already").format(name=repr(name))) \
                from None
        except sqlite3.Error as e:
            raise StoreIOError(store_failure(self.database, e)) from None
        except ValueError as e:  # NaN or infinity somewhere in the figures
            raise non_finite(e) from None
        return Entry(name=name, note=note, saved=saved, path=self.database, kind=kind,
                     session=SessionResult.from_dict(document), diskmark_version=version,
                     id=row_id, document=document)

    def save_history(self, session: SessionResult) -> Entry:
        """Keep a finished session in the history. Returns its entry (name = its id)."""
        problem = session_problem(session)
        if problem:
            raise StoreError(_("cannot save this result: {problem}").format(problem=problem))
        return self.add_history(_plain(session.to_dict()))

    def add_history(self, document: dict[str, Any], saved: str | None = None,
                    version: str = "", entry_id: str | None = None,
                    conn: sqlite3.Connection | None = None) -> Entry:
        """Keep a (validated) result document in the history under a new id, or
        ``entry_id`` when it is free."""
        stamp = started_stamp(str(document.get("started", "")))
        wanted = [entry_id] if entry_id and HISTORY_ID.fullmatch(entry_id) else []
        for candidate in wanted + [f"{stamp}-{secrets.token_hex(3)}" for _i in range(5)]:
            try:
                return self._insert("history", candidate, "", document, saved, version,
                                    conn=conn)
            except NameTaken:
                continue  # the same second and the same random id: try another
        raise StoreIOError(_("cannot find a free id for a run in {path}").format(
            path=self.database))

    def save_baseline(self, session: SessionResult, name: str, note: str = "",
                      replace: bool = False) -> Entry:
        """Save ``session`` as baseline ``name``. Raises NameTaken if the name exists (or a
        damaged file of that name lies in the baselines directory) unless ``replace``; such
        a file is first moved aside to ``<file>.damaged-<timestamp>``."""
        name = check_name(name)
        if not isinstance(note, str):
            raise StoreError(_("a note must be text"))
        problem = session_problem(session)
        if problem:
            raise StoreError(_("cannot save this result: {problem}").format(problem=problem))
        if not any(t.complete for t in session.tests):
            raise StoreError(_("cannot save a result without any measured test as a baseline"))
        return self.save_document_as_baseline(_plain(session.to_dict()), name, note, replace)

    def save_document_as_baseline(self, document: dict[str, Any], name: str, note: str,
                       replace: bool) -> Entry:
        existing = self.check_free(name, replace)
        replace_id = None
        if existing is not None:
            if existing.id is None:  # a file in the baselines directory: kept, moved aside
                self._move_aside(existing.path)
            else:
                replace_id = existing.id
        return self._insert("baseline", name, note, document, replace_id=replace_id)

    def check_free(self, name: str, replace: bool = False) -> Entry | None:
        """Check, before any work, that baseline ``name`` can be saved: raises StoreError for
        a bad name and NameTaken when it exists (or its file is damaged) and not ``replace``.
        Returns what would be replaced, if anything."""
        name = check_name(name)
        existing = self.conflict(name)
        if existing is not None and not replace:
            raise taken(name, existing.damaged,
                        existing.path if existing.id is None else self.database)
        return existing

    def conflict(self, name: str) -> Entry | None:
        """What saving baseline ``name`` would clash with: a baseline of that name, or a
        file in the baselines directory under that name's file name that could not be
        imported (damaged, say)."""
        kept = self._adopt("baseline")
        path = self.baseline_path(name)
        stuck = next((e for e in kept if e.path == path), None)
        if stuck is not None:
            return stuck
        with self.existing_db() as conn:
            if conn is None:
                return None
            row = database.by_name(conn, "baseline", name)
            return self._entry(row, database.document(conn, row.id)) if row is not None else None

    def _move_aside(self, path: Path) -> Path:
        try:
            return move_aside(path)
        except OSError as e:
            raise StoreIOError(_("cannot move the damaged {path} aside: {error}").format(
                path=path, error=e.strerror or e)) from None

    def _update(self, entry: Entry, **fields: str) -> None:
        assert entry.id is not None, "only a row of the database is updated"
        try:
            with self.db() as conn, database.transaction(conn):
                database.update_header(conn, entry.id, **fields)
        except sqlite3.IntegrityError:
            raise NameTaken(_("a baseline named {name} exists already").format(
                name=repr(fields.get("name")))) from None

    def rename_baseline(self, old: str, new: str) -> Entry:
        entry = self.get_baseline(old)
        new = check_name(new)
        if new == entry.name:
            return entry
        clash = self.conflict(new)
        if clash is not None:
            raise taken(new, clash.damaged, clash.path)
        self._update(entry, name=new)
        entry.name = new
        return entry

    def set_note(self, name: str, note: str) -> Entry:
        entry = self.get_baseline(name)
        self._update(entry, note=note)
        entry.note = note
        return entry

    def _delete(self, entry: Entry) -> None:
        """Remove a row; a JSON file that was never imported is moved aside, not deleted."""
        if entry.id is None:
            self._move_aside(entry.path)
            return
        with self.db() as conn, database.transaction(conn):
            database.delete(conn, [entry.id])

    def delete_baseline(self, name: str) -> Entry:
        """Remove a baseline (a damaged file too, by its name or file stem). Returns it."""
        entry = self.get_baseline(name, allow_damaged=True)
        self._delete(entry)
        return entry

    def delete_history(self, entry: Entry | str | Row) -> None:
        if isinstance(entry, Row):
            with self.db() as conn, database.transaction(conn):
                database.delete(conn, [entry.id])
            return
        if isinstance(entry, str):
            kept = next((e for e in self._adopt("history")
                         if entry in (e.path.stem, e.path.name)), None)
            entry = kept if kept is not None else self.get_history(entry, allow_damaged=True)
        self._delete(entry)

    def prune(self, keep: int | None = None, older_than_days: float | None = None,
              filters: Filters | None = None, dry_run: bool = False) -> list[Row]:
        """Remove runs from the history (never baselines): all but the ``keep`` newest, or
        those that started more than ``older_than_days`` ago, among those ``filters``
        match. Returns what was (or, with ``dry_run``, would be) removed."""
        with self.existing_db() as conn:
            if conn is None:
                return []
            rows = database.page(conn, "history", None, 0, filters)
            if keep is not None:
                doomed = rows[keep:]
            else:
                limit = time.time() - (older_than_days or 0) * 86400
                doomed = [r for r in rows if r.started_ts is not None and r.started_ts < limit]
            if doomed and not dry_run:
                with database.transaction(conn):
                    database.delete(conn, [r.id for r in doomed])
        return doomed

    def promote(self, history_entry: Entry | str, name: str, note: str = "",
                replace: bool = False) -> Entry:
        """Save a history entry (an Entry or its id) as baseline ``name``."""
        if isinstance(history_entry, str):
            history_entry = self.get_history(history_entry)
        if history_entry.session is None:
            raise damaged_run(history_entry.name, history_entry.damaged)
        if history_entry.document is None:
            return self.save_baseline(history_entry.session, name, note, replace=replace)
        # the run's document as it was saved (fields of a newer diskmark included), so the
        # baseline and the run are one and the same in a trend
        name = check_name(name)
        if not isinstance(note, str):
            raise StoreError(_("a note must be text"))
        if not measured_figures(history_entry.document):
            raise StoreError(_("cannot save a result without any measured test as a baseline"))
        return self.save_document_as_baseline(history_entry.document, name, note, replace)

def _plain(document: dict[str, Any]) -> dict[str, Any]:
    """The document as it reads back from JSON (tuples become lists, and so on), so that what
    is returned after a save equals what a later read gives."""
    try:
        plain: dict[str, Any] = json.loads(json_utf8(json.dumps(document, ensure_ascii=False,
                                                                allow_nan=False)))
        return plain
    except ValueError as e:
        raise non_finite(e) from None


def _age_key(entry: Entry) -> float:
    """Newest first: the session's start time, else the file's modification time."""
    for stamp in (entry.started, entry.saved):
        seconds = timestamp(stamp)
        if seconds is not None:
            return seconds
    try:
        return entry.path.stat().st_mtime
    except OSError:
        return 0.0
