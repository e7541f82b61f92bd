"""The footer of keys, drawn again only when the keys it shows have changed.

Textual's Footer composes all its keys anew whenever the screen's bindings may have changed:
each focus change, each widget mounted, each check of the actions' states. At start the
main screen settles through several of those in its first moments, and each recompose (ten
keys mounted and styled) cost the first complete frame about 20 ms while showing the same
keys. Comparing what would be shown with what is shown keeps the footer exactly as live
(a key that becomes disabled, a remapped key, a screen's own keys) at a fraction of that.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    """A Footer that recomposes only when its keys, their labels or their states change."""

    _shown: tuple[Any, ...] | None = None

    def _keys(self) -> tuple[Any, ...]:
        """Everything the footer's compose reads, as one comparable value."""
        app = self.app
        return (self.compact, self.show_command_palette,
                tuple((b.key, app.get_key_display(b), b.description, b.action, b.show,
                       b.group, enabled, tooltip)
                      for _, b, enabled, tooltip in self.screen.active_bindings.values()))

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
