"""Saved results: the run history and named baselines, in one SQLite file.

Under :func:`diskmark.paths.data_dir` (``DISKMARK_HOME/data`` when that is set) the file
``diskmark.sqlite3`` (see :mod:`diskmark.database`) holds every finished session and every
named baseline: the whole ``diskmark.result/1`` document of each, plus indexed columns for
listings, filters and trends. Writes are transactions (WAL, ``synchronous=FULL``), so a crash
or a ``kill -9`` leaves what was committed, never half of a save; two processes saving at
once both succeed.

Sharing stays JSON: a baseline exports to (and imports from) a ``diskmark.saved/1`` file,
``{"schema", "kind", "name", "note", "saved", "diskmark_version", "result"}``; the history
imports the reports of ``diskmark run --format json``. The JSON files of earlier versions
(``history/*.json``, ``baselines/*.json``) are imported when found and then moved aside to
``imported-json/`` (see :mod:`diskmark.legacy_json`).

A file or row that cannot be read (empty, truncated, not JSON, another program's, written by
a newer diskmark, with impossible figures) is listed as an :class:`Entry` with ``damaged``
set to the reason. It never raises out of a listing and is never replaced without
``replace=True``; a damaged file is then moved aside to ``<file>.damaged-<timestamp>``.

Baseline names are any printable text; an export's file name is a safe slug of the name plus
a short hash of it, so "NVMe / ext4" and "nvme-ext4" stay distinct.

Nothing here imports Textual; the TUI and the CLI both call :class:`Store`.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import secrets
import sqlite3
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from diskmark import __version__, database, paths
from diskmark.atomic import remove_stale_temps
from diskmark.destination import Destination
from diskmark.destination import DestinationError as UnusableDestination
from diskmark.destination import DestinationExists as FileInTheWay
from diskmark.destination import DestinationUnwritable
from diskmark.display import json_utf8
from diskmark.model import RESULT_SCHEMA, DataPattern, Mode, Op, SessionResult, Status
from diskmark.regular_file import read_regular_file

SCHEMA = "diskmark.saved/1"
SCHEMA_PREFIX = "diskmark.saved/"
SCHEMA_VERSION = 1
KINDS = ("history", "baseline")
NAME_MAX = 200
MAX_FILE_BYTES = 64 * 1024 * 1024  # far beyond any real result; guards against reading junk

#: The test whose read and write MB/s summarise a result in listings (CDM's first row).
HEADLINE_LABEL = "SEQ1M Q8T1"


# --- errors ------------------------------------------------------------------------------


class StoreError(Exception):
    """Something the user can act on: a bad name, a damaged or invalid file, an I/O failure.
    The message is fit to show as is. ``exit_code`` is the CLI's: 2 for a bad name or file
    (nothing was changed), 1 for an I/O failure."""

    exit_code = 2


class NameTaken(StoreError):
    """A baseline of that name exists already (or its file exists but is damaged)."""


class NotFound(StoreError):
    """No baseline (or history entry) of that name."""


class Damaged(StoreError):
    """The entry's file exists but cannot be used; the message says why."""


class DestinationExists(StoreError):
    """An export would replace an existing file."""


class InvalidFile(StoreError):
    """A file offered for import is not a usable diskmark result."""


class StoreIOError(StoreError):
    """Reading or writing a file failed (permissions, disk full, ...)."""

    exit_code = 1


# --- entries -----------------------------------------------------------------------------


@dataclass
class Entry:
    """One saved result. ``session`` is None exactly when ``damaged`` holds the reason.

    A result in the database has its row ``id`` and ``path`` is the database file; a JSON
    file that could not be imported (damaged, or a clash) has ``id`` None and ``path`` is
    that file, which diskmark keeps where it is."""

    name: str  # baselines: the display name; history: the run's id; damaged: the file stem
    note: str
    saved: str  # ISO 8601, when it was written
    path: Path
    kind: str  # "history" or "baseline"
    session: SessionResult | None = None
    damaged: str | None = None
    diskmark_version: str = ""
    id: int | None = None  # the database row
    #: the diskmark.result/1 document as saved (unknown fields of a newer diskmark included)
    document: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.damaged is None and self.session is not None

    @property
    def ident(self) -> tuple:
        """What tells two entries apart (their row, or their file)."""
        return ("row", self.id) if self.id is not None else ("file", str(self.path))

    @property
    def file_name(self) -> str:
        """The name its JSON export takes: ``<slug>.json`` for a baseline, ``<id>.json``
        for a run, the file's own name for a file that was not imported."""
        if self.id is None:
            return self.path.name
        return f"{slug(self.name)}.json" if self.kind == "baseline" else f"{self.name}.json"

    @property
    def started(self) -> str:
        """When the measured session started (ISO 8601), or '' if unknown."""
        return self.session.started if self.session else ""

    @property
    def device(self) -> str:
        return self.session.system.device if self.session else ""

    @property
    def fstype(self) -> str:
        return self.session.system.fstype if self.session else ""

    @property
    def model(self) -> str:
        return self.session.system.model if self.session else ""

    def headline(self) -> tuple[str, float | None, float | None]:
        """``(label, read MB/s, write MB/s)`` of the headline test (SEQ1M Q8T1, or else the
        profile's first row); None where that figure was not measured."""
        if not self.session:
            return HEADLINE_LABEL, None, None
        tests = [t for t in self.session.tests if t.complete]
        if not tests:
            return HEADLINE_LABEL, None, None
        labels = {t.label for t in tests}
        label = HEADLINE_LABEL if HEADLINE_LABEL in labels else min(tests, key=lambda t: t.index).label
        figures = {t.op: t.best_mb_s for t in tests if t.label == label and t.op is not Op.MIX}
        return label, figures.get(Op.READ), figures.get(Op.WRITE)

    def to_file_dict(self) -> dict[str, Any]:
        if self.session is None:
            raise Damaged(f"{self.path.name} is damaged: {self.damaged}")
        return {"schema": SCHEMA, "kind": self.kind, "name": self.name, "note": self.note,
                "saved": self.saved, "diskmark_version": self.diskmark_version or __version__,
                "result": self.document if self.document is not None else self.session.to_dict()}


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


# Every field that SessionResult.from_dict, the reports and the app read, with what it must
# hold. A field a newer diskmark adds is not judged; a known field of the wrong type is, so
# a damaged file is listed as damaged instead of crashing whatever shows it later.

_WHOLE_MAX = 2**63  # beyond anything a disk or a count reaches; JSON allows any integer


def _brief(value: Any) -> str:
    """The offending value for a message, cut short: a damaged file may hold megabytes."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_figure(value: Any, where: str) -> None:
    """A finite, non-negative number (a figure, a size, seconds)."""
    if not _is_number(value):
        raise ValueError(f"{where} is not a number ({_brief(value)})")
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        finite = False
    if not finite:
        raise ValueError(f"{where} is not a finite number ({_brief(value)})")
    if value < 0:
        raise ValueError(f"{where} is negative ({_brief(value)})")


def _check_whole(value: Any, where: str, low: int = 0, high: int = _WHOLE_MAX) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        what = "a positive whole number" if low == 1 else f"a whole number of {low} or more"
        if high != _WHOLE_MAX:
            what = f"a whole number from {low} to {high}"
        raise ValueError(f"{where} must be {what}, not {_brief(value)}")


def _check_text(value: Any, where: str) -> None:
    if not isinstance(value, str):
        raise ValueError(f"{where} must be text, not {_brief(value)}")


def _check_flag(value: Any, where: str) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{where} must be true or false, not {_brief(value)}")


def _one_of(*allowed: str):
    def check(value: Any, where: str) -> None:
        if value not in allowed:
            raise ValueError(f"{where} must be one of {', '.join(allowed)}, not {_brief(value)}")
    return check


def _optional(check):
    def check_optional(value: Any, where: str) -> None:
        if value is not None:
            check(value, where)
    return check_optional


def _list_of(check, item: str):
    def check_list(value: Any, where: str) -> None:
        if not isinstance(value, list):
            raise ValueError(f"{where} is not a list ({_brief(value)})")
        for i, element in enumerate(value):
            check(element, f"{where} {item} {i}")
    return check_list


def _table_of(check, key: str):
    def check_table(value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise ValueError(f"{where} is not an object ({_brief(value)})")
        for k, element in value.items():
            check(element, f"{where} {key} {k}")
    return check_table


def _check_positive(value: Any, where: str) -> None:
    _check_whole(value, where, 1)


def _check_percent(value: Any, where: str) -> None:
    _check_whole(value, where, 0, 100)


def _check_rotational(value: Any, where: str) -> None:
    if value is not None and not isinstance(value, bool):
        raise ValueError(f"{where} must be true, false or null, not {_brief(value)}")


def _require(d: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(d, dict):
        raise ValueError(f"{where} is not an object")
    missing = [k for k in keys if k not in d]
    if missing:
        raise ValueError(f"{where} lacks {', '.join(missing)}")


def _check_fields(d: dict[str, Any], fields: dict[str, Any], where: str) -> None:
    for name, check in fields.items():
        if name in d:
            check(d[name], f"{where}{name}")


_figure = _check_figure
_maybe_figure = _optional(_check_figure)
_texts = _list_of(_check_text, "item")
_delays = _table_of(_check_figure, "for")

_RUN_FIELDS = {
    "mb_s": _figure, "iops": _figure, "lat_us": _figure, "io_bytes": _figure,
    "runtime_ms": _figure, "read_mb_s": _figure, "write_mb_s": _figure,
    "lat_percentiles": _table_of(_check_figure, "latency percentile"),
    "bw_samples": _list_of(_check_figure, "bandwidth sample"),
    "usr_cpu": _maybe_figure, "sys_cpu": _maybe_figure, "machine_busy_pct": _maybe_figure,
}
_RUN_REQUIRED = ("mb_s", "iops", "lat_us", "io_bytes", "runtime_ms")
_SPEC_FIELDS = {
    "pattern": _one_of("SEQ", "RND"), "block": _check_positive, "queues": _check_positive,
    "threads": _check_positive, "startdelay": _delays, "ramp_time": _delays,
}
_TEST_FIELDS = {
    "index": _check_whole, "kind": _one_of(*(op.value for op in Op)),
    "label": _check_text, "mix_read": _optional(_check_percent),
    "fio_command": _texts, "sync_seconds": _maybe_figure,
    "sync_dirty_bytes": _maybe_figure, "sync_writeback_bytes": _maybe_figure,
    "error": _optional(_check_text), "unstable_threshold_pct": _figure,
    "cpu_limited": _optional(_check_text),
}
_TEST_REQUIRED = ("index", "spec", "kind", "runs")
_SETTINGS_FIELDS = {
    "target": _check_text, "preset": _check_text, "profile": _check_text,
    "mix": _optional(_check_percent), "mode": _one_of(*(m.value for m in Mode)),
    "size": _check_positive, "count": _check_positive, "measure": _maybe_figure,
    "interval": _maybe_figure, "data": _one_of(*(d.value for d in DataPattern)),
    "direct": _check_flag, "nocow": _check_flag, "only_test": _optional(_check_whole),
    "sweep": _optional(_check_text), "comment": _check_text, "unstable_pct": _figure,
}
_SYSTEM_FIELDS = {
    **{name: _check_text for name in ("target", "mountpoint", "device", "fstype",
                                      "mount_options", "model", "scheduler", "interface",
                                      "kernel", "os", "virtual", "hostname")},
    "total_bytes": _figure, "free_bytes": _figure, "rotational": _check_rotational,
    "interface_mb_s": _maybe_figure, "cpus": _optional(_check_positive),
}
_LAYOUT_FIELDS = {
    "extents": _check_whole, "fragments": _check_whole, "start_offset": _check_whole,
    "start_fraction": _maybe_figure,
}
_LAYOUT_REQUIRED = ("extents", "fragments", "start_offset")
_RESULT_FIELDS = {
    "diskmark_version": _check_text, "fio_version": _check_text, "started": _check_text,
    "finished": _check_text, "status": _one_of(*(st.value for st in Status)),
    "error": _optional(_check_text), "preset": _check_text, "profile": _check_text,
    "measure": _figure, "interval": _figure, "warnings": _texts, "ioengine": _check_text,
}
_RESULT_REQUIRED = ("settings", "system", "tests")


def _check_run(run: Any, where: str) -> None:
    _require(run, _RUN_REQUIRED, where)
    _check_fields(run, _RUN_FIELDS, f"{where} ")


def _check_test(t: Any, where: str) -> None:
    _require(t, _TEST_REQUIRED, where)
    if isinstance(t.get("label"), str) and isinstance(t.get("kind"), str):
        where = f"{where} ({t['label']} {t['kind']})"
    _check_fields(t, _TEST_FIELDS, f"{where} ")
    _require(t["spec"], ("pattern", "block", "queues", "threads"), f"{where} spec")
    _check_fields(t["spec"], _SPEC_FIELDS, f"{where} spec ")
    if not isinstance(t["runs"], list):
        raise ValueError(f"{where} runs is not a list")
    for n, run in enumerate(t["runs"], 1):
        _check_run(run, f"{where} pass {n}")
    if t.get("warmup") is not None:
        _check_run(t["warmup"], f"{where} warmup")


def validate_result(d: Any) -> SessionResult:
    """Check a ``diskmark.result/1`` dict in depth and parse it. Raises ValueError with the
    first problem found, naming the field: a missing field, text where a number belongs (or
    the reverse), a figure that is not a finite non-negative number, a count that is not a
    positive whole number, a value that is none of the allowed ones."""
    _require(d, ("schema",) + _RESULT_REQUIRED, "the result")
    if d["schema"] != RESULT_SCHEMA:
        raise ValueError(f"the result has schema {_brief(d['schema'])}, expected {RESULT_SCHEMA!r}")
    _check_fields(d, _RESULT_FIELDS, "")
    _require(d["settings"], ("size", "count"), "the settings")
    _check_fields(d["settings"], _SETTINGS_FIELDS, "settings ")
    if not isinstance(d["system"], dict):
        raise ValueError("the system facts are not an object")
    _check_fields(d["system"], _SYSTEM_FIELDS, "system ")
    if d.get("test_file") is not None:
        _require(d["test_file"], _LAYOUT_REQUIRED, "test_file")
        _check_fields(d["test_file"], _LAYOUT_FIELDS, "test_file ")
    if not isinstance(d["tests"], list):
        raise ValueError("tests is not a list")
    for i, t in enumerate(d["tests"]):
        _check_test(t, f"test {i + 1}")
    try:
        return SessionResult.from_dict(d)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as e:
        raise ValueError(f"the result does not parse: {type(e).__name__}: {e}") from None


def _schema_problem(schema: Any) -> str | None:
    """None if ``schema`` is ours and readable, else the reason why not."""
    if schema == SCHEMA:
        return None
    if isinstance(schema, str) and schema.startswith(SCHEMA_PREFIX):
        version = schema[len(SCHEMA_PREFIX):]
        if version.isdigit() and int(version) > SCHEMA_VERSION:
            return (f"written by a newer diskmark (schema {schema}); this version reads "
                    f"{SCHEMA}")
        return f"unknown schema version {_brief(schema)}"
    if schema is None:
        return "not a diskmark file (no schema field)"
    return f"not a diskmark file (schema {_brief(schema)})"


def parse_saved(data: Any) -> tuple[dict[str, Any], SessionResult]:
    """Validate the decoded JSON of a saved file; return (header fields, session).
    Raises ValueError with the reason."""
    if not isinstance(data, dict):
        raise ValueError(f"not a diskmark file (a JSON {type(data).__name__}, not an object)")
    problem = _schema_problem(data.get("schema"))
    if problem:
        raise ValueError(problem)
    _require(data, ("kind", "name", "saved", "result"), "the file")
    if data["kind"] not in KINDS:
        raise ValueError(f"unknown kind {_brief(data['kind'])}")
    for name in ("name", "saved"):
        if not isinstance(data[name], str):
            raise ValueError(f"{name} must be text, not {_brief(data[name])}")
    note = data.get("note", "")
    if not isinstance(note, str):
        raise ValueError(f"note must be text, not {_brief(note)}")
    session = validate_result(data["result"])
    header = {"kind": data["kind"], "name": data["name"], "note": note, "saved": data["saved"],
              "diskmark_version": str(data.get("diskmark_version", ""))}
    return header, session


def read_json(path: Path) -> Any:
    """Read and decode a JSON file. Raises ValueError (bad content, or not a regular file:
    a FIFO or a link to a device among the saved files is damaged, never read) or OSError."""
    raw = read_regular_file(path, MAX_FILE_BYTES)
    if not raw:
        raise ValueError("empty file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    if not text.strip():
        raise ValueError("empty file (only whitespace)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        ends_early = e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string")
        cut = " (truncated?)" if ends_early else ""
        raise ValueError(f"not valid JSON{cut}: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None


def _dumps(d: dict[str, Any]) -> str:
    try:
        return json_utf8(json.dumps(d, indent=2, ensure_ascii=False, allow_nan=False)) + "\n"
    except ValueError as e:  # NaN or infinity somewhere in the figures
        raise StoreError(f"cannot save a result with non-finite figures: {e}") from None


def _session_problem(session: SessionResult) -> str | None:
    """Why a session cannot be saved (e.g. non-finite figures), or None."""
    try:
        validate_result(json.loads(json.dumps(session.to_dict())))
    except ValueError as e:
        return str(e)
    return None


# --- the store ---------------------------------------------------------------------------

#: A run's id: when it started (UTC) and a random part, e.g. 20260101T045959Z-3fa2c1.
HISTORY_ID = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{6}")


class Store:
    """History and baselines under ``root`` (default: the data directory, read each time so
    ``DISKMARK_HOME`` set later still applies), in one SQLite file (diskmark.database).

    The JSON directories of earlier versions (``history/``, ``baselines/``) are still
    watched: a file found there (left by an older diskmark, or copied in by hand) is
    imported the next time that kind is listed or looked up, checked against what was
    written, and only then moved aside to ``imported-json/``; a file that cannot be imported
    stays where it is and is listed with the reason (see diskmark.legacy_json)."""

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
    def db(self, create: bool = True) -> Iterator[sqlite3.Connection | None]:
        """A connection to the database; failures become StoreIOError (exit status 1) with
        the file named. Yields None when ``create`` is False and there is no file yet."""
        try:
            with database.connect(self.database, create) as conn:
                yield conn
        except database.DatabaseError as e:
            raise StoreIOError(str(e)) from None
        except sqlite3.Error as e:
            raise StoreIOError(f"cannot write {self.database}: {e}") from None
        except OSError as e:
            raise StoreIOError(_write_failure(self.database, e)) from None

    # --- rows and entries ----------------------------------------------------------------

    def _entry(self, row: database.Row, text: str | None) -> Entry:
        """The full entry of a row: its document parsed and checked (a row that fails is
        listed as damaged, with the reason)."""
        entry = Entry(name=row.name, note=row.note, saved=row.saved, path=self.database,
                      kind=row.kind, diskmark_version=row.diskmark_version, id=row.id)
        try:
            doc = json.loads(text) if text is not None else None
            if doc is None:
                raise ValueError("it was removed meanwhile")
            entry.session = validate_result(doc)
            entry.document = doc
        except (ValueError, RecursionError) as e:
            entry.damaged = str(e)
        return entry

    def entry(self, row: database.Row) -> Entry:
        """The full entry (document parsed) of a row from a listing."""
        with self.db(create=False) as conn:
            text = database.document(conn, row.id) if conn is not None else None
        if text is None:
            raise NotFound(f"no {'baseline' if row.kind == 'baseline' else 'history entry'} "
                           f"{row.name!r} (deleted meanwhile?)")
        return self._entry(row, text)

    def _all(self, kind: str) -> list[Entry]:
        with self.db(create=False) as conn:
            if conn is None:
                return []
            rows = conn.execute(f"SELECT {database.ROW_COLUMNS}, document FROM results "
                                f"WHERE kind = ?", (kind,)).fetchall()
        return [self._entry(database.Row(*r[:-1]), r[-1]) for r in rows]

    def _adopt(self, kind: str) -> list[Entry]:
        """Import what lies in that kind's JSON directory; returns the files kept there."""
        from diskmark import legacy_json

        return legacy_json.adopt(self, kind)

    def load(self, path: Path, kind: str) -> Entry:
        """Read one JSON file as an Entry; never raises: problems become ``damaged``."""
        from diskmark import legacy_json

        return legacy_json.load(path, kind)[0]

    # --- reading -------------------------------------------------------------------------

    def history(self) -> list[Entry]:
        """Every history entry, newest first, documents parsed; JSON files that could not be
        imported included (by modification time). For a long history use :meth:`page`."""
        return sorted(self._adopt("history") + self._all("history"), key=_age_key, reverse=True)

    def page(self, limit: int | None = 50, offset: int = 0,
             filters: database.Filters | None = None, kind: str = "history") -> list[database.Row]:
        """One page of the history (or baselines), newest first, without parsing a document."""
        with self.db(create=False) as conn:
            return database.page(conn, kind, limit, offset, filters) if conn is not None else []

    def count(self, filters: database.Filters | None = None, kind: str = "history") -> int:
        with self.db(create=False) as conn:
            return database.count(conn, kind, filters) if conn is not None else 0

    def distinct(self, column: str, kind: str = "history") -> list[tuple[str, int]]:
        """The devices (targets, hosts) in the history, with how many runs each."""
        with self.db(create=False) as conn:
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
        with self.db(create=False) as conn:
            row = database.by_name(conn, "baseline", norm) if conn is not None else None
            text = database.document(conn, row.id) if row is not None else None
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
            hint = f" (saved baselines: {known})" if known else " (no baselines are saved yet)"
            raise NotFound(f"no baseline named {normalize_name(name)!r}{hint}")
        if entry.damaged and not allow_damaged:
            raise Damaged(f"baseline {name!r} ({entry.path}) is damaged: {entry.damaged}")
        return entry

    def find_history(self, entry_id: str) -> list[database.Row]:
        """The runs whose id is ``entry_id`` or starts with it (as git takes a short id)."""
        entry_id = entry_id.strip().removesuffix(".json")
        if not entry_id:
            return []
        with self.db(create=False) as conn:
            if conn is None:
                return []
            exact = database.by_name(conn, "history", entry_id)
            return [exact] if exact is not None else database.by_prefix(conn, "history", entry_id)

    def get_history(self, entry_id: str) -> Entry:
        """The run ``entry_id`` (its full id or a unique beginning of it); NotFound,
        Damaged (with the reason) or StoreError when the beginning fits several."""
        self._adopt("history")
        found = self.find_history(entry_id)
        if not found:
            kept = next((e for e in self._adopt("history")
                         if entry_id in (e.path.stem, e.path.name)), None)
            if kept is not None:
                raise Damaged(f"history entry {entry_id!r} is damaged: {kept.damaged}")
            raise NotFound(f"no history entry {entry_id!r}")
        if len(found) > 1:
            raise StoreError(f"{entry_id!r} fits several runs ({', '.join(r.name for r in found)}"
                             f"{', …' if len(found) >= 5 else ''}); give more of the id")
        entry = self.entry(found[0])
        if entry.damaged:
            raise Damaged(f"history entry {entry.name!r} is damaged: {entry.damaged}")
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
            raise NameTaken(f"a baseline named {name!r} exists already ({self.database})" if
                            kind == "baseline" else f"history entry {name!r} exists already") \
                from None
        except sqlite3.Error as e:
            raise StoreIOError(f"cannot write {self.database}: {e}") from None
        except ValueError as e:  # NaN or infinity somewhere in the figures
            raise StoreError(f"cannot save a result with non-finite figures: {e}") from None
        return Entry(name=name, note=note, saved=saved, path=self.database, kind=kind,
                     session=SessionResult.from_dict(document), diskmark_version=version,
                     id=row_id, document=document)

    def save_history(self, session: SessionResult) -> Entry:
        """Keep a finished session in the history. Returns its entry (name = its id)."""
        problem = _session_problem(session)
        if problem:
            raise StoreError(f"cannot save this result: {problem}")
        return self.add_history(_plain(session.to_dict()))

    def add_history(self, document: dict[str, Any], saved: str | None = None,
                    version: str = "", entry_id: str | None = None,
                    conn: sqlite3.Connection | None = None) -> Entry:
        """Keep a (validated) result document in the history under a new id, or
        ``entry_id`` when it is free."""
        stamp = _started_stamp(str(document.get("started", "")))
        wanted = [entry_id] if entry_id and HISTORY_ID.fullmatch(entry_id) else []
        for candidate in wanted + [f"{stamp}-{secrets.token_hex(3)}" for _ in range(5)]:
            try:
                return self._insert("history", candidate, "", document, saved, version,
                                    conn=conn)
            except NameTaken:
                continue  # the same second and the same random id: try another
        raise StoreIOError(f"cannot find a free id for a run in {self.database}")

    def import_history(self, sources: list[Path]) -> list[tuple[Path, str, str]]:
        """Import result files (``diskmark run --format json`` reports, or exports) into the
        history, a batch of files per transaction. Returns (file, outcome, detail) for each:
        ``imported`` (detail: the new id), ``duplicate`` (detail: the id of the run it
        repeats) or ``invalid`` (detail: why; nothing of it was written)."""
        from diskmark import legacy_json

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
                        same = database.by_digest(conn, "history", database.digest(document))
                        if same is not None:
                            out.append((src, "duplicate", same.name))
                            continue
                        # an export of this history (<id>.json) keeps its id where it is free
                        entry_id = header.get("name") if header.get("kind") == "history" else \
                            Path(src).stem
                        entry = self.add_history(document, header.get("saved"),
                                                 header.get("diskmark_version", ""), entry_id,
                                                 conn=conn)
                        out.append((src, "imported", entry.name))
        return out

    def save_baseline(self, session: SessionResult, name: str, note: str = "",
                      replace: bool = False) -> Entry:
        """Save ``session`` as baseline ``name``. Raises NameTaken if the name exists (or a
        damaged file of that name lies in the baselines directory) unless ``replace``; such
        a file is first moved aside to ``<file>.damaged-<timestamp>``."""
        name = check_name(name)
        if not isinstance(note, str):
            raise StoreError("a note must be text")
        problem = _session_problem(session)
        if problem:
            raise StoreError(f"cannot save this result: {problem}")
        if not any(t.complete for t in session.tests):
            raise StoreError("cannot save a result without any measured test as a baseline")
        return self._save_baseline(_plain(session.to_dict()), name, note, replace)

    def _save_baseline(self, document: dict[str, Any], name: str, note: str,
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
            what = f"is damaged ({existing.damaged})" if existing.damaged else "exists already"
            where = existing.path if existing.id is None else self.database
            raise NameTaken(f"a baseline named {name!r} {what} ({where})")
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
        with self.db(create=False) as conn:
            row = database.by_name(conn, "baseline", name) if conn is not None else None
            return self._entry(row, database.document(conn, row.id)) if row is not None else None

    def _move_aside(self, path: Path) -> Path:
        aside = path.with_name(f"{path.name}.damaged-{_stamp()}")
        n = 1
        while aside.exists():
            n += 1
            aside = path.with_name(f"{path.name}.damaged-{_stamp()}-{n}")
        try:
            os.rename(path, aside)
        except OSError as e:
            raise StoreIOError(f"cannot move the damaged {path} aside: {e.strerror or e}") from None
        return aside

    def _update(self, entry: Entry, **fields: str) -> None:
        try:
            with self.db() as conn, database.transaction(conn):
                database.update_header(conn, entry.id, **fields)
        except sqlite3.IntegrityError:
            raise NameTaken(f"a baseline named {fields.get('name')!r} exists already") from None

    def rename_baseline(self, old: str, new: str) -> Entry:
        entry = self.get_baseline(old)
        new = check_name(new)
        if new == entry.name:
            return entry
        clash = self.conflict(new)
        if clash is not None:
            what = f"is damaged ({clash.damaged})" if clash.damaged else "exists already"
            raise NameTaken(f"a baseline named {new!r} {what} ({clash.path})")
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

    def delete_history(self, entry: Entry | str | database.Row) -> None:
        if isinstance(entry, database.Row):
            with self.db() as conn, database.transaction(conn):
                database.delete(conn, [entry.id])
            return
        if isinstance(entry, str):
            kept = next((e for e in self._adopt("history")
                         if entry in (e.path.stem, e.path.name)), None)
            entry = kept if kept is not None else self.get_history(entry)
        self._delete(entry)

    def prune(self, keep: int | None = None, older_than_days: float | None = None,
              filters: database.Filters | None = None, dry_run: bool = False) -> list[database.Row]:
        """Remove runs from the history (never baselines): all but the ``keep`` newest, or
        those that started more than ``older_than_days`` ago, among those ``filters``
        match. Returns what was (or, with ``dry_run``, would be) removed."""
        with self.db(create=False) as conn:
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
            raise Damaged(f"history entry {history_entry.name!r} is damaged: {history_entry.damaged}")
        if history_entry.document is None:
            return self.save_baseline(history_entry.session, name, note, replace=replace)
        # the run's document as it was saved (fields of a newer diskmark included), so the
        # baseline and the run are one and the same in a trend
        name = check_name(name)
        if not isinstance(note, str):
            raise StoreError("a note must be text")
        if not database.measured_figures(history_entry.document):
            raise StoreError("cannot save a result without any measured test as a baseline")
        return self._save_baseline(history_entry.document, name, note, replace)

    # --- export / import -----------------------------------------------------------------

    def export_baseline(self, name: str, dest: Path, force: bool = False) -> Path:
        """Write baseline ``name`` to ``dest`` (a file, or an existing directory to put it
        in) as a ``diskmark.saved/1`` file. Never replaces an existing file unless
        ``force``; a FIFO or character device (``/dev/stdout``) is written into, never
        replaced (see diskmark.destination). Returns the path written."""
        entry = self.get_baseline(name)
        return self.export(entry, Path(dest), _dumps(entry.to_file_dict()), force)

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
        from diskmark import legacy_json

        src = Path(src)
        header, document = legacy_json.read_result_file(src)
        if not database.measured_figures(document):
            raise InvalidFile(f"{src} cannot be imported: it holds no measured test")
        try:
            chosen = check_name(name if name is not None else header["name"])
        except StoreError as e:
            raise InvalidFile(f"{src} cannot be imported: {e}") from None
        return self._save_baseline(document, chosen, header["note"], replace)


def _plain(document: dict[str, Any]) -> dict[str, Any]:
    """The document as it reads back from JSON (tuples become lists, and so on), so that what
    is returned after a save equals what a later read gives."""
    try:
        return json.loads(json_utf8(json.dumps(document, ensure_ascii=False, allow_nan=False)))
    except ValueError as e:
        raise StoreError(f"cannot save a result with non-finite figures: {e}") from None


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


# --- listing -----------------------------------------------------------------------------


def _short_date(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).strftime("%Y/%m/%d %H:%M")
    except (TypeError, ValueError):
        return iso or "-"


def _mb(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def format_listing(entries: list[Entry]) -> str:
    """Baselines as a table: name, date of the run, device, filesystem and the headline test's
    read/write MB/s, then the note; damaged files flagged with their reason and path."""
    if not entries:
        return ""
    ok = [e for e in entries if e.ok]
    nw = max([4] + [len(e.name) for e in entries])
    dw = max([6] + [len(e.device) for e in ok])
    fw = max([2] + [len(e.fstype) for e in ok])
    head = (f"{'NAME':<{nw}}  {'RUN DATE':<16}  {'DEVICE':<{dw}}  {'FS':<{fw}}  "
            f"{'READ MB/s':>10}  {'WRITE MB/s':>10}  HEADLINE TEST / NOTE")
    lines = [head]
    for e in entries:
        if not e.ok:
            lines.append(f"{e.name:<{nw}}  DAMAGED: {e.damaged} [{e.path}]")
            continue
        label, read, write = e.headline()
        extra = " / ".join(x for x in (label, e.note.replace("\n", " ")) if x)
        lines.append(f"{e.name:<{nw}}  {_short_date(e.started or e.saved):<16}  "
                     f"{e.device or '-':<{dw}}  {e.fstype or '-':<{fw}}  "
                     f"{_mb(read):>10}  {_mb(write):>10}  {extra}")
    return "\n".join(lines) + "\n"
