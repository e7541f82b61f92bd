"""Themes in the app: diskmark's and the user's registered beside Textual's, the saved one
applied at start, every change saved, and the tile variables derived for any theme."""

from __future__ import annotations

from typing import Any

from textual.app import App

from diskmark.app.themes import DEFAULT_THEME, load_themes, variable_defaults


class Theming:
    """The DiskmarkApp's themes (a mixin: the state it uses is the app's)."""

    #: Textual's App.__init__ works out the CSS variables of its default theme, which
    #: diskmark replaces at once (_preset_theme): until then there are none to work out.
    _theme_chosen = False

    def get_css_variables(self) -> dict[str, str]:
        return super().get_css_variables() if self._theme_chosen else {}  # type: ignore[misc]

    def _register_themes(self) -> None:
        try:
            themes, problems = load_themes()
        except Exception as e:  # a broken built-in theme file must not stop the app
            self._notices.append(f"Themes could not be loaded: {e}")
            return
        self._notices.extend(f"Skipped theme {problem}" for problem in problems)
        for theme in themes:
            self.register_theme(theme)

    def _preset_theme(self, name: str) -> None:
        """The saved theme, in place before anything is styled: set as the theme watcher
        would, without it. Set later (on mount), the whole window was styled twice, and
        the second time cost a third of the first frame's time."""
        if name not in self.available_themes:
            fallback = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
            if name:
                self._notices.append(f"Theme {name!r} is not available; using {fallback}.")
            name = fallback
        self.set_reactive(App.theme, name)
        dark = self.current_theme.dark
        self.set_class(True, f"-theme-{name}", update=False)
        self.set_class(dark, "-dark-mode", update=False)
        self.set_class(not dark, "-light-mode", update=False)
        self._refresh_truecolor_filter(self.ansi_theme)
        self._theme_chosen = True
        self.stylesheet.set_variables(self.get_css_variables())  # nothing is parsed yet

    def _start_theme(self) -> None:
        """From now on every change of theme is saved (once, whichever of the app and its
        main screen mounts first)."""
        if self._theme_started:
            return
        self._theme_started = True
        self.theme_changed_signal.subscribe(self, self._on_theme_change)

    def set_theme(self, name: str) -> None:
        self.theme = name

    def _on_theme_change(self, _theme: Any) -> None:
        self._save()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Our own variables ($tile-background, $meter-color, $row-button-background …),
        derived from the current theme when it does not set them, so Textual's built-in
        themes get coherent tiles too."""
        return variable_defaults(self.current_theme)
