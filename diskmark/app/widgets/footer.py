"""The footer of keys, in the language in use, drawn again only when the keys it shows have
changed.

Textual's Footer composes all its keys anew whenever the screen's bindings may have changed:
each focus change, each widget mounted, each check of the actions' states. At start the
main screen settles through several of those in its first moments, and each recompose (ten
keys mounted and styled) cost the first complete frame about 20 ms while showing the same
keys. Comparing what would be shown with what is shown keeps the footer exactly as live
(a key that becomes disabled, a remapped key, a screen's own keys, another language) at a
fraction of that.

The bindings' descriptions and tooltips are declared in English (marked with ``N_``, before
a language is chosen) and translated here, as each key is drawn, so a change of language
reaches every footer at once.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from diskmark.locale import N_, _, language

#: The words of the command palette's key, which Textual adds itself: marked here so that
#: they are translated with the app's own keys.
TEXTUAL_WORDS = (N_("palette"), N_("Open the command palette"))


class KeysFooter(Footer):
    """A Footer in the language in use that recomposes only when its keys, their labels,
    their states or the language change."""

    _shown: tuple[Any, ...] | None = None

    def _keys(self) -> tuple[Any, ...]:
        """Everything the footer's compose reads, as one comparable value."""
        app = self.app
        return (language(), self.compact, self.show_command_palette,
                tuple((b.key, app.get_key_display(b), b.description, b.action, b.show,
                       b.group, enabled, tooltip)
                      for _node, b, enabled, tooltip in self.screen.active_bindings.values()))

    def compose(self) -> ComposeResult:
        """Textual's keys, each description and tooltip translated."""
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                if widget.description:
                    widget.description = _(widget.description)
                tooltip = widget.tooltip
                if isinstance(tooltip, str) and tooltip:
                    widget.tooltip = _(tooltip)
            yield widget

    def bindings_changed(self, screen: Screen[Any]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        if not self.is_attached:  # its screen went (a dialog closed) before this refresh
            return
        shown = self._keys()
        if shown != self._shown:
            self._shown = shown
            await self.recompose()
