"""What the app remembers between launches, bridged to :mod:`diskmark.store.app_settings`.

The app works with the engine's :class:`~diskmark.model.settings.Settings` plus what only
the screen cares about (unit, theme, the baseline compared with and the keymap); this module
converts to and from the persisted ``AppConfig`` and turns every failure into a message,
never an exception: losing a preference must not stop a benchmark.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from diskmark.app.themes import MONO_THEME
from diskmark.files.paths import default_target
from diskmark.files.regular_file import read_regular_file
from diskmark.locale import _
from diskmark.model.settings import Settings
from diskmark.model.units import Unit
from diskmark.store.app_settings import CONFIG_MAX_BYTES, AppConfig, config_path, load_config, save_config

if TYPE_CHECKING:
    from diskmark.app.core.state import AppState


@dataclass
class Preferences:
    """What the app starts with from the settings file (and keeps there as it changes)."""

    settings: Settings = field(default_factory=Settings)
    unit: Unit = Unit.MB_S
    theme: str = AppConfig.theme
    compare: str | None = None  # name of the baseline the tiles are compared with
    #: binding id -> keys, as the user remapped them ({"run_all": "r"}); see the help screen
    keymap: dict[str, str] | None = None
    #: the language chosen in the app (None: the environment's)
    language: str | None = None


def _theme_was_saved() -> bool:
    """Whether the user ever chose a theme (the config's default cannot tell us)."""
    try:
        data = json.loads(read_regular_file(config_path(), CONFIG_MAX_BYTES))
    except (OSError, ValueError, RecursionError):  # load_config reports what is wrong
        return False
    return isinstance(data, dict) and "theme" in data


def load_preferences(target: str | None = None) -> tuple[Preferences, list[str]]:
    """Saved settings (``target`` overrides the saved one) and notices for the user."""
    notices: list[str] = []
    try:
        cfg, notice = load_config()
    except Exception as e:  # a bug in loading must not keep the app from starting
        # TRANSLATORS: {error} says what went wrong
        cfg, notice = AppConfig(), _("The saved settings could not be read ({error}); using "
                                     "defaults.").format(error=e)
    if notice:
        notices.append(notice)
    first = default_target()
    settings = cfg.to_settings(first)
    if target is not None:
        settings.target = str(Path(target).expanduser().absolute())
    elif cfg.target and not (Path(cfg.target).is_dir() or Path(cfg.target).is_block_device()):
        notices.append(_("The last target {path} is not there any more; using {default}.")
                       .format(path=cfg.target, default=first))
        settings.target = first
    try:
        unit = cfg.unit_enum
    except ValueError:
        unit = Unit.MB_S
    theme = cfg.theme
    if os.environ.get("NO_COLOR") and not _theme_was_saved():
        theme = MONO_THEME
    return Preferences(settings, unit, theme, cfg.compare, cfg.keymap, cfg.language), notices


def save_preferences(state: AppState, theme: str) -> str | None:
    """Keep what the settings file keeps of ``state`` (and the ``theme``); returns a
    message when that failed."""
    compare = state.baseline.name if state.baseline is not None else None
    try:
        cfg = AppConfig(theme=theme, unit=state.unit.value, compare=compare,
                        keymap=state.keymap, language=state.language).with_settings(state.settings)
        save_config(cfg)
    except Exception as e:  # disk full, read-only home, damaged file that cannot be moved
        return _("Settings could not be saved: {error}").format(error=e)
    return None
