"""Sizes and units: what a number in diskmark means.

Test sizes are binary (MiB, GiB, as CrystalDiskMark's), bandwidth is decimal (MB/s =
1,000,000 bytes a second, as CrystalDiskMark's), and a figure is shown in one of four units.
These are the bottom of the data layer: settings, results and every view build on them.
"""

from __future__ import annotations

import math
import re
from enum import StrEnum
from fractions import Fraction

from diskmark.locale import _
from diskmark.model.numerals import other_digits

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB
TIB = 1024 * GIB

#: CrystalDiskMark's test sizes: 16 … 512 MiB, then 1 … 64 GiB (binary).
SIZES = [16 * MIB * 2**i for i in range(6)] + [GIB * 2**i for i in range(7)]
SIZE_MIN, SIZE_MAX = SIZES[0], SIZES[-1]
#: Test files are laid out by fio in 1 MiB blocks, so a size must be a whole number of them.
SIZE_STEP = MIB


class Unit(StrEnum):
    MB_S = "MB/s"
    GB_S = "GB/s"
    IOPS = "IOPS"
    US = "us"

    @classmethod
    def parse(cls, text: str) -> Unit:
        """Any spelling a user types or copies: the micro sign (U+00B5, what :attr:`label`
        shows and keyboards make), the Greek mu (U+03BC, what CrystalDiskMark's window shows
        and other programs print) and plain ``us`` all mean µs."""
        key = text.strip().lower().replace("\u00b5", "u").replace("\u03bc", "u")
        for unit in cls:
            if unit.value.lower() == key:
                return unit
        aliases = {"mbs": cls.MB_S, "mb": cls.MB_S, "gbs": cls.GB_S, "gb": cls.GB_S,
                   "usec": cls.US, "latency": cls.US, "lat": cls.US}
        if key in aliases:
            return aliases[key]
        raise ValueError(_("unknown unit {text}; choose MB/s, GB/s, IOPS or µs (also us)").format(
            text=repr(text)))

    @property
    def label(self) -> str:
        """The unit as a person reads it, the one place its sign is written: µs with the
        micro sign U+00B5 (what the README and a keyboard's AltGr+M give; Latin-1 has it, so
        a Latin-1 terminal shows it), never the Greek mu U+03BC beside it, which looks the
        same and is another character to a search, a sort or a terminal's encoding."""
        return "\u00b5s" if self is Unit.US else self.value  # µs, the micro sign

    @property
    def lower_is_better(self) -> bool:
        return self is Unit.US


def format_size(nbytes: int) -> str:
    """16MiB, 512MiB, 1GiB, 64GiB — the binary size names CDM shows (and 16TiB, the most a
    sustained write may write)."""
    if nbytes >= TIB and nbytes % TIB == 0:
        return f"{nbytes // TIB}TiB"
    if nbytes >= GIB and nbytes % GIB == 0:
        return f"{nbytes // GIB}GiB"
    if nbytes >= MIB and nbytes % MIB == 0:
        return f"{nbytes // MIB}MiB"
    if nbytes >= KIB and nbytes % KIB == 0:
        return f"{nbytes // KIB}KiB"
    return f"{nbytes}B"


_SIZE_RE = re.compile(r"(?P<num>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE](?P<exp>[+-]?[0-9]+))?"
                      r"\s*(?P<unit>[A-Za-z]*)")
_BINARY_UNITS = {"": 1, "b": 1, "k": KIB, "kib": KIB, "m": MIB, "mib": MIB,
                 "g": GIB, "gib": GIB, "t": TIB, "tib": TIB}
_DECIMAL_UNITS = {"kb": "KiB", "mb": "MiB", "gb": "GiB", "tb": "TiB"}


def parse_size(text: str, low: int = SIZE_MIN, high: int = SIZE_MAX) -> int:
    """A test-file size, 16MiB to 64GiB (or ``low`` to ``high``): '16MiB', '1G', '512m',
    '1.5 GiB' (binary, as CrystalDiskMark's).

    'MB' and 'GB' are refused rather than guessed at: diskmark's MB is 1,000,000 bytes (as in
    MB/s), so reading '16mb' as 16 MiB would be wrong one way or the other. The size must be
    a whole number of MiB, because fio lays the test file out in 1 MiB blocks and a partial
    last block fails the run after the user has waited for it."""
    m = _SIZE_RE.fullmatch(text.strip())
    if not m:
        raise ValueError(other_digits(text) or _not_a_size(text))
    unit, exponent = m.group("unit").lower(), int(m.group("exp") or 0)
    if abs(exponent) > 30:  # far past 64 GiB either way; 10**huge would not finish
        raise ValueError(_not_a_size(text))
    number = Fraction(m.group("num")) * Fraction(10) ** exponent
    if unit in _DECIMAL_UNITS:
        binary = _DECIMAL_UNITS[unit]
        raise ValueError(_("{text}: in diskmark MB and GB are decimal (1 MB = 1,000,000 bytes, "
                           "as in MB/s), but test sizes are binary; write {size} (or {short})"
                           ).format(text=repr(text.strip()), size=f"{_number(number)}{binary}",
                                    short=f"{_number(number)}{binary[0]}"))
    mult = _BINARY_UNITS.get(unit)
    if mult is None or number <= 0:
        raise ValueError(_not_a_size(text))
    nbytes = number * mult
    if not low <= nbytes <= high:
        shown = format_size(int(nbytes)) if nbytes.denominator == 1 else text.strip()
        raise ValueError(_("size must be between {low} and {high}, not {value}").format(
            low=format_size(low), high=format_size(high), value=shown))
    if nbytes.denominator != 1 or nbytes % SIZE_STEP:
        below = math.floor(nbytes / SIZE_STEP) * SIZE_STEP
        raise ValueError(_("{text}: test sizes are whole MiB, as fio lays the test file out in "
                           "1 MiB blocks (try {below} or {above})").format(
            text=repr(text.strip()), below=format_size(below),
            above=format_size(below + SIZE_STEP)))
    return int(nbytes)


def _not_a_size(text: str) -> str:
    return _("not a size: {text} (try 16MiB, 1GiB)").format(text=repr(text))


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def format_bytes(n: int, digits: int = 1) -> str:
    """Binary units for display: "512 B", "16.0 MiB", "814.2 GiB"."""
    value, unit = float(n), "B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):  # noqa: B007 - the last one stays
        if abs(value) < 1024 or unit == "PiB":
            break
        value /= 1024
    return f"{int(value)} B" if unit == "B" else f"{value:.{digits}f} {unit}"
