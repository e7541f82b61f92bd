"""Text diskmark says, which escapes whatever fills it: the one rule for values from outside.

A path, a baseline's name, a host, a language asked for, an error the system gave: any of
them may hold a newline, a tab, an escape sequence or a right-to-left override, and printed
raw a newline forges a line of its own (``history import $'a\\nFAKE: imported 999 runs.txt'``
would print a second, false notice) and an escape sequence drives the terminal. Escaping each
value where a message is made was a rule kept by hand, one message at a time, and the fourth
round of fault injection found four messages it had missed.

So the rule is kept by the type instead. Every translated text (``_``, ``ngettext``,
``pgettext``) is a :class:`Said`, and a :class:`Said` fills its placeholders (``format``,
``format_map``, ``%``) with each value made one safe line by :func:`text_safety.shown`:
control characters (newline and tab included), format characters and undecodable bytes
written as visible escapes. What a :class:`Said` is filled with that is itself a
:class:`Said` (a sentence made the same way, a translated label) is diskmark's own text and
goes in as it is, newlines and all. Numbers, dates and other values keep their own
formatting (``{mbps:.2f}``).

Text that must reach a reader exactly (JSON, CSV cells, the file written) is never made from
a template; a text made of :class:`Said` parts joined by hand is marked with ``Said(...)``
where it is joined.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from diskmark.locale.text_safety import shown


class Said(str):
    """Text made by diskmark (a translation, or a sentence made from one): safe as it is,
    and every value it is filled with is made one safe line."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> Said:
        return Said(str.format(self, *map(one_value, args),
                               **{k: one_value(v) for k, v in kwargs.items()}))

    def format_map(self, mapping: Mapping[str, Any]) -> Said:  # type: ignore[override]  # any mapping
        return Said(str.format_map(self, _Escaped(mapping)))

    def __mod__(self, values: Any) -> Said:
        filled: object
        if isinstance(values, tuple):
            filled = tuple(map(one_value, values))
        elif isinstance(values, Mapping):
            filled = _Escaped(values)
        else:
            filled = one_value(values)
        return Said(str.__mod__(self, filled))

    def __add__(self, other: str) -> str:
        """A :class:`Said` only when both sides are: ``said + path`` is glued, not said."""
        joined = str.__add__(self, other)
        return Said(joined) if isinstance(other, Said) else joined


def one_value(value: object) -> object:
    """``value`` as it may fill a message: text from outside as one safe line, diskmark's own
    text and every other kind of value as they are."""
    if isinstance(value, Said):
        return value
    if isinstance(value, str):
        return shown(value, one_line=True)
    if isinstance(value, os.PathLike):
        return shown(os.fsdecode(value), one_line=True)
    if isinstance(value, BaseException):
        return _error(value)
    return value


def _error(error: BaseException) -> str:
    """An error as it fills a message: its own sentence when diskmark raised it with one (a
    :class:`Said`, kept as it is), else its text made one line (the system's words name the
    path that failed, raw)."""
    if len(error.args) == 1 and isinstance(error.args[0], Said) and str(error) == error.args[0]:
        return error.args[0]
    return shown(str(error), one_line=True)


class _Escaped(dict[str, Any]):
    """A mapping whose values are read through :func:`one_value` as ``format_map`` asks."""

    def __init__(self, mapping: Mapping[str, Any]) -> None:
        super().__init__()
        self._mapping = mapping

    def __getitem__(self, key: str) -> Any:
        return one_value(self._mapping[key])

    def __missing__(self, key: str) -> Any:
        return one_value(self._mapping[key])

    def __contains__(self, key: object) -> bool:
        return key in self._mapping


def lines_said(text: str) -> Said:
    """Several lines a program said (ssh's or fio's words), quoted under the sentence that
    quotes them: each line made one safe line of its own, so its lines stay lines; text
    diskmark made (a :class:`Said`) is kept as it is."""
    if isinstance(text, Said):
        return text
    return Said("\n".join(shown(line, one_line=True) for line in text.splitlines()))


def joined(separator: str, parts: Iterable[object]) -> Said:
    """``parts`` joined by ``separator`` (diskmark's own: ``"\\n"``, ``"; "``), each part
    made safe as a value filling a message is: a text made of sentences, marked where it
    is joined."""
    return Said(separator.join(str(one_value(part)) for part in parts))

