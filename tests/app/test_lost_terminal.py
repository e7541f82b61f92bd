"""A terminal that goes away while the app keeps drawing (a flush's progress, four frames a
second) must not block the app: Textual's output thread dies at the first failed write, and
after 30 more frames its full queue stopped the event loop for good, so the SIGHUP handler
that stops fio and removes the test file never ran (seen once in CI: SIGHUP mid-flush, the
app still there 30 s later). The app on a real pseudo-terminal, the terminal closed."""

from __future__ import annotations

import os
import pty
import sys
import time

import pytest

from diskmark.app.app import DiskmarkApp
from diskmark.app.lost_terminal import SurvivingDriver

#: An app that draws twenty frames a second and, told the terminal is gone, ends 2 s later
#: with status 42, as diskmark's app does once fio has stopped.
DRAWING = """
import asyncio, os, signal, sys
from textual.app import App
from textual.widgets import Static
from textual.drivers.linux_driver import LinuxDriver
from diskmark.app.lost_terminal import SurvivingDriver

class Drawing(App):
    def compose(self):
        yield Static("0", id="n")

    def on_mount(self):
        self.frames = 0
        self.set_interval(0.05, self.draw)
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.hung_up)

    def draw(self):
        self.frames += 1
        self.query_one("#n", Static).update(str(self.frames))

    def hung_up(self):
        self.set_timer(2, lambda: os._exit(42))

Drawing(driver_class={"surviving": SurvivingDriver, "textual": LinuxDriver}[sys.argv[1]]).run()
"""


def run_and_hang_up(driver: str, wait: float) -> int | None:
    """The drawing app's exit status after its terminal closed, or None if it was still
    there ``wait`` seconds later (then it is killed)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execv(sys.executable, [sys.executable, "-c", DRAWING, driver])
        finally:
            os._exit(127)
    try:
        deadline = time.monotonic() + 20
        seen = b""
        while b"\x1b[?1049h" not in seen and time.monotonic() < deadline:  # its screen is up
            try:
                seen += os.read(fd, 65536)
            except OSError:  # it ended before drawing: say what it printed
                raise AssertionError(f"the app ended at once: {seen.decode(errors='replace')}") from None
        time.sleep(0.5)
    finally:
        os.close(fd)  # the window closes: the app gets SIGHUP, its writes fail
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return None


def test_the_app_runs_on_the_driver_that_survives_a_lost_terminal():
    assert DiskmarkApp(persist=False).driver_class is SurvivingDriver


def test_an_app_drawing_after_its_terminal_closed_still_ends():
    assert run_and_hang_up("surviving", 15) == 42


def test_textual_s_own_driver_still_blocks_there():
    """What the surviving driver is for: if this fails, Textual's driver no longer blocks
    on a lost terminal and diskmark/app/lost_terminal.py can go."""
    if os.environ.get("TEXTUAL_DRIVER"):
        pytest.skip("TEXTUAL_DRIVER chooses another driver here")
    assert run_and_hang_up("textual", 6) is None, "Textual's own driver ended: see the docstring"
