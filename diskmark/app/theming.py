"""Themes in the app: diskmark's and the user's registered beside Textual's, the saved one
applied at start, every change saved, and the tile variables derived for any theme."""

from __future__ import annotations

from typing import Any

from diskmark.app.themes import DEFAULT_THEME, load_themes, variable_defaults


class Theming:
    """The DiskmarkApp's themes (a mixin: the state it uses is the app's)."""

    def _register_themes(self) -> None:
        try:
            themes, problems = load_themes()
        except Exception as e:  # a broken built-in theme file must not stop the app
            self._notices.append(f"Themes could not be loaded: {e}")
            return
        self._notices.extend(f"Skipped theme {problem}" for problem in problems)
        for theme in themes:
            self.register_theme(theme)

    def _start_theme(self) -> None:
        """The saved theme, then saving every change of it (once, whichever of the app and
        its main screen mounts first)."""
        if self._theme_started:
            return
        self._theme_started = True
        self._apply_theme(self._wanted_theme)
        self.theme_changed_signal.subscribe(self, self._on_theme_change)

    def _apply_theme(self, name: str) -> None:
        if name not in self.available_themes:
            fallback = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
            if name:
                self._notices.append(f"Theme {name!r} is not available; using {fallback}.")
            name = fallback
        self.theme = name

    def set_theme(self, name: str) -> None:
        self.theme = name

    def _on_theme_change(self, _theme: Any) -> None:
        self._save()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Our own variables ($tile-background, $meter-color, $row-button-background …),
        derived from the current theme when it does not set them, so Textual's built-in
        themes get coherent tiles too."""
        return variable_defaults(self.current_theme)
