"""The app under the same signal matrix as the CLI, on a real pseudo-terminal: SIGINT,
SIGTERM, SIGQUIT and SIGKILL sent to it, and SIGHUP the way it really arrives (the terminal
closing), in each phase of a run. Afterwards no fio runs, and once diskmark next starts no
test file is left. Ctrl+Q with a hung fio ends within seconds too."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from conftest import fio_left, fio_processes
from faults import Terminal, leftovers, next_start, phase_reached, phase_target, wait_for

from diskmark.model.units import MIB
from diskmark.store.app_settings import AppConfig, save_config

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("mkfs.ext4")

PHASES = ["preparing", "measuring", "interval", "flush"]
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGKILL]


def configure(target: Path, phase: str) -> None:
    """The app starts on the settings it saved last: make them fit the phase."""
    cfg = AppConfig(target=str(target), profile="demo", count=1, interval=0.0, measure=1.0,
                    size=16 * MIB)
    if phase == "preparing":
        cfg.size = 512 * MIB
    elif phase == "measuring":
        cfg.measure = 3.0
    elif phase == "interval":
        cfg.measure, cfg.interval = 3.0, 4.0
    elif phase == "flush":
        cfg.size, cfg.mode, cfg.direct = 32 * MIB, "write", False
    save_config(cfg)


def start_app(target: Path, procs: Path | None) -> Terminal:
    term = Terminal(["--target", str(target)])
    if procs is not None:  # before the run starts fio, so fio starts in the cgroup too
        procs.write_text(f"{term.pid}\n")
    wait_for(lambda: b"All" in term.output, 30, "the app to draw its window", step=0.05)
    time.sleep(0.5)
    term.send(b"a")  # All
    return term


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
def test_app_signal_in_any_phase_leaves_no_fio_and_no_test_file(tmp_path, sig, phase):
    with phase_target(tmp_path, phase) as (target, procs):
        configure(target, phase)
        term = start_app(target, procs)
        seen: dict = {}
        try:
            wait_for(lambda: term.wait(0) is not None
                     or phase_reached(phase, term.pid, target, seen), 120, f"the {phase} phase")
            assert term.status is None, "the app ended before the phase"
            sent = time.monotonic()
            if sig == signal.SIGHUP:
                term.close()  # the terminal window or the SSH session goes away
            else:
                os.kill(term.pid, sig)
            status = term.wait(30)
            took = time.monotonic() - sent
            assert status is not None, "the app did not end"
        finally:
            term.kill()
        assert fio_left(target) == [], "fio outlived the app"
        if sig == signal.SIGKILL:
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            said = next_start()
            assert "Removed" in said and str(target) in said, said
        else:
            limit = 15 if phase == "flush" else 8
            assert took < limit, f"quitting took {took:.1f} s"
        assert leftovers(target) == []


@pytest.mark.serial
def test_ctrl_q_with_a_hung_fio_ends_within_seconds(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    configure(target, "measuring")
    term = start_app(target, None)
    seen: dict = {}
    try:
        wait_for(lambda: phase_reached("measuring", term.pid, target, seen), 60, "measuring")
        for p in fio_processes(target):
            p.suspend()  # kill -STOP: fio answers nothing
        started = time.monotonic()
        term.send(b"\x11")  # Ctrl+Q
        status = term.wait(20)
        took = time.monotonic() - started
    finally:
        term.kill()
    assert status is not None and took < 6, f"quitting took {took:.1f} s"
    assert fio_processes(target) == []
    assert leftovers(target) == []
