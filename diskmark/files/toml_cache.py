"""Preset and theme files are TOML, read at every start; what each parsed to is kept.

Seven files are read before the first frame. Importing tomllib and parsing them cost every
start 3 ms; reading what they parsed to from one JSON file costs a tenth of that. An entry
is used only while its file is the same file, unchanged: device, inode, size, and the
modification and change times (a change time moves on every write, whatever the
modification time is set to). Anything else is parsed anew. The data from the cache goes
through the same checks as freshly parsed data, and a cache that cannot be read or written
only makes the start slower. It lives in the cache directory (XDG_CACHE_HOME).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diskmark.files import paths
from diskmark.files.atomic import write_atomic
from diskmark.files.regular_file import read_regular_file

SCHEMA = "diskmark.toml-cache/1"
FILE_NAME = "parsed-toml.json"
CACHE_MAX_BYTES = 16 * 1024 * 1024

_entries: dict[str, Any] | None = None  # path -> {"id": [...], "data": {...}}, once read
_new: dict[str, str] = {}  # path -> its new entry, encoded when parsed (what is handed out
# may be changed by whoever it was handed to; what is saved cannot be)


def cache_file() -> Path:
    return paths.cache_dir() / FILE_NAME


def parse(path: Path, read: Callable[[], str]) -> tuple[dict[str, Any], str | None]:
    """What the TOML file at ``path`` holds, and its text when it was read (None when the
    cache answered). ``read`` returns the text (it checks the file is a regular one and not
    too large) and raises as it does; tomllib raises TOMLDecodeError and RecursionError."""
    ident = _identity(path)
    entries = _load()
    key = os.fsencode(path).decode("utf-8", "surrogateescape")
    entry = entries.get(key)
    if ident is not None and isinstance(entry, dict) and entry.get("id") == ident \
            and isinstance(entry.get("data"), dict):
        return entry["data"], None
    import tomllib

    text = read()
    data = tomllib.loads(text)
    after = _identity(path)
    if ident is not None and after == ident:  # not changed while it was read
        try:  # a date or a time (TOML has them, JSON not): not kept
            _new[key] = json.dumps({"id": ident, "data": data}, ensure_ascii=True,
                                   separators=(",", ":"))
        except (TypeError, ValueError):
            pass
    return data, text


def save() -> None:
    """Add what was parsed to the cache file (read again, not what was handed out), and
    leave out the files that are gone."""
    if not _new:
        return
    files = _read()
    files.update({k: json.loads(v) for k, v in _new.items()})
    _new.clear()
    kept = {k: v for k, v in files.items() if _exists(k)}
    try:
        write_atomic(cache_file(), json.dumps({"schema": SCHEMA, "files": kept},
                                              ensure_ascii=True, separators=(",", ":")))
    except (OSError, UnicodeError):
        pass  # a read-only or full cache directory: the next start parses again


def _load() -> dict[str, Any]:
    global _entries
    if _entries is None:
        _entries = _read()
    return _entries


def _read() -> dict[str, Any]:
    try:
        doc = json.loads(read_regular_file(cache_file(), CACHE_MAX_BYTES))
    except (OSError, ValueError, RecursionError):
        return {}  # none yet, or damaged: it is written anew
    files = doc.get("files") if isinstance(doc, dict) and doc.get("schema") == SCHEMA else None
    return files if isinstance(files, dict) else {}


def _identity(path: Path) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _exists(key: str) -> bool:
    try:
        return os.path.exists(os.fsdecode(key.encode("utf-8", "surrogateescape")))
    except (UnicodeError, ValueError):
        return False


def forget() -> None:
    """Drop what was read (tests: the next parse reads the cache file again)."""
    global _entries
    _entries = None
    _new.clear()
