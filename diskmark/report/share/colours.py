"""A theme's colours for a shared page, read from the same TOML files the app uses.

The app's theme loader imports Textual (it checks every value with Textual's CSS parser), so
a page rendered by the CLI reads the theme files itself: the built-in ones beside
``diskmark/themes/__init__.py``, then the user's (``~/.config/diskmark/themes``). A value a
theme lacks falls back to the diskmark theme's; a colour that is not ``#rgb``/``#rrggbb``
(what a page can use as is) falls back too, so a page never carries a broken colour.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from diskmark.files.paths import user_themes_dir
from diskmark.files.regular_file import read_regular_file
from diskmark.themes import BUILTIN_DIR

DEFAULTS: dict[str, str] = {
    "background": "#E6E9E4", "surface": "#F2F4F0", "panel": "#D5DBD2", "foreground": "#1B1F1B",
    "primary": "#257A33", "accent": "#1F6FB2", "warning": "#A3620A", "error": "#B42318",
    "tile-background": "#FBFCFA", "tile-foreground": "#111111", "tile-border": "#98B394",
    "meter-color": "#B5DFA6", "meter-background": "#FBFCFA",
    "row-button-background": "#257A33", "row-button-foreground": "#FFFFFF",
    "column-header-foreground": "#1D5E27", "better-color": "#1E7B34",
    "worse-color": "#B42318", "same-color": "#596159",
}
_COLOUR = re.compile(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class UnknownTheme(ValueError):
    """No theme of that name; the message lists the ones there are."""


def _read(name: str) -> dict[str, Any] | None:
    for folder in (BUILTIN_DIR, user_themes_dir()):
        path = folder / f"{name}.toml"
        try:
            return tomllib.loads(read_regular_file(path, 1024 * 1024).decode("utf-8"))
        except FileNotFoundError:
            continue
        except (OSError, ValueError, UnicodeDecodeError):
            return None  # a broken theme: the defaults
    return None


def theme_colours(name: str = "diskmark") -> dict[str, str]:
    """The colours of theme ``name``, every key of :data:`DEFAULTS` filled in."""
    if not _NAME.fullmatch(name):
        raise UnknownTheme(f"not a theme name: {name!r}")
    data = _read(name)
    if data is None:
        names = sorted(p.stem for p in BUILTIN_DIR.glob("*.toml"))
        raise UnknownTheme(f"no theme named {name!r} (built in: {', '.join(names)})")
    found = {k: v for k, v in data.items() if isinstance(v, str)}
    found.update({k: v for k, v in (data.get("variables") or {}).items() if isinstance(v, str)})
    return {key: found[key] if _COLOUR.fullmatch(found.get(key, "")) else default
            for key, default in DEFAULTS.items()}
