"""How long diskmark takes to draw its first frame, against a minimal Textual app.

    .venv/bin/python benchmarks/first_frame.py [--rounds 15] [--size 120x40]

Each round starts both programs on a fresh pseudo-terminal, in an order rotated every round,
and times from the moment the process is started to two moments: the first line of its
window is out (the word "Ready": diskmark's status line, which the main screen writes while
mounting; the minimal app's Static), and its first complete frame is out, the Footer drawn
(its "palette": the command palette's key, the footer's last label, in every program). That is what the
user waits for: Python starting, imports, reading settings, presets and themes, composing,
styling and the first write. Both run with the same interpreter, DISKMARK_HOME in a fresh
temporary directory (no saved settings, no user presets or themes) and the same size.
diskmark starts as the ``diskmark`` command starts it: through its entry point,
``diskmark.launch:main``, with ``--target`` a fresh empty directory.

A third program, "widgets", is CrystalDiskMark's window built from the same kinds of Textual
widgets diskmark's first frame shows (three selects, five buttons, eight tiles, four lines,
an input, a footer with nine keys) and nothing of diskmark: what Textual itself needs for
such a window, so that diskmark ÷ widgets is what diskmark adds.

The minimal app is a Static and a Footer, so both have a footer to draw; all three are run
with their modules compiled to bytecode (two warm-up rounds write the caches).

Printed: each program's median and spread (min … max) over the rounds for both moments, and
the ratios of the medians: diskmark ÷ minimal, wanted at 1.5 or below for the complete
frame, and diskmark ÷ widgets.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Static

class Minimal(App):
    def compose(self):
        yield Static("Ready")
        yield Footer()

Minimal().run()
"""
WIDGETS = """
from textual.app import App
from textual.binding import Binding
from textual.containers import Grid, Horizontal
from textual.widgets import Button, Footer, Input, Select, Static

class Widgets(App):
    BINDINGS = [Binding(k, "bell", k.upper()) for k in "abcdefghi"]
    CSS = "Grid { grid-size: 3; } .tile { height: 5; border: round $accent; }"

    def compose(self):
        with Horizontal():
            yield Button("All")
            yield Select([(str(n), n) for n in range(1, 10)], value=5)
            yield Select([(s, s) for s in ("16MiB", "64MiB", "1GiB")], value="1GiB")
            yield Button("target")
            yield Select([(s, s) for s in ("MB/s", "GB/s", "IOPS", "us")], value="MB/s")
        with Grid():
            for row in range(4):
                yield Button(f"row {row}")
                yield Static("tile", classes="tile")
                yield Static("tile", classes="tile")
        for line in range(4):
            yield Static(f"line {line}")
        yield Input(placeholder="comment")
        yield Static("Ready")
        yield Footer()

Widgets().run()
"""
DISKMARK = "import sys; from diskmark.launch import main; sys.argv[1:] = ['--target', sys.argv[1]]; sys.exit(main())"
ANSI = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
MARKERS = {"first line": b"Ready", "complete frame": b"palette"}
TIMEOUT_S = 30.0


def first_frame(code: list[str], env: dict[str, str], size: tuple[int, int]) -> dict[str, float]:
    """Seconds from starting ``code`` on a new terminal until each of MARKERS is on it."""
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the program, on the terminal
        os.execve(sys.executable, [sys.executable, *code], env)
    cols, rows = size
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    seen = b""
    found: dict[str, float] = {}
    try:
        while True:
            left = started + TIMEOUT_S - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no first frame within {TIMEOUT_S:g} s: {code}")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the program ended
                raise RuntimeError(f"ended before its first frame: {seen[-400:]!r}") from None
            seen += chunk
            now, text = time.perf_counter() - started, ANSI.sub(b"", seen)
            for moment, marker in MARKERS.items():
                if moment not in found and marker in text:
                    found[moment] = now
            if len(found) == len(MARKERS):
                return found
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--size", default="120x40")
    args = parser.parse_args()
    size = tuple(int(n) for n in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DISKMARK_HOME=str(Path(tmp) / "home"), TERM="xterm-256color",
                   COLUMNS=str(size[0]), LINES=str(size[1]))
        env.pop("NO_COLOR", None)
        # Python writes bytecode caches by default, as it does for a user; a shell that turned
        # that off would have diskmark compile its own modules from source on every start.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPATH"] = str(ROOT)
        programs = {"minimal": ["-c", MINIMAL], "widgets": ["-c", WIDGETS],
                    "diskmark": ["-c", DISKMARK, tmp]}
        times: dict[str, dict[str, list[float]]] = {
            moment: {name: [] for name in programs} for moment in MARKERS}
        for _ in range(2):  # warm the page cache (.pyc files) before measuring
            for code in programs.values():
                first_frame(code, env, size)
        names = list(programs)
        for n in range(args.rounds):
            for name in names[n % len(names):] + names[:n % len(names)]:
                for moment, seconds in first_frame(programs[name], env, size).items():
                    times[moment][name].append(seconds)
    for moment, by_name in times.items():
        print(f"{moment}, {args.size}:")
        for name, values in by_name.items():
            print(f"  {name:9} median {statistics.median(values):.3f} s "
                  f"({min(values):.3f} … {max(values):.3f}, {len(values)} rounds)")
        ratio = statistics.median(by_name["diskmark"]) / statistics.median(by_name["minimal"])
        wanted = " (wanted: 1.5 or below)" if moment == "complete frame" else ""
        print(f"  ratio    diskmark / minimal = {ratio:.2f}{wanted}")
        added = statistics.median(by_name["diskmark"]) / statistics.median(by_name["widgets"])
        print(f"  ratio    diskmark / widgets = {added:.2f} (what diskmark adds to Textual's own work)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
