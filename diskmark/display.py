"""Text from data made safe to show: the one place that decides how odd characters look.

Names, notes, comments, device and model strings, paths and preset fields come from files and
users, so they may hold terminal escape sequences (ESC, CSI, OSC) that would recolour, retitle
or clear the user's terminal, and paths may hold bytes that are not UTF-8 (Python keeps those
as lone surrogates, which cannot be written to a UTF-8 stream at all). :func:`shown` writes
both as visible escapes (``\\x1b``, ``\\xff``) for terminals and text reports;
:func:`json_utf8` does the same inside JSON text, which must stay valid UTF-8 and otherwise
exact. Nothing here imports Textual: the CLI, the reports and the app share it.
"""

from __future__ import annotations

import re
from functools import cache

#: C0 controls but tab and newline, DEL, C1 controls, and lone surrogates.
_UNSAFE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]"
_UNSAFE_ONE_LINE = "[\x00-\x1f\x7f-\x9f\ud800-\udfff]"
#: What json.dumps(ensure_ascii=False) leaves raw that a terminal or a UTF-8 encoder chokes on
#: (json escapes C0 controls itself).
_UNSAFE_IN_JSON = "[\x7f-\x9f\ud800-\udfff]"


@cache
def _pattern(chars: str) -> re.Pattern[str]:
    """Compiled when first needed: the surrogate range makes each of these take half a
    millisecond, and most text never needs one (see :func:`shown`)."""
    return re.compile(chars)


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as os.fsdecode keeps it
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def shown(text: str, one_line: bool = False) -> str:
    """``text`` with control characters and undecodable bytes written as ``\\x1b``,
    ``\\xff``; tabs and newlines stay unless ``one_line``."""
    if text.isprintable():  # no control character, no lone surrogate: the common case
        return text
    pattern = _pattern(_UNSAFE_ONE_LINE if one_line else _UNSAFE)
    return pattern.sub(lambda m: _escape(m.group()), text)


def _escape_in_json(match: re.Match) -> str:
    char = match.group()
    if "\ud800" <= char <= "\udfff":
        # no JSON string holds a lone surrogate as valid UTF-8: keep it readable as text
        return "\\" + _escape(char)
    return f"\\u{ord(char):04x}"  # a JSON escape: the same string, without the raw byte


def json_utf8(json_text: str) -> str:
    """JSON text from ``json.dumps(..., ensure_ascii=False)`` made valid UTF-8 and safe to
    print: DEL and C1 controls become ``\\u009b`` escapes (the same strings), and bytes that
    were not UTF-8 become the text ``\\xff``. Outside strings JSON is ASCII, so this only ever
    touches string contents."""
    return _pattern(_UNSAFE_IN_JSON).sub(_escape_in_json, json_text)
