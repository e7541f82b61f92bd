"""Saved results: the run history and named baselines, as versioned JSON files.

Layout under :func:`diskmark.paths.data_dir` (``DISKMARK_HOME/data`` when that is set)::

    history/<started, UTC>-<shortid>.json    every finished session
    baselines/<slug>-<hash>.json             one file per named baseline

Each file holds ``{"schema": "diskmark.saved/1", "kind": "history"|"baseline", "name",
"note", "saved", "diskmark_version", "result": SessionResult.to_dict()}``; the result carries
the settings, the system facts, fio's version and every pass of every test. Files are written
atomically (:func:`diskmark.atomic.write_atomic`: temporary file, fsync, rename), so a crash
leaves the old file or the new one, never half of one.

A file that cannot be read (empty, truncated, not JSON, another program's, written by a newer
diskmark, with impossible figures) is listed as an :class:`Entry` with ``damaged`` set to the
reason. It never raises out of a listing and is never replaced without ``replace=True``, which
first moves it aside to ``<file>.damaged-<timestamp>``.

Baseline names are any printable text. The file name is a safe slug of the name plus a short
hash of it, so "NVMe / ext4" and "nvme-ext4" stay distinct; the name itself lives in the file.

Nothing here imports Textual; the TUI and the CLI both call :class:`Store`.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import unicodedata
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from diskmark import __version__, paths
from diskmark.atomic import move_aside, remove_stale_temps, write_atomic
from diskmark.destination import Destination
from diskmark.destination import DestinationError as UnusableDestination
from diskmark.destination import DestinationExists as FileInTheWay
from diskmark.destination import DestinationUnwritable
from diskmark.display import json_utf8
from diskmark.formatting import format_listing
from diskmark.model import RESULT_SCHEMA, SessionResult
from diskmark.saved import (HEADLINE_LABEL, KINDS, NAME_MAX, SCHEMA, Damaged,
                            DestinationExists, Entry, InvalidFile, NameTaken, NotFound,
                            StoreError, StoreIOError, parse_saved, read_json, session_problem,
                            validate_result)

__all__ = ["HEADLINE_LABEL", "KINDS", "NAME_MAX", "SCHEMA", "Damaged", "DestinationExists", "Entry", "InvalidFile",
           "NameTaken", "NotFound", "Store", "StoreError", "StoreIOError", "check_name",
           "format_listing", "normalize_name", "parse_saved", "read_json", "slug",
           "validate_result"]

# --- names -------------------------------------------------------------------------------


def normalize_name(name: str) -> str:
    """The canonical form of a baseline name: NFC, surrounding whitespace removed."""
    return unicodedata.normalize("NFC", str(name)).strip()


def check_name(name: str) -> str:
    """Return the canonical name, or raise StoreError saying what is wrong with it."""
    if not isinstance(name, str):
        raise StoreError("a baseline name must be text")
    norm = normalize_name(name)
    if not norm:
        raise StoreError("a baseline name cannot be empty")
    if len(norm) > NAME_MAX:
        raise StoreError(f"a baseline name can have at most {NAME_MAX} characters, not {len(norm)}")
    if not norm.isprintable():
        raise StoreError(f"a baseline name must be printable text (no newlines, tabs or "
                         f"control characters): {norm!r}")
    return norm


def slug(name: str) -> str:
    """A file-system-safe, distinct stem for a name: ``nvme-ext4-1a2b3c4d``."""
    norm = normalize_name(name)
    ascii_ = unicodedata.normalize("NFKD", norm).encode("ascii", "ignore").decode().lower()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_).strip("-")[:40].strip("-") or "baseline"
    digest = hashlib.sha256(norm.encode("utf-8")).hexdigest()[:8]
    return f"{base}-{digest}"


# --- validation --------------------------------------------------------------------------


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _dumps(d: dict[str, Any]) -> str:
    try:
        return json_utf8(json.dumps(d, indent=2, ensure_ascii=False, allow_nan=False)) + "\n"
    except ValueError as e:  # NaN or infinity somewhere in the figures
        raise StoreError(f"cannot save a result with non-finite figures: {e}") from None


# --- the store ---------------------------------------------------------------------------


class Store:
    """History and baselines under ``root`` (default: the data directory, read each time so
    ``DISKMARK_HOME`` set later still applies)."""

    def __init__(self, root: Path | None = None):
        self._root = Path(root) if root is not None else None
        for directory in (self.history_dir, self.baselines_dir):
            remove_stale_temps(directory)  # what saves killed with SIGKILL left behind

    @property
    def root(self) -> Path:
        return self._root if self._root is not None else paths.data_dir()

    @property
    def history_dir(self) -> Path:
        return self.root / "history"

    @property
    def baselines_dir(self) -> Path:
        return self.root / "baselines"

    # --- reading -------------------------------------------------------------------------

    def load(self, path: Path, kind: str) -> Entry:
        """Read one file as an Entry; never raises: problems become ``damaged``."""
        path = Path(path)
        fallback = Entry(name=path.stem, note="", saved="", path=path, kind=kind)
        try:
            data = read_json(path)
            header, session = parse_saved(data)
        except ValueError as e:
            fallback.damaged = str(e)
            return fallback
        except OSError as e:
            fallback.damaged = f"cannot read: {e.strerror or e}"
            return fallback
        name = header["name"] if kind == "baseline" else path.stem
        if kind == "baseline":
            try:
                name = check_name(name)
            except StoreError as e:
                fallback.damaged = str(e)
                return fallback
        return Entry(name=name, note=header["note"], saved=header["saved"], path=path,
                     kind=kind, session=session, diskmark_version=header["diskmark_version"])

    def _scan(self, directory: Path, kind: str) -> list[Entry]:
        try:
            files = [p for p in directory.iterdir()
                     if p.name.endswith(".json") and not p.name.startswith(".")]
        except FileNotFoundError:
            return []
        except OSError as e:
            raise StoreIOError(f"cannot list {directory}: {e.strerror or e}") from None
        return [self.load(p, kind) for p in files]

    def history(self) -> list[Entry]:
        """Every history entry, newest first; damaged files included (by modification time)."""
        return sorted(self._scan(self.history_dir, "history"), key=_age_key, reverse=True)

    def baselines(self) -> list[Entry]:
        """Every baseline, sorted by name (case-insensitive); damaged files included."""
        return sorted(self._scan(self.baselines_dir, "baseline"),
                      key=lambda e: (e.name.casefold(), e.name, str(e.path)))

    def baseline_path(self, name: str) -> Path:
        return self.baselines_dir / f"{slug(name)}.json"

    def find_baseline(self, name: str) -> Entry | None:
        """The baseline called ``name`` (or whose file stem is ``name``), damaged or not."""
        norm = normalize_name(name)
        if not norm:
            return None
        direct = self.baseline_path(norm)
        if direct.exists():
            entry = self.load(direct, "baseline")
            if entry.damaged or entry.name == norm:
                return entry
        entries = self._scan(self.baselines_dir, "baseline")
        for entry in entries:
            if entry.ok and entry.name == norm:
                return entry
        for entry in entries:
            if entry.path.stem == norm or entry.path.name == norm:
                return entry
        return None

    def get_baseline(self, name: str, allow_damaged: bool = False) -> Entry:
        """The baseline called ``name``. Raises NotFound, or Damaged (unless
        ``allow_damaged``) with the reason."""
        entry = self.find_baseline(name)
        if entry is None:
            known = ", ".join(repr(e.name) for e in self.baselines() if e.ok)
            hint = f" (saved baselines: {known})" if known else " (no baselines are saved yet)"
            raise NotFound(f"no baseline named {normalize_name(name)!r}{hint}")
        if entry.damaged and not allow_damaged:
            raise Damaged(f"baseline {name!r} ({entry.path}) is damaged: {entry.damaged}")
        return entry

    def get_history(self, entry_id: str) -> Entry:
        path = self.history_dir / f"{entry_id.removesuffix('.json')}.json"
        if not path.exists():
            raise NotFound(f"no history entry {entry_id!r}")
        entry = self.load(path, "history")
        if entry.damaged:
            raise Damaged(f"history entry {entry_id!r} is damaged: {entry.damaged}")
        return entry

    # --- writing -------------------------------------------------------------------------

    def _write(self, entry: Entry, exclusive: bool) -> None:
        text = _dumps(entry.to_file_dict())
        try:
            write_atomic(entry.path, text, exclusive=exclusive)
        except FileExistsError as e:
            if not entry.path.exists():
                raise StoreIOError(_write_failure(entry.path, e)) from None
            raise NameTaken(f"a baseline named {entry.name!r} exists already "
                            f"({entry.path})") from None
        except OSError as e:
            raise StoreIOError(_write_failure(entry.path, e)) from None

    def save_history(self, session: SessionResult) -> Entry:
        """Keep a finished session in the history. Returns its entry (name = its id)."""
        problem = session_problem(session)
        if problem:
            raise StoreError(f"cannot save this result: {problem}")
        stamp = _started_stamp(session.started)
        for _ in range(5):
            entry_id = f"{stamp}-{secrets.token_hex(3)}"
            entry = Entry(name=entry_id, note="", saved=_now(), path=self.history_dir / f"{entry_id}.json",
                          kind="history", session=session, diskmark_version=__version__)
            try:
                self._write(entry, exclusive=True)
            except NameTaken:
                continue  # the same second and the same random id: try another
            return entry
        raise StoreIOError(f"cannot find a free file name in {self.history_dir}")

    def save_baseline(self, session: SessionResult, name: str, note: str = "",
                      replace: bool = False) -> Entry:
        """Save ``session`` as baseline ``name``. Raises NameTaken if the name exists (or its
        file exists but is damaged) unless ``replace``; a damaged file being replaced is first
        moved aside to ``<file>.damaged-<timestamp>``."""
        name = check_name(name)
        if not isinstance(note, str):
            raise StoreError("a note must be text")
        problem = session_problem(session)
        if problem:
            raise StoreError(f"cannot save this result: {problem}")
        if not any(t.complete for t in session.tests):
            raise StoreError("cannot save a result without any measured test as a baseline")
        path = self.baseline_path(name)
        existing = self.check_free(name, replace)
        if replace and path.exists() and self.load(path, "baseline").damaged:
            self._move_aside(path)
        entry = Entry(name=name, note=note, saved=_now(), path=path, kind="baseline",
                      session=session, diskmark_version=__version__)
        self._write(entry, exclusive=not replace)
        if existing is not None and existing.path != path and existing.ok:
            self._unlink(existing.path)  # the same name under another file name
        return entry

    def check_free(self, name: str, replace: bool = False) -> Entry | None:
        """Check, before any work, that baseline ``name`` can be saved: raises StoreError for
        a bad name and NameTaken when it exists (or its file is damaged) and not ``replace``.
        Returns what would be replaced, if anything."""
        name = check_name(name)
        existing = self.conflict(name)
        if existing is not None and not replace:
            what = f"is damaged ({existing.damaged})" if existing.damaged else "exists already"
            raise NameTaken(f"a baseline named {name!r} {what} ({existing.path})")
        return existing

    def conflict(self, name: str) -> Entry | None:
        """What saving baseline ``name`` would clash with: the file its name maps to (damaged
        or not), or a readable baseline of the same name under another file name."""
        path = self.baseline_path(name)
        if path.exists() or path.is_symlink():
            return self.load(path, "baseline")
        return next((e for e in self._scan(self.baselines_dir, "baseline")
                     if e.ok and e.name == name), None)

    def _move_aside(self, path: Path) -> Path:
        try:
            return move_aside(path)
        except OSError as e:
            raise StoreIOError(f"cannot move the damaged {path} aside: {e.strerror or e}") from None

    def _unlink(self, path: Path) -> None:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as e:
            raise StoreIOError(f"cannot remove {path}: {e.strerror or e}") from None

    def rename_baseline(self, old: str, new: str) -> Entry:
        entry = self.get_baseline(old)
        new = check_name(new)
        if new == entry.name:
            return entry
        clash = self.conflict(new)
        if clash is not None:
            what = f"is damaged ({clash.damaged})" if clash.damaged else "exists already"
            raise NameTaken(f"a baseline named {new!r} {what} ({clash.path})")
        renamed = Entry(name=new, note=entry.note, saved=entry.saved, path=self.baseline_path(new),
                        kind="baseline", session=entry.session,
                        diskmark_version=entry.diskmark_version)
        self._write(renamed, exclusive=True)
        self._unlink(entry.path)
        return renamed

    def set_note(self, name: str, note: str) -> Entry:
        entry = self.get_baseline(name)
        entry.note = note
        self._write(entry, exclusive=False)
        return entry

    def delete_baseline(self, name: str) -> Entry:
        """Remove a baseline (a damaged one too, by its name or file stem). Returns it."""
        entry = self.get_baseline(name, allow_damaged=True)
        self._unlink(entry.path)
        return entry

    def delete_history(self, entry: Entry | str) -> None:
        path = entry.path if isinstance(entry, Entry) else self.history_dir / f"{entry}.json"
        self._unlink(path)

    def promote(self, history_entry: Entry | str, name: str, note: str = "",
                replace: bool = False) -> Entry:
        """Save a history entry (an Entry or its id) as baseline ``name``."""
        if isinstance(history_entry, str):
            history_entry = self.get_history(history_entry)
        if history_entry.session is None:
            raise Damaged(f"history entry {history_entry.name!r} is damaged: {history_entry.damaged}")
        return self.save_baseline(history_entry.session, name, note, replace=replace)

    # --- export / import -----------------------------------------------------------------

    def export_baseline(self, name: str, dest: Path, force: bool = False) -> Path:
        """Write baseline ``name`` to ``dest`` (a file, or an existing directory to put it
        in). Never replaces an existing file unless ``force``; a FIFO or character device
        (``/dev/stdout``) is written into, never replaced (see diskmark.destination).
        Returns the path written."""
        entry = self.get_baseline(name)
        dest = Path(dest)
        if dest.is_dir():
            dest = dest / entry.path.name
        text = _dumps(entry.to_file_dict())
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
                raise StoreIOError(_write_failure(dest, e)) from None
            raise DestinationExists(f"{dest} exists; not replacing it") from None
        except UnusableDestination as e:
            raise StoreError(str(e)) from None
        except OSError as e:
            raise StoreIOError(_write_failure(dest, e)) from None
        finally:
            destination.close()
        return dest

    def import_baseline(self, src: Path, name: str | None = None, replace: bool = False) -> Entry:
        """Import a baseline file (an export, or ``diskmark run --format json`` output) under
        its own name or ``name``. Validates everything first; on failure raises InvalidFile
        (or NameTaken) and writes nothing."""
        src = Path(src)
        try:
            data = read_json(src)
        except FileNotFoundError:
            raise NotFound(f"{src}: no such file") from None
        except ValueError as e:
            raise InvalidFile(f"{src} cannot be imported: {e}") from None
        except OSError as e:
            raise StoreIOError(f"cannot read {src}: {e.strerror or e}") from None
        try:
            if isinstance(data, dict) and data.get("schema") == RESULT_SCHEMA:
                session = validate_result(data)  # a plain report from `diskmark run --format json`
                header = {"name": src.stem, "note": ""}
            else:
                header, session = parse_saved(data)
        except ValueError as e:
            raise InvalidFile(f"{src} cannot be imported: {e}") from None
        if not any(t.complete for t in session.tests):
            raise InvalidFile(f"{src} cannot be imported: it holds no measured test")
        try:
            chosen = check_name(name if name is not None else header["name"])
        except StoreError as e:
            raise InvalidFile(f"{src} cannot be imported: {e}") from None
        return self.save_baseline(session, chosen, header["note"], replace=replace)


def _write_failure(path: Path, e: OSError) -> str:
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


def _started_stamp(started: str) -> str:
    try:
        when = datetime.fromisoformat(started)
        if when.tzinfo is None:
            when = when.astimezone()
        return when.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    except (TypeError, ValueError):
        return _stamp()


def _age_key(entry: Entry) -> float:
    """Newest first: the session's start time, else the file's modification time."""
    for stamp in (entry.started, entry.saved):
        try:
            when = datetime.fromisoformat(stamp)
            if when.tzinfo is None:
                when = when.astimezone()
            return when.timestamp()
        except (TypeError, ValueError):
            continue
    try:
        return entry.path.stat().st_mtime
    except OSError:
        return 0.0
