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
import math
import os
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from diskmark import __version__, paths
from diskmark.atomic import remove_stale_temps, write_atomic
from diskmark.destination import Destination
from diskmark.destination import DestinationError as UnusableDestination
from diskmark.destination import DestinationExists as FileInTheWay
from diskmark.destination import DestinationUnwritable
from diskmark.display import json_utf8
from diskmark.formatting import format_date
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
    """One saved file. ``session`` is None exactly when ``damaged`` holds the reason."""

    name: str  # baselines: the display name; history: the file's id; damaged: the file stem
    note: str
    saved: str  # ISO 8601, when it was written
    path: Path
    kind: str  # "history" or "baseline"
    session: SessionResult | None = None
    damaged: str | None = None
    diskmark_version: str = ""

    @property
    def ok(self) -> bool:
        return self.damaged is None and self.session is not None

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
                "result": self.session.to_dict()}


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
                                      "kernel", "os", "virtual")},
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
        problem = _session_problem(session)
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
        problem = _session_problem(session)
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


# --- listing -----------------------------------------------------------------------------


def _short_date(iso: str) -> str:
    return format_date(iso, seconds=False, missing="-")


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
