"""Themes in the app: diskmark's and the user's registered beside Textual's, and the saved one
set before anything is styled (the app saves every later change and derives the tile
variables for any theme, :func:`diskmark.app.themes.variable_defaults`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App

from diskmark.app.themes import DEFAULT_THEME, load_themes
from diskmark.locale import _

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike


def register_themes(app: AppLike) -> list[str]:
    """Register every theme file that reads well; returns what to tell the user about the
    others."""
    try:
        themes, problems = load_themes()
    except Exception as e:  # a broken built-in theme file must not stop the app
        return [_("Themes could not be loaded: {error}").format(error=e)]
    for theme in themes:
        app.register_theme(theme)
    # TRANSLATORS: {problem} is "file:line: what is wrong with it"
    return [_("Skipped theme {problem}").format(problem=problem) for problem in problems]


def preset_theme(app: AppLike, name: str) -> list[str]:
    """The saved theme, in place before anything is styled: set as the theme watcher
    would, without it. Set later (on mount), the whole window was styled twice, and the
    second time cost a third of the first frame's time. Returns what to tell the user when
    the theme is not there (another is used)."""
    notices = []
    if name not in app.available_themes:
        fallback = DEFAULT_THEME if DEFAULT_THEME in app.available_themes else "textual-dark"
        if name:
            notices.append(_("Theme {name} is not available; using {fallback}.")
                           .format(name=repr(name), fallback=fallback))
        name = fallback
    app.set_reactive(App.theme, name)
    dark = app.current_theme.dark
    app.set_class(True, f"-theme-{name}", update=False)
    app.set_class(dark, "-dark-mode", update=False)
    app.set_class(not dark, "-light-mode", update=False)
    app._refresh_truecolor_filter(app.ansi_theme)
    return notices
