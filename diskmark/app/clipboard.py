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

Each program is started the one way diskmark starts a program
(:func:`diskmark.files.program.run`): an argument list (never a shell), the text on its
standard input, its standard output closed and a time limit. The X and Wayland programs
leave a process behind to serve the clipboard: once the program has exited it is not waited
for, and it is left to serve; a program that does not exit in time is ended with every
process it started. When the programs found did not take the text, the notice says which
and why, never that none was found.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass

from diskmark.files import program
from diskmark.files.program import Ending
from diskmark.locale import _
from diskmark.locale.text_safety import shown

TIMEOUT_S = 3.0
#: What is kept of what a program says when it fails, for the notice.
SAID_MAX = 4096
SAID_SHOWN = 200

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
    """Give ``text`` to the program; None when it took it, else what went wrong, in a
    sentence naming the program."""
    name = os.path.basename(argv[0])
    try:
        done = program.run(argv, timeout=TIMEOUT_S, limit=SAID_MAX, stdin=text.encode("utf-8"),
                           stdout=False, env=env, leave_behind=True)
    except OSError as e:
        return _("{program} could not be run: {error}").format(program=name,
                                                                 error=e.strerror or str(e))
    if done.ending is Ending.TIMEOUT:
        # TRANSLATORS: {program} is wl-copy, xclip, xsel or tmux
        return _("{program} did not answer within {seconds} s").format(
            program=name, seconds=f"{TIMEOUT_S:g}")
    if done.succeeded:
        return None
    said = shown(done.stderr.decode("utf-8", "replace").strip(), one_line=True)
    if len(said) > SAID_SHOWN:
        said = said[:SAID_SHOWN - 1] + "…"
    if done.ending is Ending.TOO_LONG or not said:
        return _("{program} failed (exit status {status})").format(
            program=name, status=done.returncode)
    return _("{program} failed: {error}").format(program=name, error=said)


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
    the OSC 52 the app sends is likely to have done, and what the programs found did."""
    env = os.environ if env is None else env
    failures: list[str] = []
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
        failures.append(failed)
    takes = terminal_takes_osc52(env)
    if takes:
        return Copied(_("It was sent to the terminal's clipboard with OSC 52, which this "
                        "terminal takes."), True, True)
    # TRANSLATORS: what separates sentences given in a row (the uses of a device, say)
    tried = _("; ").join(failures)
    if takes is False:
        if failures:
            # TRANSLATORS: {tried} says what each program did, e.g. "xsel did not answer
            # within 3 s; xclip failed: Error: Can't open display"
            return Copied(_("This terminal ignores OSC 52, and the clipboard programs found did "
                            "not take the text ({tried}), so nothing was copied: save it to a "
                            "file instead.").format(tried=tried), False, True)
        return Copied(_("This terminal ignores OSC 52 and no clipboard program (wl-copy, xclip "
                        "or xsel) was found, so nothing was copied: save it to a file "
                        "instead."), False, True)
    if failures:
        return Copied(_("It was sent to the terminal's clipboard with OSC 52, but this terminal "
                        "may ignore that, and the clipboard programs found did not take the "
                        "text ({tried}): if it does not paste, save it to a file instead.").format(
                            tried=tried), False, True)
    return Copied(_("It was sent to the terminal's clipboard with OSC 52, but this terminal "
                    "may ignore that and no clipboard program (wl-copy, xclip or xsel) was "
                    "found: if it does not paste, save it to a file instead."), False, True)
