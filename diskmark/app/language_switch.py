"""Changing the app's language while it runs: the whole window at once, never half of it.

Every text is translated as it is drawn, so the main screen, told of the new language,
composes itself anew from the app's state (settings, the result on the tiles, the
comparison, the facts); a dialog open over it was drawn in the old language and goes. A run
under way keeps writing its tiles and status line, so the language waits for it to end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diskmark.locale import _, as_sentence, language, set_language, unreadable_catalog
from diskmark.locale.text_safety import shown

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike


def switch_language(app: AppLike, wanted: str) -> bool:
    """Speak ``wanted`` from now on; returns whether the language changed (the app then
    saves it), False while a run is under way or when its catalog cannot be read (said in
    a notice; the window stays in its language)."""
    if app.state.running:
        app.notify(_("The language cannot change while a test runs; stop it first "
                     "({key}).").format(key=app.state.keys.key("stop")), severity="warning")
        return False
    before = language()
    chosen = set_language(wanted)
    if (notice := unreadable_catalog_notice()) is not None:
        set_language(before)  # the window stays as it is
        app.notify(notice, severity="warning", timeout=12)
        return False
    app.state.language = chosen
    while len(app.screen_stack) > 1:  # a dialog drawn in the old language goes
        app.pop_screen()
    app.signals.language.publish(chosen)  # the main screen, alone now, speaks again
    app.refresh_bindings()
    return True


def unreadable_catalog_notice() -> str | None:
    """What the app says when the language last asked for could not be spoken, its catalog
    unreadable (None: it is spoken): in English, the catalog being what failed."""
    unreadable = unreadable_catalog()
    if unreadable is None:
        return None
    return as_sentence(shown(unreadable.warning, one_line=True))
