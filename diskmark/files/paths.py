"""Where diskmark keeps its files: XDG directories via platformdirs, overridable for tests.

``DISKMARK_HOME`` puts data (history, baselines), config (settings, user presets), state
(test directories in use), the cache (parsed preset and theme files) and the reports and
screenshots the app saves under one directory, so a test or a portable install never
touches the user's real files.
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


def cache_dir() -> Path:
    """What can be made again from other files (what the preset and theme files parsed to)."""
    home = _home()
    return home / "cache" if home else Path(platformdirs.user_cache_dir(APP))


def user_presets_dir() -> Path:
    return config_dir() / "presets"


def user_themes_dir() -> Path:
    return config_dir() / "themes"


def user_checks_dir() -> Path:
    return config_dir() / "checks"


def claims_file() -> Path:
    """Datasheets' claims, kept under each drive's model (see diskmark.checks.claims)."""
    return config_dir() / "claims.toml"


def reports_dir() -> Path:
    """Where the app saves text reports and screenshots: the user's documents directory
    (XDG_DOCUMENTS_DIR, usually ~/Documents) under diskmark/, not wherever the app was
    started (with ./start.sh that would be the source checkout). Created when first used."""
    home = _home()
    return home / "reports" if home else Path(platformdirs.user_documents_dir()) / APP


def default_target() -> str:
    """The first target before the user chose one: the home directory, which lives on the
    disk a user means when they say "my disk", and which they can write to."""
    home = Path.home()
    return str(home) if home.is_dir() and os.access(home, os.W_OK) else str(Path.cwd())
