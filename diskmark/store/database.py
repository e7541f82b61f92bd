"""The SQLite file that holds the history and the baselines: schema, migrations, queries.

One file in the data directory (``diskmark.sqlite3``), opened per operation with WAL, a
busy timeout and ``synchronous=FULL``: a reader never waits for a writer, two diskmark
processes saving at once queue for a few milliseconds instead of failing, and a commit that
returned is on disk, so a ``kill -9`` or a power cut loses nothing that was committed (an
unfinished transaction is rolled back by SQLite on the next open).

Each saved result is one row of ``results``: the full ``diskmark.result/1`` document as JSON
text, exactly as it was saved (unknown fields of a newer diskmark included), beside indexed
columns copied out of it for listings and filters (when, host, target, device, model,
filesystem, preset, profile, mode, I/O, the headline figures). ``figures`` holds each
measured test's best figures and the spread of its passes, so a trend over thousands of runs
reads a few numbers per run instead of parsing every document (both copied out by
:mod:`diskmark.store.indexed`).

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` brings any older
file up to date inside one transaction, and a file from a newer diskmark is refused with a
clear message rather than written to. Nothing here imports Textual or knows about Entry.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diskmark.locale import _

# what is copied out of a document, used here and by the store
from diskmark.store.indexed import canonical, columns_of, digest, measured_figures

FILE_NAME = "diskmark.sqlite3"
BUSY_TIMEOUT_MS = 30_000  # a writer waits this long for another process's transaction

# The columns copied out of a document; every one of them can be filtered or sorted on.
_INDEXED = ("started", "started_ts", "host", "target", "device", "model", "fstype", "preset",
            "profile", "mode", "io", "size", "count", "status", "head_label", "head_read",
            "head_write", "tests")

_V1 = """
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('history', 'baseline')),
    name TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    saved TEXT NOT NULL,
    diskmark_version TEXT NOT NULL DEFAULT '',
    started TEXT NOT NULL DEFAULT '',
    started_ts REAL,
    host TEXT NOT NULL DEFAULT '',
    target TEXT NOT NULL DEFAULT '',
    device TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    fstype TEXT NOT NULL DEFAULT '',
    preset TEXT NOT NULL DEFAULT '',
    profile TEXT NOT NULL DEFAULT '',
    mode TEXT NOT NULL DEFAULT '',
    io TEXT NOT NULL DEFAULT '',
    size INTEGER,
    count INTEGER,
    status TEXT NOT NULL DEFAULT '',
    head_label TEXT NOT NULL DEFAULT '',
    head_read REAL,
    head_write REAL,
    tests INTEGER NOT NULL DEFAULT 0,
    digest TEXT NOT NULL,
    document TEXT NOT NULL,
    UNIQUE (kind, name)
);
CREATE INDEX results_when ON results (kind, started_ts DESC, id DESC);
CREATE INDEX results_device ON results (kind, device, started_ts DESC);
CREATE INDEX results_target ON results (kind, target, started_ts DESC);
CREATE INDEX results_host ON results (kind, host, started_ts DESC);
CREATE INDEX results_digest ON results (digest);
CREATE TABLE figures (
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    op TEXT NOT NULL,
    mix_read INTEGER,
    mb_s REAL NOT NULL,
    iops REAL NOT NULL,
    lat_us REAL NOT NULL,
    passes INTEGER NOT NULL,
    spread_mb_s REAL NOT NULL,
    spread_iops REAL NOT NULL,
    spread_lat_us REAL NOT NULL
);
CREATE INDEX figures_test ON figures (label, op, result_id);
CREATE INDEX figures_result ON figures (result_id);
"""

#: Scripts that take the schema from version n to n + 1 (index n). Append, never edit: a
#: file written by this diskmark must open in every later one.
MIGRATIONS: list[str] = [_V1]
SCHEMA_VERSION = len(MIGRATIONS)


class DatabaseError(Exception):
    """The file cannot be used: from a newer diskmark, not a database, unreadable. The
    message is fit to show."""


class NewerSchema(DatabaseError):
    """Written by a newer diskmark: read nothing, write nothing."""


@dataclass(frozen=True)
class Row:
    """A saved result as listings see it: the indexed columns, not the document."""

    id: int
    kind: str
    name: str
    note: str
    saved: str
    diskmark_version: str
    started: str
    started_ts: float | None
    host: str
    target: str
    device: str
    model: str
    fstype: str
    preset: str
    profile: str
    mode: str
    io: str
    size: int | None
    count: int | None
    status: str
    head_label: str
    head_read: float | None
    head_write: float | None
    tests: int
    digest: str


ROW_COLUMNS = ", ".join(f.name for f in Row.__dataclass_fields__.values())


def _row(values: sqlite3.Row | tuple[Any, ...]) -> Row:
    return Row(*values)


# --- the file ----------------------------------------------------------------------------


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the schema up to :data:`SCHEMA_VERSION` in one transaction (two processes
    opening a new file at once: the second finds it done)."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    _refuse_newer(path, version)
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[step].split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _refuse_newer(path: Path, version: int) -> None:
    if version > SCHEMA_VERSION:
        raise NewerSchema(_("{path} was written by a newer diskmark (database schema {version}; "
                            "this version reads up to {ours}); it is left untouched").format(
                                path=path, version=version, ours=SCHEMA_VERSION))


def _written_version(path: Path) -> int:
    """The schema version in the file's header (``PRAGMA user_version``, bytes 60-63), read
    without SQLite: opening a file is already a change (its journal switched to WAL, -wal and
    -shm files beside it), which a newer diskmark's file must not get. 0 for a file that is
    not an SQLite database, or not yet one (SQLite then says what is wrong, or creates it)."""
    try:
        with open(path, "rb") as f:
            header = f.read(100)
    except OSError:
        return 0
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        return 0
    return int.from_bytes(header[60:64], "big", signed=True)  # as SQLite reads it


def _use_wal(conn: sqlite3.Connection) -> None:
    """Switch a new file to WAL (it stays so). SQLite answers "database is locked" at once,
    without waiting out the busy timeout, when another process opens the file meanwhile (two
    diskmark processes starting on a new data directory): try again until the timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


@contextmanager
def connect(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to the database at ``path`` (made when there is none), migrated,
    closed afterwards. Transactions are explicit (``with transaction(conn)``)."""
    _refuse_newer(path, _written_version(path))  # before SQLite touches it
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except sqlite3.Error as e:
        # TRANSLATORS: {error} is SQLite's own words, in English
        raise DatabaseError(_("cannot open {path}: {error}").format(path=path, error=e)) from None
    try:
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            _use_wal(conn)
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            _migrate(conn, path)
        except sqlite3.DatabaseError as e:
            raise DatabaseError(_("cannot use {path}: {error}").format(path=path,
                                                                      error=e)) from None
        yield conn
    finally:
        conn.close()


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT: takes the write lock at once (waiting up to the busy
    timeout for another process), so two savers never deadlock on a lock upgrade."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:  # SQLite ends it itself after some errors (a full disk)
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


# --- writing -----------------------------------------------------------------------------


def insert(conn: sqlite3.Connection, kind: str, name: str, note: str, saved: str,
           diskmark_version: str, document: dict[str, Any]) -> int:
    """Add one result (inside the caller's transaction); returns its id. Raises
    sqlite3.IntegrityError when ``(kind, name)`` is taken."""
    cols = columns_of(document)
    names = ["kind", "name", "note", "saved", "diskmark_version", *_INDEXED, "digest", "document"]
    values = [kind, name, note, saved, diskmark_version, *(cols[c] for c in _INDEXED),
              digest(document), canonical(document)]
    cur = conn.execute(f"INSERT INTO results ({', '.join(names)}) VALUES "
                       f"({', '.join('?' * len(names))})", values)
    result_id = cur.lastrowid
    assert result_id is not None  # an INSERT gives its row an id
    conn.executemany("INSERT INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     [(result_id, *f) for f in measured_figures(document)])
    return int(result_id)


def update_header(conn: sqlite3.Connection, result_id: int, **fields: str) -> None:
    """Change a row's name or note (rename, set_note)."""
    sets = ", ".join(f"{k} = ?" for k in fields)
    conn.execute(f"UPDATE results SET {sets} WHERE id = ?", [*fields.values(), result_id])


def delete(conn: sqlite3.Connection, ids: list[int]) -> int:
    """Remove rows (their figures go with them); returns how many."""
    total = 0
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        total += conn.execute(f"DELETE FROM results WHERE id IN ({', '.join('?' * len(chunk))})",
                              chunk).rowcount
    return total


# --- reading -----------------------------------------------------------------------------


@dataclass
class Filters:
    """What a listing is narrowed to; empty strings match everything. ``device``,
    ``target`` and ``host`` match exactly or, unless ``exact``, as a substring."""

    device: str = ""
    target: str = ""
    host: str = ""
    exact: bool = False  # a value chosen from a list: /dev/sda must not match /dev/sda1

    def where(self) -> tuple[str, list[Any]]:
        clauses, args = [], []
        for column in ("device", "target", "host"):
            value = getattr(self, column)
            if value and self.exact:
                clauses.append(f"{column} = ?")
                args.append(value)
            elif value:
                clauses.append(f"({column} = ? OR instr({column}, ?) > 0)")
                args += [value, value]
        return (" AND " + " AND ".join(clauses) if clauses else ""), args


def page(conn: sqlite3.Connection, kind: str, limit: int | None, offset: int = 0,
         filters: Filters | None = None, oldest_first: bool = False) -> list[Row]:
    """Rows of ``kind``, newest first (runs without a start time last), ``limit`` of them
    from ``offset``: an indexed range scan, whatever the number of rows."""
    extra, args = (filters or Filters()).where()
    order = "ASC" if oldest_first else "DESC"
    sql = (f"SELECT {ROW_COLUMNS} FROM results WHERE kind = ?{extra} "
           f"ORDER BY started_ts IS NULL, started_ts {order}, id {order}")
    params: list[Any] = [kind, *args]
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        params += [limit, offset]
    return [_row(r) for r in conn.execute(sql, params)]


def count(conn: sqlite3.Connection, kind: str, filters: Filters | None = None) -> int:
    extra, args = (filters or Filters()).where()
    found: int = conn.execute(f"SELECT count(*) FROM results WHERE kind = ?{extra}",
                              [kind, *args]).fetchone()[0]
    return found


def by_name(conn: sqlite3.Connection, kind: str, name: str) -> Row | None:
    found = conn.execute(f"SELECT {ROW_COLUMNS} FROM results WHERE kind = ? AND name = ?",
                         (kind, name)).fetchone()
    return _row(found) if found else None


def by_prefix(conn: sqlite3.Connection, kind: str, prefix: str, limit: int = 5) -> list[Row]:
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return [_row(r) for r in conn.execute(
        f"SELECT {ROW_COLUMNS} FROM results WHERE kind = ? AND name LIKE ? ESCAPE '\\' "
        f"ORDER BY name LIMIT ?", (kind, escaped + "%", limit))]


def by_digest(conn: sqlite3.Connection, kind: str, fingerprint: str) -> Row | None:
    found = conn.execute(f"SELECT {ROW_COLUMNS} FROM results WHERE kind = ? AND digest = ? "
                         f"LIMIT 1", (kind, fingerprint)).fetchone()
    return _row(found) if found else None


def document(conn: sqlite3.Connection, result_id: int) -> str | None:
    found = conn.execute("SELECT document FROM results WHERE id = ?", (result_id,)).fetchone()
    return found[0] if found else None


def distinct(conn: sqlite3.Connection, kind: str, column: str) -> list[tuple[str, int]]:
    """The values of ``device``, ``target`` or ``host`` with how many rows have each."""
    if column not in ("device", "target", "host", "model"):
        raise ValueError(column)
    return [(v, n) for v, n in conn.execute(
        f"SELECT {column}, count(*) FROM results WHERE kind = ? GROUP BY {column} "
        f"ORDER BY count(*) DESC, {column}", (kind,))]


@dataclass(frozen=True)
class Point:
    """One test's figures in one saved result, for a trend."""

    result_id: int
    kind: str
    name: str
    started: str
    started_ts: float | None
    device: str
    model: str
    host: str
    digest: str
    mix_read: int | None
    mb_s: float
    iops: float
    lat_us: float
    passes: int
    spread_mb_s: float
    spread_iops: float
    spread_lat_us: float


def points(conn: sqlite3.Connection, label: str, op: str, filters: Filters | None = None,
           mix_read: int | None = None) -> list[Point]:
    """Every saved figure of test ``label``/``op`` (history and baselines), oldest first."""
    extra, args = (filters or Filters()).where()
    extra = extra.replace("device", "r.device").replace("target", "r.target") \
        .replace("host", "r.host")
    mix = " AND f.mix_read = ?" if mix_read is not None else ""
    params = [label, op, *([mix_read] if mix_read is not None else []), *args]
    sql = ("SELECT r.id, r.kind, r.name, r.started, r.started_ts, r.device, r.model, r.host, "
           "r.digest, f.mix_read, f.mb_s, f.iops, f.lat_us, f.passes, f.spread_mb_s, "
           "f.spread_iops, f.spread_lat_us FROM figures f JOIN results r ON r.id = f.result_id "
           f"WHERE f.label = ? AND f.op = ?{mix}{extra} "
           "ORDER BY r.started_ts IS NULL, r.started_ts, r.id")
    return [Point(*r) for r in conn.execute(sql, params)]


def saved_tests(conn: sqlite3.Connection,
                filters: Filters | None = None) -> list[tuple[str, str, int]]:
    """(label, op, how many results) of every test ever saved (in the results ``filters``
    match), most common first."""
    extra, args = (filters or Filters()).where()
    extra = extra.replace("device", "r.device").replace("target", "r.target") \
        .replace("host", "r.host")
    return [tuple(r) for r in conn.execute(
        "SELECT f.label, f.op, count(*) FROM figures f JOIN results r ON r.id = f.result_id "
        f"WHERE 1{extra} GROUP BY f.label, f.op ORDER BY count(*) DESC, f.label, f.op", args)]
