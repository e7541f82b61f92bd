"""Where diskmark keeps its files: XDG directories via platformdirs, overridable for tests.

``DISKMARK_HOME`` puts data (history, baselines) *and* config (settings, user presets) under
one directory, so a test or a portable install never touches the user's real files.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "diskmark"


def _home() -> Path | None:
    home = os.environ.get("DISKMARK_HOME")
    return Path(home).expanduser() if home else None


def data_dir() -> Path:
    home = _home()
    return home / "data" if home else Path(platformdirs.user_data_dir(APP))


def config_dir() -> Path:
    home = _home()
    return home / "config" if home else Path(platformdirs.user_config_dir(APP))


def user_presets_dir() -> Path:
    return config_dir() / "presets"


def user_themes_dir() -> Path:
    return config_dir() / "themes"
