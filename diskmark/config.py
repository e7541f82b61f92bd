"""The TUI's persisted settings: theme, target, size, count, unit, profile, preset and the rest.

Stored as JSON in ``paths.config_dir()/settings.json`` with a ``schema`` key, written
atomically. Loading never fails: a missing file gives the defaults; a damaged one (not JSON,
not an object, a foreign or future schema, wrong types, values out of range) gives the
defaults for whatever could not be read plus a notice naming the file, and the damaged file
is moved aside to ``settings.json.damaged-<timestamp>`` so that the next save cannot destroy
what the user may want to repair by hand.

Nothing here imports Textual (DESIGN.md §6).
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from diskmark import model
from diskmark.atomic import remove_stale_temps, write_atomic
from diskmark.paths import config_dir
from diskmark.regular_file import NotRegularFile, read_regular_file

SCHEMA = "diskmark.config/1"
SCHEMA_PREFIX = "diskmark.config/"
FILE_NAME = "settings.json"
CONFIG_MAX_BYTES = 1024 * 1024  # a settings file is under a kilobyte

_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$")
_THEME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_. +-]{0,63}$")


@dataclass
class AppConfig:
    """What the TUI remembers between launches."""

    theme: str = "diskmark"
    target: str | None = None  # None: the app's fallback (usually the current directory)
    size: int = model.GIB
    count: int = 5
    unit: str = "MB/s"  # a model.Unit value: "MB/s", "GB/s", "IOPS", "us"
    profile: str = "default"
    preset: str = "default"
    mix: int | None = None  # read percentage of +Mix, None for no mix column
    mode: str = "rw"  # a model.Mode value
    data: str = "random"  # a model.DataPattern value
    direct: bool = True
    nocow: bool = False  # btrfs: the test file in a directory with copy-on-write off
    measure: float | None = None  # None: the preset's value
    interval: float | None = None
    compare: str | None = None  # the baseline the tiles are compared with, by name
    unstable_pct: float = model.UNSTABLE_PCT  # R/Avg above which a tile is marked unstable

    def to_settings(self, target_fallback: str) -> model.Settings:
        """The engine's Settings for these choices; ``target_fallback`` when no target is set.

        Whether the target still exists (an unplugged USB stick) is for the caller to check."""
        return model.Settings(
            target=self.target or target_fallback,
            preset=self.preset,
            profile=self.profile,
            mix=self.mix,
            mode=model.Mode(self.mode),
            size=self.size,
            count=self.count,
            measure=self.measure,
            interval=self.interval,
            data=model.DataPattern(self.data),
            direct=self.direct,
            nocow=self.nocow,
            unstable_pct=self.unstable_pct,
        )

    def with_settings(self, settings: model.Settings) -> AppConfig:
        """A copy holding the persisted parts of ``settings`` (theme and unit unchanged)."""
        return replace(
            self, target=settings.target, preset=settings.preset, profile=settings.profile,
            mix=settings.mix, mode=model.Mode(settings.mode).value, size=settings.size,
            count=settings.count, measure=settings.measure, interval=settings.interval,
            data=model.DataPattern(settings.data).value, direct=settings.direct,
            nocow=settings.nocow, unstable_pct=settings.unstable_pct)

    @property
    def unit_enum(self) -> model.Unit:
        return model.Unit.parse(self.unit)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, **asdict(self)}


# --- validation, one field at a time ---------------------------------------------------


class _Bad(ValueError):
    pass


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and math.isfinite(v)


def _v_theme(v: Any) -> str:
    if not isinstance(v, str) or not _THEME_RE.match(v):
        raise _Bad(f"theme {v!r} is not a theme name")
    return v


def _v_target(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip() or "\0" in v or len(v) > 4096:
        raise _Bad(f"target {v!r} is not a directory path")
    return v


def _v_size(v: Any) -> int:
    if not _is_int(v) or v not in model.SIZES:
        raise _Bad(f"size {v!r} is not one of CrystalDiskMark's sizes "
                   f"({model.format_size(model.SIZE_MIN)} … {model.format_size(model.SIZE_MAX)})")
    return v


def _v_count(v: Any) -> int:
    if not _is_int(v) or not model.COUNT_MIN <= v <= model.COUNT_MAX:
        raise _Bad(f"count {v!r} is not {model.COUNT_MIN} to {model.COUNT_MAX}")
    return v


def _v_unit(v: Any) -> str:
    if not isinstance(v, str):
        raise _Bad(f"unit {v!r} is not a unit")
    try:
        return model.Unit.parse(v).value
    except ValueError:
        raise _Bad(f"unit {v!r} is not MB/s, GB/s, IOPS or us") from None


def _v_id(name: str):
    def check(v: Any) -> str:
        if not isinstance(v, str) or not _ID_RE.match(v):
            raise _Bad(f"{name} {v!r} is not a {name} id")
        return v
    return check


def _v_mix(v: Any) -> int | None:
    if v is None:
        return None
    if not _is_int(v) or v not in model.MIX_RATIOS:
        raise _Bad(f"mix {v!r} is not a read percentage of 10, 20 … 90")
    return v


def _v_enum(name: str, enum: type):
    def check(v: Any) -> str:
        try:
            return enum(v).value
        except (ValueError, TypeError):
            allowed = ", ".join(e.value for e in enum)
            raise _Bad(f"{name} {v!r} is not one of {allowed}") from None
    return check


def _v_bool(name: str):
    def check(v: Any) -> bool:
        if not isinstance(v, bool):
            raise _Bad(f"{name} {v!r} is not true or false")
        return v
    return check


def _v_seconds(name: str, low: float):
    def check(v: Any) -> float | None:
        if v is None:
            return None
        if not _is_number(v) or not low <= v <= 3600:
            raise _Bad(f"{name} {v!r} is not {low:g} to 3600 seconds")
        return float(v)
    return check


def _v_unstable(v: Any) -> float:
    if not _is_number(v) or not model.UNSTABLE_MIN <= v <= model.UNSTABLE_MAX:
        raise _Bad(f"unstable_pct {v!r} is not {model.UNSTABLE_MIN:g} to "
                   f"{model.UNSTABLE_MAX:g} percent")
    return float(v)


def _v_compare(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip() or not v.isprintable() or len(v) > 200:
        raise _Bad(f"compare {v!r} is not a baseline name")
    return v


_VALIDATORS = {
    "theme": _v_theme,
    "target": _v_target,
    "size": _v_size,
    "count": _v_count,
    "unit": _v_unit,
    "profile": _v_id("profile"),
    "preset": _v_id("preset"),
    "mix": _v_mix,
    "mode": _v_enum("mode", model.Mode),
    "data": _v_enum("data", model.DataPattern),
    "direct": _v_bool("direct"),
    "nocow": _v_bool("nocow"),
    "measure": _v_seconds("measure", 1),
    "interval": _v_seconds("interval", 0),
    "compare": _v_compare,
    "unstable_pct": _v_unstable,
}
assert set(_VALIDATORS) == {f.name for f in fields(AppConfig)}


def parse_config(data: Any) -> tuple[AppConfig, list[str]]:
    """Build an AppConfig from decoded JSON; returns the config and what was wrong with it.

    A wrong top level or schema gives all defaults; a bad field gives that field's default.
    Unknown keys are ignored (a newer diskmark of the same schema may add fields)."""
    if not isinstance(data, dict):
        return AppConfig(), [f"it holds a JSON {type(data).__name__}, not an object"]
    schema = data.get("schema")
    if schema != SCHEMA:
        if isinstance(schema, str) and schema.startswith(SCHEMA_PREFIX):
            return AppConfig(), [f"it was written by another diskmark version "
                                 f"(schema {schema!r}; this one reads {SCHEMA!r})"]
        return AppConfig(), [f"it is not a diskmark settings file (schema {schema!r}, "
                             f"expected {SCHEMA!r})"]
    kw: dict[str, Any] = {}
    problems: list[str] = []
    for name, check in _VALIDATORS.items():
        if name not in data:
            continue
        try:
            kw[name] = check(data[name])
        except _Bad as e:
            problems.append(str(e))
    return AppConfig(**kw), problems


# --- files ------------------------------------------------------------------------------


def config_path() -> Path:
    return config_dir() / FILE_NAME


def _damaged_name(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    return candidate


def _move_aside(path: Path) -> Path | None:
    """Rename a damaged settings file out of the way; None if that was not possible."""
    target = _damaged_name(path)
    try:
        os.rename(path, target)
    except OSError:
        return None
    return target


def _read(path: Path) -> tuple[AppConfig, list[str]] | None:
    """None when there is no file; else the config and its problems (empty when sound).
    Only a regular file of at most CONFIG_MAX_BYTES is read: a FIFO must not hang the app
    at start, nor a link to /dev/zero fill its memory."""
    try:
        raw = read_regular_file(path, CONFIG_MAX_BYTES)
    except FileNotFoundError:
        return None
    except NotRegularFile as e:
        return AppConfig(), [f"it is {e}"]
    except OSError as e:
        return AppConfig(), [f"it cannot be read ({e.strerror or e})"]
    if not raw.strip():
        return AppConfig(), ["it is empty"]
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return AppConfig(), ["it is not UTF-8 text"]
    except json.JSONDecodeError as e:
        return AppConfig(), [f"it is not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}"]
    except RecursionError:
        return AppConfig(), ["it is not valid JSON (nested too deeply)"]
    return parse_config(data)


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
    what = ("defaults are used" if _whole_file_problem(problems)
            else "defaults are used for the values that could not be read")
    moved = _move_aside(path) if path.is_file() else None
    if moved is not None:
        kept = f"The damaged file was kept as {moved}."
    else:
        kept = "The damaged file could not be moved aside; it will not be overwritten."
    notice = f"The settings file {path} is damaged ({'; '.join(problems)}), so {what}. {kept}"
    return cfg, notice


def _whole_file_problem(problems: list[str]) -> bool:
    """Problems about the file as a whole start with "it " (see ``_read``/``parse_config``)."""
    return any(p.startswith("it ") for p in problems)


#: A byte of a path that is not UTF-8, as os.fsdecode keeps it: it cannot be written as
#: UTF-8, but a JSON escape of it reads back as the same path.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _json_escape(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def save_config(cfg: AppConfig) -> Path:
    """Write ``cfg`` atomically. A settings file that is there but damaged (e.g. edited by
    hand while the app ran) is moved aside first rather than overwritten."""
    path = config_path()
    if os.path.exists(path) and not path.is_file():  # following a link, as reading does
        raise OSError(f"{path} is not a regular file (a FIFO, a device or a directory); "
                      f"diskmark does not replace it, so the settings are not saved")
    existing = _read(path)
    if existing is not None and existing[1] and path.is_file():
        if _move_aside(path) is None:
            raise OSError(f"cannot move the damaged settings file {path} aside; not saving")
    text = _LONE_SURROGATE.sub(_json_escape,
                               json.dumps(cfg.to_dict(), indent=2, ensure_ascii=False)) + "\n"
    write_atomic(Path(os.path.realpath(path)), text)  # through a link, the link stays
    return path
