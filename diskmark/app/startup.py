"""How the app starts once its window is up: the keys typed before it kept until then, and
what the first frame does not wait for (the notices gathered while the app started, the
baseline compared with last time, the garbage collector back on, and, in threads once the
window is drawn, the target's facts and the sweep of test files a killed diskmark left)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual import events

from diskmark.app.comparing import find_baseline
from diskmark.locale import _

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from diskmark.app.core.protocol import AppLike


class EarlyKeys:
    """Keys typed before the window is up (a terminal shows it only once the app has
    mounted): kept, then replayed once it is drawn and its focus set, as if typed then."""

    def __init__(self) -> None:
        self.keys: list[events.Key] = []

    def replay(self, app: MessagePump) -> None:
        for early in self.keys:
            key = events.Key(early.key, early.character)
            key.set_sender(app)  # as the driver sends it: a sender lets the key bubble back
            app.post_message(key)
        self.keys.clear()


def after_first_frame(app: AppLike, notices: list[str], baseline: str | None,
                      load_facts: Callable[[], object]) -> None:
    """``notices``: what to tell the user (emptied); ``baseline``: the name of the one the
    tiles were compared with last time; ``load_facts``: reads the target's facts in a
    thread."""
    if baseline:
        entry, notice = find_baseline(app.store, baseline)
        if entry is None:
            notices.append(notice)
        app.set_baseline(entry)  # saved: a baseline that went is not looked for again
    for text in notices:  # long ones (a keymap's problems) stay long enough to read
        app.notify(text, severity="warning", timeout=max(12.0, len(text) / 20))
    for problem in app.state.catalog.problems:
        # TRANSLATORS: {problem} is "file:line: what is wrong with it"
        app.notify(_("Skipped preset {problem}").format(problem=problem), severity="warning",
                   timeout=12)
    notices.clear()
    # threads, but they hold the interpreter too: they start once the window is drawn
    app.call_after_refresh(gc.enable)  # off from the start (diskmark.launch) until now
    app.call_after_refresh(load_facts)
    app.call_after_refresh(app.run_worker, partial(_sweep_leftovers, app), thread=True,
                           group="leftovers", exit_on_error=False)


def _sweep_leftovers(app: AppLike) -> None:
    """Test files a killed diskmark left (kill -9, a power cut) go at start, saying so; the
    cache file of earlier versions goes too, unsaid."""
    from diskmark.engine.leftovers import sweep_register
    from diskmark.files.old_cache import remove_toml_cache

    remove_toml_cache()

    for found in sweep_register():
        app.call_from_thread(app.notify, found.describe(),
                             severity="information" if found.removed else "warning",
                             timeout=15)
