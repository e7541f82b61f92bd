"""The TUI's persisted settings: theme, target, size, count, unit, profile, preset and the rest.

Stored as JSON in ``paths.config_dir()/settings.json`` with a ``schema`` key, written
atomically. Loading never fails: a missing file gives the defaults; a damaged one (not JSON,
not an object, a foreign or future schema, wrong types, values out of range) gives the
defaults for whatever could not be read plus a notice naming the file, and the damaged file
is moved aside to ``settings.json.damaged-<timestamp>`` so that the next save cannot destroy
what the user may want to repair by hand.

A file of an earlier schema is read as it is, but for the defaults that have changed since
(:data:`EARLIER_DEFAULTS`): one saved with CrystalDiskMark 8's 5 passes (diskmark.config/1)
starts with CrystalDiskMark 9's 3, while a count the user chose (any other) stays. Telling
the two apart needs no list of what was chosen: every value a file of the new schema holds
was kept by a diskmark whose default the user saw, and saving writes the new schema.

The settings a run uses are declared once, with their rules, in :mod:`diskmark.model.settings`;
:data:`AppConfig`'s fields and its checks come from there, plus the few only the app keeps
(theme, unit, the baseline compared with, the keymap).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import Field, asdict, field, fields, make_dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from diskmark.files.atomic import move_aside, remove_stale_temps, write_atomic
from diskmark.files.paths import config_dir
from diskmark.files.regular_file import NotRegularFile, read_regular_file
from diskmark.locale import LANGUAGES, N_, _
from diskmark.model.settings import RULES, SAVED, Rule, Settings, from_json, json_value
from diskmark.model.units import Unit

SCHEMA = "diskmark.config/2"
SCHEMA_PREFIX = "diskmark.config/"
#: The defaults of an earlier schema that have changed since, by schema. The app writes every
#: field each time it saves, so such a file holds its default whether or not anyone chose it:
#: a value equal to that default is read as today's default, any other value was chosen and is
#: kept. A schema is raised whenever a default changes, so that a value of the new schema is
#: always what the user kept. diskmark.config/1: 5 passes, CrystalDiskMark 8's count (9's is 3).
EARLIER_DEFAULTS: dict[str, dict[str, Any]] = {"diskmark.config/1": {"count": 5}}
FILE_NAME = "settings.json"
CONFIG_MAX_BYTES = 1024 * 1024  # a settings file is under a kilobyte
KEYMAP_MAX = 200  # bindings a keymap may name; diskmark has a few dozen

_THEME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_. +-]{0,63}$")
#: Any printable text: a key that is not one (a typo, "?" for question_mark) is the
#: keymap's to name and to ignore (diskmark.app.core.keymap), not a reason to set the file aside.
_KEYS_RE = re.compile(r"^[^\x00-\x1f\x7f]{0,100}$")


def _is_keymap(value: dict[str, Any]) -> bool:
    """Binding ids to key lists, as Textual's keymap takes them: ``{"run_all": "r,f5"}``."""
    return len(value) <= KEYMAP_MAX and all(
        isinstance(k, str) and 0 < len(k) <= 64 and k.isprintable()
        and isinstance(v, str) and _KEYS_RE.match(v) for k, v in value.items())


#: What only the app keeps (the settings a run uses are :data:`diskmark.settings.RULES`).
APP_RULES: dict[str, Rule] = {
    "theme": Rule(str, N_("a theme name"), accepts=lambda v: bool(_THEME_RE.match(v))),
    "unit": Rule(Unit, N_("MB/s, GB/s, IOPS or us")),
    #: the baseline the tiles are compared with, by name
    "compare": Rule(str, N_("a baseline name"), optional=True,
                    accepts=lambda v: bool(v.strip()) and v.isprintable() and len(v) <= 200),
    #: the language the app speaks (None: the environment's, as gettext reads it)
    # TRANSLATORS: {choices}: the language codes, "en, ja, de, …"
    "language": Rule(str, N_("a language diskmark speaks ({choices})"), optional=True,
                     choices=tuple(LANGUAGES)),
    #: binding id -> keys, replacing the keys of diskmark's bindings (see the help screen)
    # a rule's words are formatted with its bounds: the example's braces are doubled
    "keymap": Rule(dict, N_("binding ids mapped to keys, such as {{\"run_all\": \"r\"}}"),
                   optional=True, accepts=_is_keymap),
}
#: The app's saved target may be unset: the app then starts on its fallback (home).
CONFIG_RULES: dict[str, Rule] = {"theme": APP_RULES["theme"],
                                 "target": replace(RULES["target"], optional=True),
                                 **{name: RULES[name] for name in SAVED if name != "target"},
                                 **{k: v for k, v in APP_RULES.items() if k != "theme"}}

_SETTINGS_DEFAULTS = {f.name: json_value(f.default) for f in fields(Settings)}
_DEFAULTS: dict[str, Any] = {"theme": "diskmark", "target": None, "unit": Unit.MB_S.value,
                             "compare": None, "keymap": None, "language": None}


class _ConfigMethods:
    """AppConfig's behaviour; its fields come from :data:`CONFIG_RULES`.

    For the type checker, the app's own fields are declared here; a run's saved settings
    (``size``, ``mode``, …, as JSON holds them) are attributes too, made from the one
    settings schema, so they are not listed a second time."""

    theme: str
    unit: str
    compare: str | None
    keymap: dict[str, str] | None
    language: str | None
    target: str | None

    if TYPE_CHECKING:
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

        def __init__(self, **values: Any) -> None: ...

        def __getattr__(self, name: str) -> Any: ...

    def to_settings(self, target_fallback: str) -> Settings:
        """The engine's Settings for these choices; ``target_fallback`` when no target is set.

        Whether the target still exists (an unplugged USB stick) is for the caller to check."""
        values = {name: getattr(self, name) for name in SAVED}
        values["target"] = values["target"] or target_fallback
        for name, value in values.items():
            kind = RULES[name].kind
            if value is not None and isinstance(kind, type) and issubclass(kind, StrEnum):
                values[name] = kind(value)
        return Settings(**values)

    def with_settings(self, settings: Settings) -> AppConfig:
        """A copy holding the persisted parts of ``settings`` (theme, unit, … unchanged)."""
        return replace(self, **{name: json_value(getattr(settings, name)) for name in SAVED})

    @property
    def unit_enum(self) -> Unit:
        return Unit.parse(self.unit)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, **asdict(self)}


#: What the TUI remembers between launches: every saved setting of a run (its default and
#: rule from :class:`~diskmark.settings.Settings`), plus the theme, the unit, the baseline
#: compared with and the keymap. Values are as JSON holds them ("rw", not Mode.READ_WRITE).
if TYPE_CHECKING:
    AppConfig = _ConfigMethods
else:
    AppConfig = make_dataclass(
        "AppConfig",
        [(name, Any, field(default=_DEFAULTS[name] if name in _DEFAULTS else _SETTINGS_DEFAULTS[name]))
         for name in CONFIG_RULES],
        bases=(_ConfigMethods,))
    AppConfig.__module__ = __name__


def parse_config(data: Any) -> tuple[AppConfig, list[str]]:
    """Build an AppConfig from decoded JSON; returns the config and what was wrong with it.

    A wrong top level or schema gives all defaults; a bad field gives that field's default.
    Unknown keys are ignored (a newer diskmark of the same schema may add fields)."""
    if not isinstance(data, dict):
        return AppConfig(), [_WholeFile(_("it holds a JSON {type}, not an object").format(
            type=type(data).__name__))]
    schema = data.get("schema")
    earlier = EARLIER_DEFAULTS.get(schema, {}) if isinstance(schema, str) else {}
    if schema != SCHEMA and schema not in EARLIER_DEFAULTS:
        if isinstance(schema, str) and schema.startswith(SCHEMA_PREFIX):
            return AppConfig(), [_WholeFile(_("it was written by another diskmark version "
                                              "(schema {schema}; this one reads {ours})").format(
                                                  schema=repr(schema), ours=repr(SCHEMA)))]
        return AppConfig(), [_WholeFile(_("it is not a diskmark settings file (schema {schema}, "
                                          "expected {ours})").format(schema=repr(schema),
                                                                     ours=repr(SCHEMA)))]
    kw: dict[str, Any] = {}
    problems: list[str] = []
    for name, rule in CONFIG_RULES.items():
        if name not in data or _is_earlier_default(data[name], earlier.get(name, _NONE)):
            continue
        try:
            kw[name] = from_json(rule, name, data[name])
        except ValueError as e:
            problems.append(str(e))
    return AppConfig(**kw), problems


_NONE = object()


def _is_earlier_default(value: Any, default: Any) -> bool:
    """Whether ``value`` is the earlier schema's ``default`` (of its type: ``true`` is no 1,
    ``5.0`` no 5, and a value of the wrong type is told as wrong)."""
    return type(value) is type(default) and value == default


# --- files ------------------------------------------------------------------------------


def config_path() -> Path:
    return config_dir() / FILE_NAME


def _move_aside(path: Path) -> Path | None:
    """Rename a damaged settings file out of the way; None if that was not possible."""
    try:
        return move_aside(path)
    except OSError:
        return None


def _read(path: Path) -> tuple[AppConfig, list[str]] | None:
    """None when there is no file; else the config and its problems (empty when sound).
    Only a regular file of at most CONFIG_MAX_BYTES is read: a FIFO must not hang the app
    at start, nor a link to /dev/zero fill its memory."""
    try:
        raw = read_regular_file(path, CONFIG_MAX_BYTES)
    except FileNotFoundError:
        return None
    except NotRegularFile as e:
        # TRANSLATORS: {reason} is why a file is not read ("not a regular file (a FIFO)")
        return AppConfig(), [_WholeFile(_("it is {reason}").format(reason=e))]
    except OSError as e:
        return AppConfig(), [_WholeFile(_("it cannot be read ({error})").format(
            error=e.strerror or e))]
    if not raw.strip():
        return AppConfig(), [_WholeFile(_("it is empty"))]
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return AppConfig(), [_WholeFile(_("it is not UTF-8 text"))]
    except json.JSONDecodeError as e:
        # TRANSLATORS: {problem} is Python's JSON reader's own words, in English
        return AppConfig(), [_WholeFile(_("it is not valid JSON at line {line}, column {column}: "
                                          "{problem}").format(line=e.lineno, column=e.colno,
                                                              problem=e.msg))]
    except RecursionError:
        return AppConfig(), [_WholeFile(_("it is not valid JSON (nested too deeply)"))]
    return parse_config(data)


def read_config() -> tuple[AppConfig, list[str]]:
    """The saved settings and what is wrong with them, a damaged file left where it is:
    for a command that only looks (``diskmark keys``). Starting the app moves it aside."""
    result = _read(config_path())
    return result if result is not None else (AppConfig(), [])


def load_config() -> tuple[AppConfig, str | None]:
    """The saved settings and a notice for the user (None when all was well).

    A damaged file is moved aside at once (``settings.json.damaged-<timestamp>``) and the
    notice says where it went, so the next save never overwrites it."""
    path = config_path()
    remove_stale_temps(path.parent)  # what a save killed with SIGKILL left behind
    result = _read(path)
    if result is None:
        return AppConfig(), None
    cfg, problems = result
    if not problems:
        return cfg, None
    whole = any(isinstance(p, _WholeFile) for p in problems)
    moved = _move_aside(path) if path.is_file() else None
    # TRANSLATORS: {problems} are what is wrong with the file, separated by "; "
    if whole and moved is not None:
        notice = _("The settings file {path} is damaged ({problems}), so defaults are used. "
                   "The damaged file was kept as {moved}.")
    elif whole:
        notice = _("The settings file {path} is damaged ({problems}), so defaults are used. "
                   "The damaged file could not be moved aside; it will not be overwritten.")
    elif moved is not None:
        notice = _("The settings file {path} is damaged ({problems}), so defaults are used for "
                   "the values that could not be read. The damaged file was kept as {moved}.")
    else:
        notice = _("The settings file {path} is damaged ({problems}), so defaults are used for "
                   "the values that could not be read. The damaged file could not be moved "
                   "aside; it will not be overwritten.")
    return cfg, notice.format(path=path, problems=_("; ").join(problems), moved=moved)


class _WholeFile(str):
    """A problem with the file as a whole (not one value): all defaults are used."""

    __slots__ = ()


#: A byte of a path that is not UTF-8, as os.fsdecode keeps it: it cannot be written as
#: UTF-8, but a JSON escape of it reads back as the same path.
_LONE_SURROGATE = "[\ud800-\udfff]"  # compiled when saving (half a millisecond of each start)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def save_config(cfg: AppConfig) -> Path:
    """Write ``cfg`` atomically. A settings file that is there but damaged (e.g. edited by
    hand while the app ran) is moved aside first rather than overwritten."""
    path = config_path()
    if os.path.exists(path) and not path.is_file():  # following a link, as reading does
        raise OSError(_("{path} is not a regular file (a FIFO, a device or a directory); "
                        "diskmark does not replace it, so the settings are not saved").format(
                            path=path))
    existing = _read(path)
    if existing is not None and existing[1] and path.is_file():
        if _move_aside(path) is None:
            raise OSError(_("cannot move the damaged settings file {path} aside; not "
                            "saving").format(path=path))
    text = re.sub(_LONE_SURROGATE, _json_escape,
                  json.dumps(cfg.to_dict(), indent=2, ensure_ascii=False)) + "\n"
    write_atomic(Path(os.path.realpath(path)), text)  # through a link, the link stays
    return path
