"""Changing the app's language while it runs: the whole window at once, never half of it.

Every text is translated as it is drawn, so the main screen is composed anew from the app's
state (settings, the result on the tiles, the comparison, the facts); a dialog open over it
was drawn in the old language and goes. A run under way keeps writing its tiles and status
line, so the language waits for it to end.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from diskmark.app.protocol import diskmark_app
from diskmark.app.screens.main import MainScreen
from diskmark.locale import _, set_language


def switch_language(app: App[Any], wanted: str) -> bool:
    """Speak ``wanted`` from now on; returns whether the language changed (the app then
    saves it), False while a run is under way (said in a notice)."""
    dm = diskmark_app(app)
    if dm.state.running:
        app.notify(_("The language cannot change while a test runs; stop it first "
                     "({key}).").format(key=dm.state.keys.key("stop")), severity="warning")
        return False
    dm.state.language = set_language(wanted)
    while len(app.screen_stack) > 1:  # a dialog drawn in the old language goes
        app.pop_screen()
    main = app.screen  # the main screen, alone now
    if isinstance(main, MainScreen):
        app.run_worker(main.speak_again(), group="language", exclusive=True)
    app.refresh_bindings()
    return True
