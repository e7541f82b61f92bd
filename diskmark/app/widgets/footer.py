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

from rich.cells import cell_len
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
        return (language(), self.compact, self.show_command_palette, self.size.width,
                tuple((b.key, app.get_key_display(b), b.description, b.action, b.show,
                       b.group, enabled, tooltip)
                      for _node, b, enabled, tooltip in self.screen.active_bindings.values()))

    def compose(self) -> ComposeResult:
        """Textual's keys, each description and tooltip translated, and shortened where
        all of them would not fit in the window's width."""
        widgets = list(super().compose())
        keys = [w for w in widgets if isinstance(w, FooterKey)]
        for key in keys:
            if key.description:
                key.description = _(key.description)
            tooltip = key.tooltip
            if isinstance(tooltip, str) and tooltip:
                key.tooltip = _(tooltip)
        fit(keys, self.size.width or self.app.size.width, self.compact)
        yield from widgets

    def on_resize(self) -> None:
        self.call_after_refresh(self._recompose_if_changed)

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


def _cells(key: FooterKey, compact: bool) -> int:
    """The cells ``key`` takes in the footer, as the Footer's CSS lays it out."""
    words = cell_len(key.description)
    if key.has_class("-command-palette"):  # docked right, after a one-cell border
        return 1 + cell_len(key.key_display) + (1 + words if words else 0) + 1
    if compact:  # the key, a space, the words, a margin
        return cell_len(key.key_display) + (1 + words if words else 0) + 1
    return cell_len(key.key_display) + 2 + (words + 1 if words else 0)


def _shortened(text: str, cells: int) -> str:
    """``text`` cut to ``cells`` cells, an ellipsis last."""
    while text and cell_len(text) + 1 > cells:
        text = text[:-1]
    return text + "…"


def fit(keys: list[FooterKey], width: int, compact: bool) -> None:
    """Shorten the longest descriptions, one cell at a time, until every key fits in
    ``width`` (German and Russian words are long, Japanese ones wide: no key may be pushed
    off the footer), after the palette's key has dropped its word; the full words stay in
    each key's tooltip. When even that is not
    enough, the keys furthest right show the key alone."""
    # the margin after the last key may lie under the palette key's border
    over = sum(_cells(k, compact) for k in keys) - width - (1 if compact else 0)
    for key in keys:  # the palette's key alone first: ^p is known from every Textual app
        if over > 0 and key.has_class("-command-palette") and key.description:
            over -= cell_len(key.description) + 1
            key.tooltip = key.tooltip or key.description
            key.description = ""
    while over > 0:
        longest = max(keys, key=lambda k: cell_len(k.description), default=None)
        if longest is None or cell_len(longest.description) <= 4:
            break
        if not longest.tooltip:
            longest.tooltip = longest.description
        before = _cells(longest, compact)
        longest.description = _shortened(longest.description, cell_len(longest.description) - 1)
        over -= before - _cells(longest, compact)
    for key in reversed(keys):
        if over <= 0:
            break
        if key.description and not key.has_class("-command-palette"):
            over -= cell_len(key.description) + 1
            key.tooltip = key.tooltip or key.description
            key.description = ""
