"""Where diskmark keeps its files: XDG directories via platformdirs, overridable for tests.

``DISKMARK_HOME`` puts data (history, baselines), config (settings, user presets) and state
(test directories in use) under one directory, so a test or a portable install never touches the user's real files.
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


def state_dir() -> Path:
    """What a running session leaves for the next start to check: the register of test
    directories in use, so one left by a diskmark that was killed can be found and removed."""
    home = _home()
    return home / "state" if home else Path(platformdirs.user_state_dir(APP))


def user_presets_dir() -> Path:
    return config_dir() / "presets"


def user_themes_dir() -> Path:
    return config_dir() / "themes"
