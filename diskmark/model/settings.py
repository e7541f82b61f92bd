"""What the user chooses, declared once: every setting with its default and its rule.

:class:`Settings` is the one declaration. Each field carries a :class:`Rule` (its kind, its
range or choices, how it reads from the command line, the words for its limits), and every
entry point uses those rules instead of its own copy:

- ``Settings.validate`` (the engine, before anything runs) checks Python values;
- the CLI builds its argument types from :func:`text_parser`;
- the app's saved settings (:mod:`diskmark.store.app_settings`) and the store's check of a saved result
  read JSON values through :func:`from_json`, which is strict about types (``true`` is no
  count, ``"5"`` is no number) and names the field in its message.

The rules are plain data and functions (a dataclass table), not a validation library: they
cost nothing at start-up, and the messages are diskmark's own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, TypeGuard

from diskmark.locale import N_, _
from diskmark.model.numerals import decimal_number, other_digits, whole_number
from diskmark.model.units import GIB, SIZE_MAX, SIZE_MIN, SIZE_STEP, TIB, format_size, parse_size
from diskmark.model.voice import ENGLISH, LOCAL, Voice

#: The sustained write: how long by default, and the most it may be asked to write.
DURATION_S = 60.0
AMOUNT_MAX = 16 * TIB

COUNT_MIN, COUNT_MAX = 1, 9
COUNT_DEFAULT = 3
MIX_RATIOS = list(range(10, 100, 10))
SWEEP_DEPTHS = (1, 2, 4, 8, 16, 32)  # the RAID6 offset/fragmentation article swept iodepth 1/4/8/16
#: The ± % band within which a change is "same" when neither side made two passes or more.
DEFAULT_NOISE_PCT = 3.0
UNSTABLE_PCT = 5.0  # R/Avg above this marks a tile unstable (snow_mountain's fio article's measure)
UNSTABLE_MIN, UNSTABLE_MAX = 0.5, 100.0
#: A second whose bandwidth falls this far (%) below its pass's median is a dip.
DIP_THRESHOLD_PCT = 30.0
SECONDS_MAX = 3600.0
#: The measure and interval times CrystalDiskMark 9 offers in its settings (its
#: SettingsDlg.cpp): the app's choices. The command line takes any seconds in the range.
MEASURE_CHOICES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30, 60)
INTERVAL_CHOICES = (0, 1, 3, 5, 10, 30, 60, 180, 300, 600)
PATH_MAX = 4096
ID_MAX = 64


class Op(StrEnum):
    """What one test does."""

    READ = "read"
    WRITE = "write"
    MIX = "mix"

    @property
    def rank(self) -> int:
        """Where the operation comes in CrystalDiskMark's order: its reads, then its writes,
        then its mixes (in the window, the text report, and every table of diskmark's)."""
        return _OP_RANK[self]


_OP_RANK = {Op.READ: 0, Op.WRITE: 1, Op.MIX: 2}


class Mode(StrEnum):
    """Which operations a session runs (CDM's "Read & Write", "Read only", "Write only")."""

    READ_WRITE = "rw"
    READ = "read"
    WRITE = "write"


class DataPattern(StrEnum):
    """What a write test writes. RANDOM is CrystalDiskMark's default as DiskSpd makes it
    (``-Z``: one buffer of random data, filled once and reused), so compression cannot cheat
    and generating data does not cap the figure; ZEROS is CDM's "All 0x00"; REFILL writes
    fresh random data for every I/O, for drives that deduplicate, at a CPU cost that caps
    fast drives."""

    RANDOM = "random"
    ZEROS = "zeros"
    REFILL = "refill"

    @property
    def label(self) -> str:
        """CrystalDiskMark's English name, as its text export writes it."""
        return self.label_in(ENGLISH)

    def label_in(self, voice: Voice = LOCAL) -> str:
        """The name in ``voice`` (the user's language by default)."""
        return {DataPattern.RANDOM: voice.pgettext("data pattern", "Random"),
                DataPattern.ZEROS: voice.pgettext("data pattern", "All 0x00"),
                DataPattern.REFILL: voice._("Random, refilled for every write")}[self]


# --- rules ---------------------------------------------------------------------------------


def brief(value: Any) -> str:
    """The offending value for a message, cut short: a damaged file may hold megabytes."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


@dataclass(frozen=True)
class Rule:
    """What one setting may hold.

    ``kind`` is int, float, bool, str, dict or an enum; ``optional`` allows None (the preset's
    value, no +Mix); ``low``/``high`` bound a number (``unit`` names it in messages);
    ``choices`` lists the only values allowed; ``accepts`` is an extra test (a path, an id,
    whole MiB). ``valid`` says in words what is allowed, for the JSON messages (marked with
    ``N_``, ``{low}`` and ``{high}`` its bounds, ``{choices}`` its choices; :meth:`valid_text`
    says it, so that a list which grows, such as the languages, is never copied into a message);
    ``what`` is how a run-time message names the setting (``N_`` too). ``parse`` reads the command
    line's text (None: the CLI has no such option). ``saved``: the app keeps it between
    launches (a row, a sweep or a comment belongs to one run)."""

    kind: type
    valid: str
    what: str = ""
    optional: bool = False
    low: float | None = None
    high: float | None = None
    unit: str = ""
    choices: tuple[Any, ...] = ()
    accepts: Callable[[Any], bool] | None = None
    parse: Callable[[str], Any] | None = None
    saved: bool = True

    def valid_text(self) -> str:
        """What is allowed, in words, in the language in use (``{low}``, ``{high}`` and
        ``{choices}`` replaced, any other brace kept: a rule may quote JSON)."""
        text = _(self.valid)
        if self.choices:
            text = text.replace("{choices}", ", ".join(str(c) for c in self.choices))
        if self.low is not None:
            text = text.replace("{low}", self._bound(self.low))
        if self.high is not None:
            text = text.replace("{high}", self._bound(self.high))
        return text

    def problem(self, value: Any, name: str = "") -> str | None:
        """Why a Python value of the right kind is out of bounds, a sentence naming the
        setting (``what``, else ``name``), or None."""
        setting = _(self.what) if self.what else name
        if value is None:
            return None if self.optional else _("{setting} must be set").format(setting=setting)
        if self.choices and value not in self.choices:
            return must_be(setting, self.valid_text(), value)
        if self.low is not None or self.high is not None:
            if isinstance(value, float) and not math.isfinite(value) or (
                    self.low is not None and value < self.low) or (
                    self.high is not None and value > self.high):
                at_least, between = _OUT_OF_RANGE.get(self.unit, _OUT_OF_RANGE[""])
                return _(at_least if self.high is None else between).format(
                    setting=setting, low=self._bound(self.low), high=self._bound(self.high),
                    value=self._bound(value))
        if self.accepts is not None and not self.accepts(value):
            return must_be(setting, self.valid_text(), brief(value))
        return None

    def _bound(self, value: float | None) -> str:
        if value is None:  # a bound the rule does not have (a sentence without it is chosen)
            return ""
        if self.unit == "bytes" and _is_int(value) and value % 1024 == 0:
            return format_size(value)
        try:
            return f"{value:g}"
        except (OverflowError, TypeError, ValueError):  # a damaged file's huge or odd value
            return brief(value)


def must_be(setting: str, valid: str, value: Any) -> str:
    """``size must be <what is allowed>, not <value>``."""
    # TRANSLATORS: {setting} names a setting (or a field of a file); {valid} says what it may hold
    return _("{setting} must be {valid}, not {value}").format(setting=setting, valid=valid,
                                                             value=value)


#: A number out of its range, by the rule's unit: (no upper bound, between two bounds).
_OUT_OF_RANGE = {
    "": (N_("{setting} must be {low} or more, not {value}"),
         N_("{setting} must be between {low} and {high}, not {value}")),
    "seconds": (N_("{setting} must be {low} seconds or more, not {value}"),
                N_("{setting} must be between {low} and {high} seconds, not {value}")),
    "percent": (N_("{setting} must be {low} percent or more, not {value}"),
                N_("{setting} must be between {low} and {high} percent, not {value}")),
}


def _seconds_from_text(low: float) -> Callable[[str], float]:
    """The command line's seconds: one message for the whole range, NaN included."""
    def seconds(text: str) -> float:
        try:
            value = decimal_number(text)
        except ValueError:
            raise ValueError(other_digits(text) or _("not a number of seconds: {text}").format(
                text=repr(text))) from None
        if not low <= value <= SECONDS_MAX:
            raise ValueError(_("must be between {low} and {high} seconds, not {value}").format(
                low=f"{low:g}", high=f"{SECONDS_MAX:g}", value=text))
        return value
    return seconds


def _mix_from_text(text: str) -> int:
    try:
        return whole_number(text.rstrip("%"))
    except ValueError:
        raise ValueError(other_digits(text) or _("{option} takes a read percentage, not "
                                                 "{text}").format(option="--mix",
                                                                  text=repr(text))) from None


def _percent_from_text(text: str) -> float:
    try:
        return decimal_number(text.rstrip("%"))
    except ValueError:
        raise ValueError(other_digits(text) or _("not a percentage: {text}").format(
            text=repr(text))) from None


def _count_from_text(text: str) -> int:
    try:
        return whole_number(text)
    except ValueError:
        raise ValueError(other_digits(text) or _("not a whole number: {text}").format(
            text=repr(text))) from None


def _amount_from_text(text: str) -> int:
    """Any whole MiB: the rule's bounds are checked after, in a message that names the
    amount (parse_size's would call it a size)."""
    return parse_size(text, SIZE_STEP, 2 ** 62)


def is_path(text: str) -> bool:
    return bool(text.strip()) and "\0" not in text and len(text) <= PATH_MAX


def is_id(text: str) -> bool:
    """A preset's or profile's id: what its TOML file names it, never a path."""
    return (0 < len(text) <= ID_MAX and text == text.strip() and text.isprintable()
            and not text.startswith(".") and "/" not in text and "\\" not in text)


def setting(default: Any, rule: Rule) -> Any:
    """A field of :class:`Settings`: its default, with its rule beside it."""
    return field(default=default, metadata={"rule": rule})


@dataclass
class Settings:
    """What the user chose. The engine turns this plus a preset into a plan of fio runs."""

    target: str = setting(".", Rule(str, N_("a directory or block device path"), accepts=is_path))
    preset: str = setting("default", Rule(str, N_("a preset id"), accepts=is_id))
    profile: str = setting("default", Rule(str, N_("a profile id"), accepts=is_id))
    #: read percentage of the +Mix column, None for no mix
    mix: int | None = setting(None, Rule(
        int, N_("a read percentage of 10, 20 … 90"), optional=True, choices=tuple(MIX_RATIOS),
        parse=_mix_from_text))
    mode: Mode = setting(Mode.READ_WRITE, Rule(Mode, N_("one of rw, read, write")))
    size: int = setting(GIB, Rule(
        int, N_("a positive whole number of bytes, {low} to {high} in whole MiB"), low=SIZE_MIN, high=SIZE_MAX,
        unit="bytes", accepts=lambda n: n % SIZE_STEP == 0, parse=parse_size))
    #: measured passes per test: CrystalDiskMark 9's default, 3 (DiskMarkDlg.cpp:544-547,
    #: "default value is 3"; 5 until 8.0.6). A settings file of the app written when it was
    #: 5 reads its 5 as this default (diskmark.store.app_settings.EARLIER_DEFAULTS).
    count: int = setting(COUNT_DEFAULT, Rule(int, N_("a whole number from {low} to {high}"),
                                             low=COUNT_MIN, high=COUNT_MAX,
                                             parse=_count_from_text))
    #: seconds each pass measures; None: the preset's value
    measure: float | None = setting(None, Rule(
        float, N_("{low} to {high} seconds"), optional=True, low=1, high=SECONDS_MAX,
        unit="seconds", parse=_seconds_from_text(1)))
    #: seconds of rest between tests; None: the preset's value
    interval: float | None = setting(None, Rule(
        float, N_("{low} to {high} seconds"), optional=True, low=0, high=SECONDS_MAX,
        unit="seconds", parse=_seconds_from_text(0)))
    data: DataPattern = setting(DataPattern.RANDOM, Rule(DataPattern, N_("one of random, zeros, refill")))
    #: O_DIRECT; False runs through the page cache
    # TRANSLATORS: true and false are what a JSON file holds: keep them as they are
    direct: bool = setting(True, Rule(bool, N_("true or false")))
    #: btrfs: put the test file in a directory with copy-on-write off
    nocow: bool = setting(False, Rule(bool, N_("true or false")))
    #: a row button: run only this row of the profile
    only_test: int | None = setting(None, Rule(int, N_("a whole number of 0 or more"),
                                               optional=True, low=0, saved=False))
    #: e.g. "RND4K": one pattern across SWEEP_DEPTHS instead of a profile
    sweep: str | None = setting(None, Rule(str, N_("a pattern such as RND4K"), optional=True,
                                           saved=False))
    comment: str = setting("", Rule(str, N_("text"), saved=False))
    #: the sustained profile: write for at most this many seconds …
    duration: float = setting(DURATION_S, Rule(
        float, N_("{low} to {high} seconds"), what=N_("the duration"), low=1, high=SECONDS_MAX,
        unit="seconds", parse=_seconds_from_text(1)))
    #: … or until this many bytes are written (None: as much as the time allows)
    amount: int | None = setting(None, Rule(
        int, N_("whole MiB from {low} to {high}"),
        what=N_("the amount"), optional=True, low=SIZE_MIN, high=AMOUNT_MAX, unit="bytes",
        accepts=lambda n: n % SIZE_STEP == 0, parse=_amount_from_text))
    #: R/Avg above this marks a test unstable
    unstable_pct: float = setting(UNSTABLE_PCT, Rule(
        float, N_("{low} to {high} percent"), what=N_("the unstable threshold"),
        low=UNSTABLE_MIN, high=UNSTABLE_MAX, unit="percent", parse=_percent_from_text))

    def validate(self) -> None:
        """Raise ValueError naming the first setting out of its rule."""
        for name, rule in RULES.items():
            problem = rule.problem(getattr(self, name), name)
            if problem:
                raise ValueError(problem)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["mode"] = self.mode.value
        d["data"] = self.data.value
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in known}
        if "mode" in kw:
            kw["mode"] = Mode(kw["mode"])
        if "data" in kw:
            kw["data"] = DataPattern(kw["data"])
        return cls(**kw)


#: Every setting's rule, by name, in the order Settings declares them.
RULES: dict[str, Rule] = {f.name: f.metadata["rule"] for f in fields(Settings)}
#: The settings the app keeps between launches.
SAVED = tuple(name for name, rule in RULES.items() if rule.saved)


def from_json(rule: Rule, name: str, value: Any, where: str = "") -> Any:
    """``value`` as read from JSON, checked against ``rule`` and normalised (an enum's
    value, a float for a float setting). Raises ValueError naming ``where`` + ``name``:
    a file must not pass ``true`` for a count, ``"5"`` for a number or 1e999 for seconds."""
    def bad() -> ValueError:
        return ValueError(must_be(f"{where}{name}", rule.valid_text(), brief(value)))

    if value is None:
        if rule.optional:
            return None
        raise bad()
    kind = rule.kind
    if kind is bool:
        if not isinstance(value, bool):
            raise bad()
    elif kind is int:
        if not _is_int(value):
            raise bad()
    elif kind is float:
        if not _is_number(value):
            raise bad()
        value = float(value)
    elif kind is str:
        if not isinstance(value, str):
            raise bad()
    elif kind is dict:
        if not isinstance(value, dict):
            raise bad()
    else:  # an enum; one with a parse() (Unit) takes every spelling it knows
        try:
            return getattr(kind, "parse", kind)(value).value
        except (ValueError, TypeError, AttributeError):
            raise bad() from None
    if rule.problem(value, name) is not None:
        raise bad()
    return value


def json_value(value: Any) -> Any:
    """A setting's value as JSON holds it: an enum as its value, anything else as it is."""
    return value.value if isinstance(value, StrEnum) else value


def text_parser(name: str) -> Callable[[str], Any]:
    """How the command line reads setting ``name``: raises ValueError with a message that
    fits after "argument --name: "."""
    rule = RULES[name]
    parse = rule.parse
    if parse is None:
        raise KeyError(f"setting {name!r} has no command-line form")

    def checked(text: str) -> Any:
        """A value out of the rule's bounds is refused as it is read, as the option typed
        (``argument --count: count must be …``), not later by the whole settings."""
        value = parse(text)
        problem = rule.problem(value, name)
        if problem is not None:
            raise ValueError(problem)
        return value
    return checked
