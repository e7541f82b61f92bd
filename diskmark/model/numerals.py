"""The one rule for a number diskmark reads from outside (an option, a host's port, a preset,
a file, the environment): it is written with the ASCII digits 0 to 9, and nothing else.

Python reads more than that, each function its own way: ``int()`` and ``float()`` take the
digits of every script (``٢٢٤١`` is 2241, the full-width ``２２`` an input method types is
22), ``str.isdigit()`` is true for ``²`` and ``①``, which ``int()`` then refuses with a
traceback, both take ``1_000``, and ``\\d`` in a pattern matches every script's digits. ssh,
fio and the files diskmark writes read 0 to 9 only: a port taken here as 2241 is an error
there, or another port. So every number read from text is read here, and a pattern that
finds a number in text writes ``[0-9]``, never ``\\d``.
"""

from __future__ import annotations

import re

from diskmark.locale import _

_WHOLE = re.compile(r"[+-]?[0-9]+")
#: What float() takes, in ASCII, without its ``_`` separators: a sign, digits with a point,
#: an exponent, or the words inf, infinity and nan (which a range then refuses, by name).
_DECIMAL = re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      r"|inf|infinity|nan)", re.IGNORECASE)


def digits_only(text: str) -> bool:
    """``text`` is one digit 0 to 9 or more, and nothing else: no sign, no space."""
    return text.isascii() and text.isdigit()


def whole_number(text: str) -> int:
    """``text`` as a whole number: an optional sign and the digits 0 to 9, spaces around
    allowed. Raises ValueError (with :func:`other_digits`' sentence when that is the fault)."""
    if not _WHOLE.fullmatch(text.strip()):
        raise ValueError(other_digits(text))
    return int(text.strip())


def decimal_number(text: str) -> float:
    """``text`` as a number with or without a decimal point, as float() reads it but in the
    digits 0 to 9 only. Raises ValueError as :func:`whole_number` does."""
    if not _DECIMAL.fullmatch(text.strip()):
        raise ValueError(other_digits(text))
    return float(text.strip())


def written_in_other_digits(text: str) -> bool:
    """Whether ``text`` holds a digit or a number sign of another script (``٢``, ``２``,
    ``²``, ``Ⅻ``): a number the user meant, which must be written with 0 to 9."""
    return any(ch.isnumeric() and not ch.isascii() for ch in text)


def other_digits(text: str) -> str:
    """The sentence for a number written with another script's digits, naming it; empty when
    ``text`` holds none (the caller says what is wrong with it)."""
    if not written_in_other_digits(text):
        return ""
    # TRANSLATORS: {value} is what the user wrote, e.g. '２２' (full-width digits) or '²'
    return _("{value}: write numbers with the digits 0 to 9").format(value=repr(text))
