"""Output to a terminal that has gone away is dropped, so the app can still end cleanly.

Textual writes to the terminal from a thread of its own, through a queue of 30 writes. When
the terminal window closes or the SSH session drops mid-run, the next write fails (EIO), that
thread dies, and once 30 more frames are queued the app's event loop blocks on the full queue
for ever: the SIGHUP handler that would stop fio and remove the test file never runs. A flush
that outlasted eight seconds of progress frames left the app and its test file behind.

Here the file Textual's thread writes to drops what it cannot write and every write after
it, so the queue keeps draining and the app ends as it would with a terminal.
"""

from __future__ import annotations

from typing import IO, Any

from textual.app import App
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver


class _Forgiving:
    """A text file whose writes stop, silently, at the first one the terminal refuses."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file
        self.lost = False

    def write(self, text: str) -> int:
        if not self.lost:
            try:
                self._file.write(text)
            except (OSError, ValueError):  # EIO from a closed terminal; ValueError: closed file
                self.lost = True
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self.lost = True

    def __getattr__(self, name: str) -> Any:  # fileno, isatty…: the terminal's own
        return getattr(self._file, name)


class SurvivingDriver(LinuxDriver):
    """Textual's Linux driver writing through :class:`_Forgiving`."""

    def __init__(self, app: App[Any], *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        file = getattr(self, "_file", None)
        if file is not None:  # Textual's name for it (8.x); another version keeps its own
            # a stand-in with the file's every attribute, not a TextIOWrapper itself
            self._file = _Forgiving(file)  # type: ignore[assignment]


def driver_for(chosen: type[Driver]) -> type[Driver]:
    """The driver the app runs on: Textual's choice, made to survive a lost terminal where
    that choice is its Linux driver (a driver named by TEXTUAL_DRIVER is left as it is)."""
    return SurvivingDriver if chosen is LinuxDriver else chosen
