"""Textual's command palette in the language in use: its placeholder, its "No matches found"
and the entries Textual adds itself (Theme, Quit, Maximize and their help), which Textual
writes in English. diskmark's own entries are in :mod:`diskmark.app.commands`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rich.align import Align
from rich.text import Text
from textual.app import App, SystemCommand
from textual.command import CommandList, CommandPalette, ProviderSource
from textual.screen import Screen
from textual.widgets.option_list import Option

from diskmark.locale import N_, _

#: Textual's own words in the palette, marked to be translated where they are shown.
TEXTUAL_WORDS = (
    N_("Search for commands…"), N_("Search for themes…"), N_("No matches found"),
    N_("Theme"), N_("Change the current theme"),
    N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Minimize"), N_("Minimize the widget and restore to normal size"),
    N_("Maximize"), N_("Maximize the focused widget"),
)


def translated(system: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Textual's entries, less the two diskmark has its own of ("Keys": our help lists
    diskmark's keys; "Screenshot": ours never replaces a file), each in the language in use."""
    for command in system:
        if command.title in ("Keys", "Screenshot"):
            continue
        yield SystemCommand(_(command.title), _(command.help), command.callback,
                            command.discover)


class Palette(CommandPalette):
    """Textual's palette, its words in the language in use."""

    def __init__(self, providers: ProviderSource | None = None, *,
                 placeholder: str = "Search for commands…", id: str | None = None) -> None:
        super().__init__(providers, placeholder=_(placeholder), id=id)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """Textual's, with its sentence translated: after a moment with no match for what
        was typed, the list says so (nothing when nothing was typed)."""
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(Option(
                    Align.center(Text(_("No matches found"), style="not bold")),
                    disabled=True, id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)


class PaletteHooks(App[Any]):
    """The App's side of it: Textual's palette, its theme picker and its own entries, each
    in the language in use (a part of the App, as its keys' actions are)."""

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        return translated(super().get_system_commands(screen))

    def action_command_palette(self) -> None:
        if self.use_command_palette and not Palette.is_open(self):
            self.push_screen(Palette(id="--command-palette"))

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        self.push_screen(Palette([ThemeProvider], placeholder="Search for themes…"))
