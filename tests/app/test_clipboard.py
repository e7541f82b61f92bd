"""Copying with the real programs: xclip and xsel on a virtual X display (Xvfb), tmux's
paste buffer on a tmux server of the test's own, and what is said where no way is known to
work. What was copied is read back with the same programs."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import psutil
import pytest
from conftest import wait_until

from diskmark.app.clipboard import copy_text, programs

TEXT = "diskmark 試験 — SEQ1M Q8T1: 1234.56 MB/s\n'quotes' $(not run) ; | &\n"
BASE = {"PATH": os.environ.get("PATH", os.defpath), "TERM": "xterm-256color",
        "HOME": os.environ.get("HOME", "/root")}


def only(tmp_path: Path, *names: str) -> str:
    """A PATH with only these programs on it (linked), for a machine that has only them."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).symlink_to(shutil.which(name))
    return str(folder)


#: What the tests on the virtual display use (tests/support/system_tools.py: ./test.sh installs it)
needs_x = pytest.mark.needs("Xvfb", "xclip", "xsel")


@pytest.fixture(scope="module")
def display():
    missing = [p for p in ("Xvfb", "xclip", "xsel") if shutil.which(p) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install xvfb xclip xsel; "
                    "./test.sh does as root)")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp",
                               "-screen", "0", "320x200x24"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()
    assert number.isdigit(), "Xvfb did not start"
    yield f":{number}"
    server.terminate()
    server.wait(10)


def own(tmp_path: Path) -> str:
    """TEXT marked as this test's: the display is the module's, and a text another test left
    on its clipboard must not pass for this one's."""
    return f"{TEXT}{tmp_path.name}\n"


def read_back(env: dict[str, str], *argv: str, expected: str, wait: float = 10.0) -> str:
    """What the clipboard holds, read until it is ``expected`` (or ``wait`` s have passed):
    xsel and xclip leave a process of their own behind to serve the selection, and under load
    it may take a moment to own it after the program we ran has returned."""
    deadline = time.monotonic() + wait
    while True:
        text = subprocess.run(list(argv), env=env, capture_output=True, timeout=10,
                              check=False).stdout.decode("utf-8")
        if text == expected or time.monotonic() > deadline:
            return text
        time.sleep(0.1)


@needs_x
@pytest.mark.parametrize("program", ["xclip", "xsel"])
def test_x_clipboard_programs_take_the_text(display, tmp_path, program):
    env = {**BASE, "DISPLAY": display, "PATH": only(tmp_path, program)}
    assert [name for name, _argv in programs(env)] == [program]
    text = own(tmp_path)
    copied = copy_text(text, env)
    assert copied.sure and not copied.osc52
    assert copied.how == f"It is on the clipboard: {program} put it there."
    assert read_back(env, shutil.which("xclip"), "-selection", "clipboard", "-out", expected=text) == text


@needs_x
def test_a_broken_clipboard_program_falls_through_to_the_next(display, tmp_path):
    """xclip that fails (a broken install) is passed over for xsel, which works."""
    folder = Path(only(tmp_path, "xsel"))
    (folder / "xclip").write_text("#!/bin/sh\necho 'xclip: cannot open display' >&2\nexit 1\n")
    (folder / "xclip").chmod(0o755)
    env = {**BASE, "DISPLAY": display, "PATH": str(folder)}
    text = own(tmp_path)
    copied = copy_text(text, env)
    assert copied.how == "It is on the clipboard: xsel put it there."
    assert read_back(env, shutil.which("xsel"), "--clipboard", "--output", expected=text) == text


def test_tmux_keeps_it_in_its_paste_buffer(tmp_path):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    socket = tmp_path / "tmux.sock"
    tmux = [shutil.which("tmux"), "-S", str(socket)]
    subprocess.run([*tmux, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24"],
                   check=True, timeout=10, env={**BASE})
    try:
        subprocess.run([*tmux, "set-option", "-g", "set-clipboard", "off"], check=True, timeout=10)
        pid = subprocess.run([*tmux, "display-message", "-p", "#{pid}"], capture_output=True,
                             text=True, check=True, timeout=10).stdout.strip()
        # inside tmux, over SSH: no DISPLAY, and OSC 52 is dropped (set-clipboard off)
        env = {**BASE, "TMUX": f"{socket},{pid},0", "TERM": "tmux-256color",
               "PATH": only(tmp_path, "tmux")}
        copied = copy_text(TEXT, env)
        assert copied.sure and not copied.osc52
        assert copied.how == ("It is in tmux's paste buffer: the tmux prefix key, then ], "
                              "pastes it.")
        shown = subprocess.run([*tmux, "show-buffer"], capture_output=True, check=True,
                               timeout=10).stdout.decode("utf-8")
        assert shown == TEXT
    finally:
        subprocess.run([*tmux, "kill-server"], timeout=10)


@pytest.mark.parametrize(("terminal", "sure", "said"), [
    ({"TERM": "xterm-kitty"}, True, "It was sent to the terminal's clipboard with OSC 52, which "
                                    "this terminal takes."),
    ({"TERM": "xterm-256color", "VTE_VERSION": "7006"}, False,
     "This terminal ignores OSC 52 and no clipboard program (wl-copy, xclip or xsel) was found, "
     "so nothing was copied: save it to a file instead."),
    ({"TERM": "xterm-256color"}, False,
     "It was sent to the terminal's clipboard with OSC 52, but this terminal may ignore that and "
     "no clipboard program (wl-copy, xclip or xsel) was found: if it does not paste, save it to "
     "a file instead."),
])
def test_without_a_program_osc52_and_what_it_likely_did(tmp_path, terminal, sure, said):
    # a desktop session whose programs are missing: DISPLAY set, nothing on PATH
    env = {**BASE, **terminal, "DISPLAY": ":99", "PATH": str(tmp_path)}
    copied = copy_text(TEXT, env)
    assert (copied.sure, copied.osc52, copied.how) == (sure, True, said)


@needs_x
async def test_the_app_says_which_way_it_copied(display, tmp_path, monkeypatch):
    """The app's copy, as the report's c key makes it: xclip takes the text and the notice
    names it."""
    from diskmark.app.app import DiskmarkApp
    from diskmark.app.reporting import REPORT_COPIED, copy_with_notice

    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("TMUX", raising=False)
    monkeypatch.setenv("PATH", only(tmp_path, "xclip"))
    app = DiskmarkApp(target=str(tmp_path))
    text = own(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        copy_with_notice(app, text, REPORT_COPIED)
        await wait_until(pilot, lambda: any(n.title == REPORT_COPIED
                                            for n in app._notifications), 10, "the notice")
        notice = next(n for n in app._notifications if n.title == REPORT_COPIED)
        assert notice.message == "It is on the clipboard: xclip put it there."
        assert app.clipboard == text  # OSC 52 as well, and the app's own paste reads it
    env = {**BASE, "DISPLAY": display}
    assert read_back(env, shutil.which("xclip", path=os.environ["PATH"]) or "xclip",
                     "-selection", "clipboard", "-out", expected=text) == text


def processes_with(tag: str) -> list[psutil.Process]:
    """The processes (not yet reaped) whose command line holds ``tag``."""
    found = []
    for p in psutil.process_iter():
        try:
            if tag in " ".join(p.cmdline()) and p.status() != psutil.STATUS_ZOMBIE:
                found.append(p)
        except psutil.Error:
            pass
    return found


@pytest.mark.parametrize(("terminal", "said"), [
    ({"TERM": "xterm-256color"},
     "It was sent to the terminal's clipboard with OSC 52, but this terminal may ignore that, "
     "and the clipboard programs found did not take the text (wl-copy did not answer within "
     "1 s; xclip did not answer within 1 s; xsel did not answer within 1 s): if it does not "
     "paste, save it to a file instead."),
    ({"TERM": "xterm-256color", "VTE_VERSION": "7006"},
     "This terminal ignores OSC 52, and the clipboard programs found did not take the text "
     "(wl-copy did not answer within 1 s; xclip did not answer within 1 s; xsel did not answer "
     "within 1 s), so nothing was copied: save it to a file instead."),
], ids=["may take OSC 52", "ignores OSC 52"])
def test_hung_clipboard_programs_are_ended_with_their_children_and_named(
        tmp_path, monkeypatch, terminal, said):
    """wl-copy, xclip and xsel found, each hanging after it started a child of its own (as
    they start one to serve the clipboard): each is ended with its child, and the notice says
    they were found and did not answer, not that none was."""
    import diskmark.app.clipboard as clipboard

    monkeypatch.setattr(clipboard, "TIMEOUT_S", 1.0)
    tag = f"{os.getpid()}{time.monotonic_ns() % 100000}"
    folder = tmp_path / "bin"
    folder.mkdir()
    for n, name in enumerate(("wl-copy", "xclip", "xsel")):
        (folder / name).write_text(f"#!/bin/sh\ncat >/dev/null\nsleep 300.{tag}{n} &\nwait\n")
        (folder / name).chmod(0o755)
    env = {**BASE, **terminal, "WAYLAND_DISPLAY": "wayland-9", "DISPLAY": ":99",
           "PATH": f"{folder}{os.pathsep}{os.defpath}"}
    try:
        started = time.monotonic()
        copied = copy_text(TEXT, env)
        took = time.monotonic() - started
        gone_by = time.monotonic() + 3  # SIGKILL is sent; a loaded kernel may take a moment
        while (left := processes_with(f"300.{tag}")) and time.monotonic() < gone_by:
            time.sleep(0.05)
    finally:
        for p in processes_with(f"300.{tag}"):
            p.kill()
    assert left == [], "a hung clipboard program's child was left running"
    assert (copied.sure, copied.osc52, copied.how) == (False, True, said)
    assert took < 6
