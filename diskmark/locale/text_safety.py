"""Text from data made safe to show: the one place that decides how odd characters look.

Names, notes, comments, device and model strings, paths and preset fields come from files and
users, so they may hold terminal escape sequences (ESC, CSI, OSC) that would recolour, retitle
or clear the user's terminal, format characters that reorder or hide the text around them
(U+202E RIGHT-TO-LEFT OVERRIDE shows ``exe.txt`` as ``txt.exe``; zero-width spaces and
joiners make two names look alike), tabs that shift a column, and bytes that are not UTF-8
(Python keeps those as lone surrogates, which cannot be written to a UTF-8 stream at all).
:func:`shown` writes them all as visible escapes (``\\x1b``, ``\\u202e``, ``\\t``, ``\\xff``)
for terminals, text reports and pages; :func:`json_utf8` does the same inside JSON text,
which must stay valid UTF-8 and otherwise exact. Nothing here imports Textual: the CLI, the
reports and the app share it.
"""

from __future__ import annotations

import re
from functools import cache

#: Unicode's format characters (category Cf: the byte order mark, bidirectional marks,
#: embeddings, overrides and isolates, zero-width spaces and joiners, invisible operators,
#: tags, ...) by the blocks that hold them, a few unassigned neighbours included; a test
#: checks every Cf character of Python's unicodedata is here.
FORMAT = ("\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
          "\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
          "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
          "\U000e0000-\U000e007f")
#: Unicode's line and paragraph separators (U+2028, U+2029): no control character, yet a line
#: break to str.splitlines (which reads CrystalDiskMark's text results back), to editors and
#: to JavaScript, so a name holding one would start a line of its own there.
SEPARATORS = "\u2028\u2029"
#: C0 controls but newline (tab included), DEL, C1 controls, lone surrogates, format
#: characters, the line and paragraph separators.
_UNSAFE = f"[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff{FORMAT}{SEPARATORS}]"
_UNSAFE_ONE_LINE = f"[\x00-\x1f\x7f-\x9f\ud800-\udfff{FORMAT}{SEPARATORS}]"
#: What json.dumps(ensure_ascii=False) leaves raw that a terminal or a UTF-8 encoder chokes on
#: (json escapes C0 controls itself).
_UNSAFE_IN_JSON = f"[\x7f-\x9f\ud800-\udfff{FORMAT}]"
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


@cache
def _pattern(chars: str) -> re.Pattern[str]:
    """Compiled when first needed: the surrogate range makes each of these take half a
    millisecond, and most text never needs one (see :func:`shown`)."""
    return re.compile(chars)


def _escape(char: str) -> str:
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as os.fsdecode keeps it
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code > 0xFFFF:
        return f"\\U{code:08x}"
    return f"\\u{code:04x}"


def shown(text: str, one_line: bool = False) -> str:
    """``text`` with control characters, format characters and undecodable bytes written as
    ``\\x1b``, ``\\u202e``, ``\\t``, ``\\xff``; newlines stay unless ``one_line``."""
    if text.isprintable():  # no control or format character, no lone surrogate: most text
        return text
    pattern = _pattern(_UNSAFE_ONE_LINE if one_line else _UNSAFE)
    return pattern.sub(lambda m: _escape(m.group()), text)


def _escape_in_json(match: re.Match[str]) -> str:
    char = match.group()
    if "\ud800" <= char <= "\udfff":
        # no JSON string holds a lone surrogate as valid UTF-8: keep it readable as text
        return "\\" + _escape(char)
    code = ord(char)
    if code > 0xFFFF:  # JSON escapes it as its UTF-16 pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"  # a JSON escape: the same string, without the raw character


def json_utf8(json_text: str) -> str:
    """JSON text from ``json.dumps(..., ensure_ascii=False)`` made valid UTF-8 and safe to
    print: DEL, C1 controls and format characters become ``\\u009b``, ``\\u202e`` escapes
    (the same strings), and bytes that were not UTF-8 become the text ``\\xff``. Outside
    strings JSON is ASCII, so this only ever touches string contents."""
    return _pattern(_UNSAFE_IN_JSON).sub(_escape_in_json, json_text)


#: A word that bash, zsh and fish all read as itself when it is typed bare: letters and
#: digits of any script and ``_``, then also ``. + / -``. None of these is expanded, split,
#: globbed, quoted or taken as an option by any of them, neither on a command line nor in the
#: lists of choices a completion script holds (shtab writes those unquoted into bash's
#: ``compgen -W``, which expands each word, zsh's ``_arguments`` and fish's ``complete -a``,
#: which evaluate them as code): an id that is one can be offered and typed as it is.
_SHELL_WORD = re.compile(r"\w[\w.+/-]*")


def shell_word(text: str) -> bool:
    """Whether ``text`` is a word every shell reads as itself (see ``_SHELL_WORD``)."""
    return _SHELL_WORD.fullmatch(text) is not None
