"""Copying that works, or says why it may not have.

A terminal app copies with OSC 52, an escape sequence asking the terminal to set the
clipboard; several terminals ignore it (GNOME Terminal and the other VTE ones, the Linux
console), and tmux keeps it unless its set-clipboard option lets it through. Nothing tells
the app whether it arrived. So the desktop's own clipboard programs come first where there
is a desktop: ``wl-copy`` under Wayland (WAYLAND_DISPLAY), ``xclip`` or ``xsel`` under X
(DISPLAY); inside tmux (TMUX) without them, tmux's paste buffer (``tmux load-buffer -w``,
which tmux also hands to the terminal's clipboard when set-clipboard allows). OSC 52 is
sent in any case (the app does it); when none of the programs took the text, the notice
says whether this terminal is known to take OSC 52, known to ignore it, or neither,
offering to save the text instead.

Each program gets an argument list (never a shell), the text on its standard input, its
standard output closed (the X and Wayland programs stay in the background to serve the
clipboard, and must not hold a pipe the app waits on) and a time limit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass

from diskmark.locale import _

TIMEOUT_S = 3.0

#: Terminals that set the clipboard from OSC 52 as they are installed, by what they set.
OSC52_TERMS = ("xterm-kitty", "alacritty", "foot", "xterm-ghostty", "wezterm", "contour")
OSC52_PROGRAMS = ("WezTerm", "iTerm.app", "ghostty")


@dataclass(frozen=True)
class Copied:
    """How a copy went: ``how`` says it in a whole sentence; ``sure`` when a program took
    the text (or the terminal is one known to take OSC 52), ``osc52`` when only OSC 52 may
    have carried it."""

    how: str
    sure: bool
    osc52: bool


def programs(env: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """The clipboard programs that could take the text here, in the order they are tried."""
    found: list[tuple[str, list[str]]] = []
    if env.get("WAYLAND_DISPLAY"):
        found.append(("wl-copy", ["wl-copy", "--type", "text/plain;charset=utf-8"]))
    if env.get("DISPLAY"):
        found += [("xclip", ["xclip", "-selection", "clipboard", "-in"]),
                  ("xsel", ["xsel", "--clipboard", "--input"])]
    if env.get("TMUX"):
        found.append(("tmux", ["tmux", "load-buffer", "-w", "-"]))
    path = env.get("PATH", os.defpath)
    return [(name, [where, *argv[1:]]) for name, argv in found
            if (where := shutil.which(argv[0], path=path))]


def run(argv: list[str], text: str, env: Mapping[str, str]) -> str | None:
    """Give ``text`` to the program; None when it took it, else what went wrong."""
    with tempfile.TemporaryFile() as said:
        try:
            done = subprocess.run(argv, input=text.encode("utf-8"), stdout=subprocess.DEVNULL,
                                  stderr=said, timeout=TIMEOUT_S, env=dict(env), close_fds=True)
        except subprocess.TimeoutExpired:
            return f"no answer within {TIMEOUT_S:g} s"
        except OSError as e:
            return e.strerror or str(e)
        if done.returncode == 0:
            return None
        said.seek(0)
        return said.read()[-300:].decode("utf-8", "replace").strip() or f"exit {done.returncode}"


def terminal_takes_osc52(env: Mapping[str, str]) -> bool | None:
    """True for a terminal known to set the clipboard from OSC 52, False for one known to
    ignore it, None when it is not known."""
    term, program = env.get("TERM", ""), env.get("TERM_PROGRAM", "")
    if env.get("TMUX"):
        return None  # tmux decides (set-clipboard), whatever the terminal outside does
    if term.startswith(OSC52_TERMS) or program in OSC52_PROGRAMS or env.get("KITTY_WINDOW_ID") \
            or env.get("WT_SESSION"):
        return True
    if term == "linux" or env.get("VTE_VERSION"):
        return False
    return None


def copy_text(text: str, env: Mapping[str, str] | None = None) -> Copied:
    """Copy ``text`` by the first program that takes it; when none does, ``how`` says what
    the OSC 52 the app sends is likely to have done."""
    env = os.environ if env is None else env
    for name, argv in programs(env):
        failed = run(argv, text, env)
        if failed and name == "tmux" and "-w" in argv:  # tmux before 3.2 has no -w
            failed = run([a for a in argv if a != "-w"], text, env)
        if failed is None:
            if name == "tmux":
                return Copied(_("It is in tmux's paste buffer: the tmux prefix key, then ], "
                                "pastes it."), True, False)
            # TRANSLATORS: {program} is wl-copy, xclip or xsel
            return Copied(_("It is on the clipboard: {program} put it there.").format(
                program=name), True, False)
    takes = terminal_takes_osc52(env)
    if takes:
        return Copied(_("It was sent to the terminal's clipboard with OSC 52, which this "
                        "terminal takes."), True, True)
    if takes is False:
        return Copied(_("This terminal ignores OSC 52 and no clipboard program (wl-copy, xclip "
                        "or xsel) was found, so nothing was copied: save it to a file "
                        "instead."), False, True)
    return Copied(_("It was sent to the terminal's clipboard with OSC 52, but this terminal "
                    "may ignore that and no clipboard program (wl-copy, xclip or xsel) was "
                    "found: if it does not paste, save it to a file instead."), False, True)
