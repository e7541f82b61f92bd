"""A TOML file a user may have put in diskmark's config directory (a preset, a theme), read
so that whatever is there ends in one ``file:line: reason``, never in a hang or a crash.

Presets and themes are read the same way and must fail the same way: only a regular file,
and a bounded amount (a FIFO or a link to /dev/zero among them must not hang the app or fill
its memory); nesting deep enough to exhaust the parser is a reason like any other; and a
problem the reader finds after parsing is placed on the line that holds what it names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from diskmark.files.regular_file import read_regular_file
from diskmark.locale import _


def read_table(path: Path, max_bytes: int, what: str,
               error: type[ValueError]) -> tuple[dict[str, Any], Callable[[], str]]:
    """What the file at ``path`` holds, and a way to its text (for :func:`line_of`; the text
    is not read again when parsing needed it). Raises ``error("file[:line]: reason")``;
    ``what`` names what the file should be (``N_("a preset")``, translated here)."""
    read_text: str | None = None

    def read() -> str:
        nonlocal read_text
        if read_text is None:
            try:
                read_text = read_regular_file(path, max_bytes).decode("utf-8")
            except ValueError as e:  # not a regular file, too large, not UTF-8
                raise error(_("{path}: cannot read: {error}").format(path=path, error=e)) from None
            except OSError as e:
                raise error(_("{path}: cannot read: {error}").format(
                    path=path, error=e.strerror or e)) from None
        return read_text

    import tomllib  # not at import: the command line's start does not always need it

    try:
        data = tomllib.loads(read())
    except RecursionError:
        # TRANSLATORS: {what} is what the file should be ("a preset", "a theme")
        raise error(_("{path}: not {what}: nested too deeply").format(
            path=path, what=_(what))) from None
    except ValueError as e:  # tomllib.TOMLDecodeError
        if isinstance(e, error):
            raise
        line = getattr(e, "lineno", None)  # Python 3.14+; before, only in the message
        msg = getattr(e, "msg", None) or str(e)
        m = re.search(r"\s*\(at line ([0-9]+), column [0-9]+\)$", msg)
        if m:
            line = line or int(m.group(1))
            msg = msg[:m.start()]
        where = f"{path}:{line}" if line else str(path)
        raise error(f"{where}: {msg}") from None
    return data, read


def line_of(text: str, message: str, keys: str = r"([A-Za-z0-9_-]+)") -> int:
    """Best-effort line of a problem found after parsing: the line holding a value the
    message quotes ('…'), else the first ``key =`` line of the key the message starts with
    (``keys`` is a pattern whose first group is that key, after any table prefix)."""
    lines = text.splitlines()
    for value in re.findall(r"'([^']+)'", message):
        for n, line in enumerate(lines, 1):
            if value in line and not line.lstrip().startswith("#"):
                return n
    m = re.match(keys, message)
    if m:
        for n, line in enumerate(lines, 1):
            if re.match(rf"\s*{re.escape(m.group(1))}\s*=", line):
                return n
        for n, line in enumerate(lines, 1):
            if re.search(rf"\b{re.escape(m.group(1))}\b", line):
                return n
    return 1


def user_files(directory: Path) -> tuple[list[Path], str | None]:
    """The ``*.toml`` files in a user's directory, by name, and why they could not be listed
    (a missing directory is simply none)."""
    try:
        return (sorted(directory.glob("*.toml")) if directory.is_dir() else []), None
    except OSError as e:
        return [], _("{directory}: cannot list its files: {error}").format(
            directory=directory, error=e.strerror or e)


T = TypeVar("T")


def each_user_file(directory: Path, load: Callable[[Path], T], error: type[Exception],
                   odd: str, problems: list[str]) -> Iterator[tuple[Path, T]]:
    """Each file of a user's directory that ``load`` reads, with what it read. A file it
    refuses (``error``: ``file:line: reason``) or fails on in a way nobody foresaw goes on
    ``problems`` (the latter as ``odd``, a sentence with {path} and {error}) and the others
    are read all the same: one odd file must not cost a user every other preset, check or
    theme. Presets, checks and themes are gathered alike through here."""
    paths, unlisted = user_files(directory)
    problems += [unlisted] if unlisted else []
    for path in paths:
        try:
            item = load(path)
        except error as e:
            problems.append(str(e))
            continue
        except Exception as e:  # noqa: BLE001 - one odd file must not stop the others
            problems.append(odd.format(path=path, error=f"{type(e).__name__}: {e}"))
            continue
        yield path, item


_SEGMENT = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*')


def _dotted(text: str) -> list[str] | None:
    """``jobs."seq-write"`` as its parts, or None when it is not a dotted key."""
    parts, at = [], 0
    while True:
        m = _SEGMENT.match(text, at)
        if m is None:
            return None
        parts.append(next(g for g in m.groups() if g is not None))
        at = m.end()
        if at == len(text):
            return parts
        if text[at] != ".":
            return None
        at += 1


def line_of_key(text: str, path: tuple[str | int, ...]) -> int:
    """The line that defines ``path`` in a TOML text (``("thresholds", 1, "below")``: the key
    ``below`` of the second ``[[thresholds]]`` table; ``("jobs", "wal", "fio")``: ``fio =``
    under ``[jobs.wal]``), or the line of the longest part of it that has a line of its own
    (a key inside an inline table is on the line of that table); 1 when none has. Exact
    where :func:`line_of` guesses: a reader that knows where it found a problem says so."""
    table: list[str | int] = []
    arrays: dict[tuple[str | int, ...], int] = {}
    found: dict[tuple[str | int, ...], int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        header = re.fullmatch(r"(\[\[?)(.*?)(\]\]?)\s*(?:#.*)?", stripped)
        if header and header.group(1) == "[[" and header.group(3) == "]]":
            parts = _dotted(header.group(2))
            if parts is not None:
                key = tuple(parts)
                index = arrays[key] = arrays.get(key, -1) + 1
                table = [*parts, index]
                found.setdefault(key, n)
                found.setdefault(tuple(table), n)
            continue
        if header and header.group(1) == "[" and header.group(3) == "]":
            parts = _dotted(header.group(2))
            if parts is not None:
                table = list(parts)
                for end in range(1, len(table) + 1):
                    found.setdefault(tuple(table[:end]), n)
            continue
        key_text, sep, _value = stripped.partition("=")
        parts = _dotted(key_text) if sep else None
        if parts:
            full = [*table, *parts]
            for end in range(len(table) + 1, len(full) + 1):
                found.setdefault(tuple(full[:end]), n)
    for end in range(len(path), 0, -1):
        if path[:end] in found:
            return found[path[:end]]
    return 1
