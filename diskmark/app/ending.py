"""How the app ends while fio may be running: the quit key, SIGTERM, SIGQUIT and a SIGINT
from outside stop fio and wait for the test file to be removed, then quit; asked again, fio
is stopped at once; a lost terminal (SIGHUP) leaves as soon as fio has stopped, since nothing
can be drawn any more; a run that has not ended after a grace period is abandoned."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike

QUIT_GRACE_S = 10.0  # how long quitting waits for fio to stop and the test file to go
STOP_SIGNALS = (signal.SIGTERM, signal.SIGQUIT, signal.SIGINT)


class Ending:
    """The app's way out (whether it was asked to quit is the app's state: its screens say
    nothing more then)."""

    def __init__(self, app: AppLike) -> None:
        self.app = app
        self.hung_up = False  # the terminal is gone

    def catch_signals(self) -> None:
        """In a terminal (not headless): the stop signals and SIGHUP come here."""
        loop = asyncio.get_running_loop()
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, self.on_stop_signal)
        loop.add_signal_handler(signal.SIGHUP, self.on_hangup)

    def on_hangup(self) -> None:
        """The terminal or the SSH session is gone: stop fio and remove the test file, then
        leave at once. Nothing can be drawn any more, and Textual's orderly exit waits for
        writes to a terminal that no longer exists."""
        self.hung_up = True
        if not self.app.state.running:
            os._exit(128 + signal.SIGHUP)
        self.on_stop_signal()

    def on_stop_signal(self) -> None:
        """SIGTERM, SIGQUIT or a SIGINT from outside: stop fio, remove the test file, then
        quit; a second one stops fio at once."""
        if self.app.state.running:
            self.app.engine.stop()
            if not self.app.state.quitting:
                self._wait_then_quit()
        else:
            self.app.exit(0)

    def quit(self) -> bool:
        """The quit key: at once when idle; mid-run, fio is stopped and the app waits for
        the test file to be removed (asked again, fio is killed at once). Returns whether
        it now waits."""
        if not self.app.state.running:
            self.app.exit(0)
            return False
        self.app.engine.stop()
        if self.app.state.quitting:
            return False
        self._wait_then_quit()
        return True

    def run_ended(self) -> None:
        """The run's worker has ended (the engine has cleaned up): leave now if asked to."""
        if self.hung_up:  # there is no terminal to go back to
            os._exit(128 + signal.SIGHUP)
        if self.app.state.quitting:
            self.app.exit(0)

    def _wait_then_quit(self) -> None:
        self.app.state.quitting = True
        self.app.set_timer(QUIT_GRACE_S, self._force_quit)

    def _force_quit(self) -> None:
        """fio did not stop in time: the run's worker is cancelled and the app leaves."""
        for worker in self.app.workers:
            if worker.group == "bench":
                worker.cancel()
        self.app.exit(1)
