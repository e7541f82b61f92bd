"""The app's lifetime: how it starts (the main screen drawn as soon as it has composed, keys
typed ahead kept for it, what the first frame does not need started after it) and how it
ends (quit, SIGTERM/SIGINT/SIGQUIT and SIGHUP stop fio and remove the test file first)."""

from __future__ import annotations

import asyncio
import gc
import os
import signal

from textual import events, work
from textual.widget import AwaitMount

QUIT_GRACE_S = 10.0  # how long quitting waits for fio to stop and the test file to go
STOP_SIGNALS = (signal.SIGTERM, signal.SIGQUIT, signal.SIGINT)


class Lifetime:
    """The DiskmarkApp's start and end (a mixin: the state it uses is the app's)."""

    #: Whether mounting waits for the main screen (None: only when headless).
    wait_for_main: bool | None = None

    async def on_mount(self) -> None:
        # The main screen composes in its own task. In a terminal the app does not wait for
        # it: while the app mounts nothing is displayed, so a window laid out and drawn in
        # that time was drawn for nothing, then drawn again in pieces (60 ms of the first
        # frame); keys typed before the window is there wait for it (on_event). Headless (a
        # pilot, a snapshot) the app is ready only once the window is all there.
        if self.wait_for_main if self.wait_for_main is not None else self.is_headless:
            await AwaitMount(self.main, [self.main])
        self._start_theme()
        if not self.is_headless:
            loop = asyncio.get_running_loop()
            for sig in STOP_SIGNALS:
                loop.add_signal_handler(sig, self._on_stop_signal)
            loop.add_signal_handler(signal.SIGHUP, self._on_hangup)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not self._main_up:
            self._early_keys.append(event)  # typed ahead: replayed once the window is up
            return
        await super().on_event(event)

    def _replay_early_keys(self) -> None:
        """Once the window is drawn and its focus set, as if typed now."""
        for early in self._early_keys:
            key = events.Key(early.key, early.character)
            key.set_sender(self)  # as the driver sends it: a sender lets the key bubble back
            self.post_message(key)
        self._early_keys.clear()

    def main_screen_ready(self) -> None:
        """The main screen is up: the keys typed ahead, what it shows next (facts, the
        baseline compared with, the notices) and the start-up clean-up, none of which the
        first frame waits for."""
        self._main_up = True
        self.call_after_refresh(self._replay_early_keys)
        self._start_theme()
        self._restore_baseline(self._wanted_baseline)
        for notice in self._notices:  # long ones (a keymap's problems) stay long enough to read
            self.notify(notice, severity="warning", timeout=max(12.0, len(notice) / 20))
        for problem in self.state.catalog.problems:
            self.notify(f"Skipped preset {problem}", severity="warning", timeout=12)
        self._notices.clear()
        # threads, but they hold the interpreter too: they start once the window is drawn
        self.call_after_refresh(gc.enable)  # off from the start (run_app) until now
        self.call_after_refresh(self._load_facts)
        self.call_after_refresh(self._sweep_leftovers)

    def _on_hangup(self) -> None:
        """The terminal or the SSH session is gone: stop fio and remove the test file, then
        leave at once. Nothing can be drawn any more, and Textual's orderly exit waits for
        writes to a terminal that no longer exists."""
        self._hung_up = True
        if not self.state.running:
            os._exit(128 + signal.SIGHUP)
        self._on_stop_signal()

    def _on_stop_signal(self) -> None:
        """SIGTERM, SIGQUIT or a SIGINT from outside: stop fio, remove the test file, then
        quit; a second one stops fio at once."""
        if self.state.running:
            self.engine.stop()
            if not self._quit_requested:
                self._quit_requested = True
                self.set_timer(QUIT_GRACE_S, self._force_quit)
        else:
            self.exit(0)

    @work(thread=True, group="leftovers", exit_on_error=False)
    def _sweep_leftovers(self) -> None:
        """Test files a killed diskmark left (kill -9, a power cut) go at start, saying so."""
        from diskmark.engine.leftovers import sweep_register

        for found in sweep_register():
            self.call_from_thread(self.notify, found.describe(),
                                  severity="information" if found.removed else "warning",
                                  timeout=15)

    async def action_quit(self) -> None:
        """Quitting mid-run stops fio and waits for the test file to be removed."""
        if not self.state.running:
            self.exit(0)
            return
        if self._quit_requested:
            self.engine.stop()  # asked again: fio is killed at once
            return
        self._quit_requested = True
        self.engine.stop()
        self.status.show("Quitting · stopping fio and removing the test file first…")
        self.set_timer(QUIT_GRACE_S, self._force_quit)

    def on_unmount(self) -> None:
        """Last line of defence (the app ended some other way mid-run): fio's process group
        gets SIGINT now; the engine's own clean-up removes the test file as its task ends."""
        if self.state.running:
            self.engine.stop()

    def _force_quit(self) -> None:
        self.workers.cancel_group(self, "bench")
        self.exit(1)
