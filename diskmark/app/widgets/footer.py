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
reaches every footer at once. A footer's word is a label read at a glance in a tenth of 80
columns: each is marked a second time in the context "footer", where a translator gives
the short word CrystalDiskMark's translators give its buttons ("Optionen" for
"Einstellungen"); without one the app's own word is used. A word is never cut: when the
keys do not fit, the palette's key drops its word, then the keys furthest right (but the
help, which lists them all) are left out of the footer; every key still works, and the help
and the palette name it.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from diskmark.locale import N_, NP_, _, language, pgettext

#: The words of the command palette's key, which Textual adds itself: marked here so that
#: they are translated with the app's own keys.
TEXTUAL_WORDS = (N_("palette"), N_("Open the command palette"))

#: Every word a footer shows, as a footer's word (a test holds it to every key shown).
# TRANSLATORS: a key's word in the footer, read at a glance: at 80 columns the footer has
# about 8 cells a key. Give the shortest word of your language for it (as CrystalDiskMark's
# translators do for its buttons), or the same word as elsewhere if it is short already.
FOOTER_WORDS = (
    NP_("footer", "All"), NP_("footer", "Stop"), NP_("footer", "Unit"), NP_("footer", "Save"),
    NP_("footer", "Target"), NP_("footer", "Settings"), NP_("footer", "Baselines"),
    NP_("footer", "Help"), NP_("footer", "Quit"), NP_("footer", "palette"),
    NP_("footer", "Back"), NP_("footer", "Cancel"), NP_("footer", "Close"),
    NP_("footer", "Compare"), NP_("footer", "Copy"), NP_("footer", "Copy as text"),
    NP_("footer", "Copy fio command"), NP_("footer", "Copy the curve"), NP_("footer", "Delete"),
    NP_("footer", "Export"), NP_("footer", "Filter"), NP_("footer", "Import"),
    NP_("footer", "Next test"), NP_("footer", "Open run"), NP_("footer", "Parent directory"),
    NP_("footer", "Pseudo filesystems"), NP_("footer", "Read/write/mix"),
    NP_("footer", "Rename"), NP_("footer", "Share"), NP_("footer", "Stop / Close"),
    NP_("footer", "Trend"), NP_("footer", "Use"), NP_("footer", "Use this directory"),
    NP_("footer", "Use this mount"), NP_("footer", "View"), NP_("footer", "vs other"),
    NP_("footer", "vs run"), NP_("footer", "Copy the table"), NP_("footer", "One target"),
    NP_("footer", "Add as another target"), NP_("footer", "Measure the layers below"),
)


def footer_word(description: str) -> str:
    """``description`` as a footer shows it: the footer's short word where the language has
    one, else the word the rest of the app uses."""
    short = pgettext("footer", description)
    return short if short != description else _(description)


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
            tooltip = key.tooltip
            if isinstance(tooltip, str) and tooltip:
                key.tooltip = _(tooltip)
            if key.description:
                word = footer_word(key.description)
                if not key.tooltip and word != _(key.description):
                    key.tooltip = _(key.description)  # the whole word where the footer's is short
                key.description = word
        left_out = fit(keys, self.size.width or self.app.size.width, self.compact)
        yield from (w for w in widgets if w not in left_out)

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


def fit(keys: list[FooterKey], width: int, compact: bool) -> list[FooterKey]:
    """The keys to leave out so that the others fit in ``width`` whole (German and Russian
    words are long, Japanese ones wide; no key may be pushed off the footer, and no word is
    ever cut): first the palette's key drops its word (^p is known from every Textual app),
    then the keys furthest right are left out, all but the help's."""
    # the margin after the last key may lie under the palette key's border
    over = sum(_cells(k, compact) for k in keys) - width - (1 if compact else 0)
    for key in keys:
        if over > 0 and key.has_class("-command-palette") and key.description:
            over -= cell_len(key.description) + 1
            key.tooltip = key.tooltip or key.description
            key.description = ""
    left_out: list[FooterKey] = []
    for key in reversed(keys):
        if over <= 0:
            break
        if key.has_class("-command-palette") or key.action == "help":
            continue
        over -= _cells(key, compact)
        left_out.append(key)
    return left_out
