"""Closed and broken stdout/stderr, as `| head -1`, `2>&1 | head -0` and `2>&-` make them, with
real processes and real fio: no traceback, the benchmark still runs to the end and is kept
in the history, and the exit status says what happened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import fio_processes, leftovers

from diskmark.store.store import Store

QUICK = ["--size", "16MiB", "--count", "1", "--measure", "1", "--interval", "0",
         "--profile", "demo", "--mode", "read"]
EXIT_PIPE = 141


def closed_reader(*args: str, stderr_too: bool = False, errors: Path | None = None,
                  timeout: float = 300) -> int:
    """Run diskmark with stdout (and with ``stderr_too`` stderr) going to a pipe whose reader
    has already gone, like `diskmark ... | head -0`; stderr otherwise goes to ``errors``."""
    err = subprocess.STDOUT if stderr_too else open(errors, "wb") if errors else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, "-m", "diskmark", *args], stdout=subprocess.PIPE,
                            stderr=err, stdin=subprocess.DEVNULL)
    proc.stdout.close()  # the reader is gone before diskmark writes anything
    try:
        return proc.wait(timeout=timeout)
    finally:
        if errors and not stderr_too:
            err.close()


def history(home: Path) -> list[dict]:
    """Every kept run as its diskmark.saved/1 export holds it."""
    return [e.to_file_dict() for e in Store(home / "data").history()]


@pytest.fixture
def saved_baseline(tmp_path, isolated_home) -> str:
    """One real baseline, for the baselines commands to print."""
    target = tmp_path / "t"
    target.mkdir()
    out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(target),
                          *QUICK, "--save-baseline", "b", "-q"], capture_output=True,
                         stdin=subprocess.DEVNULL, timeout=300)
    assert out.returncode == 0, out.stderr
    return "b"


@pytest.mark.parametrize("args", [["presets"], ["baselines", "list"], ["baselines", "show", "b"],
                                  ["baselines", "compare", "b", "b"], ["--help"],
                                  ["run", "--help"]])
def test_every_command_ends_quietly_when_its_reader_is_gone(args, saved_baseline, tmp_path):
    errors = tmp_path / "stderr"
    status = closed_reader(*args, errors=errors)
    assert errors.read_text() == "", "no traceback, no 'Exception ignored'"
    assert status == EXIT_PIPE


def test_run_with_its_reader_gone_still_keeps_the_run(tmp_path, isolated_home, no_leftovers):
    no_leftovers.append(tmp_path)
    errors = tmp_path / "stderr"
    status = closed_reader("run", "--target", str(tmp_path), *QUICK, "--format", "json",
                           errors=errors)
    assert status == EXIT_PIPE, errors.read_text()
    assert "Traceback" not in errors.read_text()
    (kept,) = history(isolated_home)
    assert kept["result"]["status"] == "complete" and len(kept["result"]["tests"]) == 1


def test_a_broken_stderr_does_not_stop_the_benchmark(tmp_path, isolated_home, no_leftovers):
    """`diskmark run --output FILE 2>&1 | head -0`: progress and notes cannot be written, yet
    every test runs, the report is written and the run is kept."""
    target = tmp_path / "t"
    target.mkdir()
    no_leftovers.append(target)
    report = tmp_path / "report.json"
    status = closed_reader("run", "--target", str(target), *QUICK, "--count", "2",
                           "--mode", "rw", "--format", "json", "--output", str(report),
                           stderr_too=True)
    assert status == 0
    data = json.loads(report.read_text())
    assert data["status"] == "complete" and len(data["tests"]) == 2
    assert all(len(t["runs"]) == 2 for t in data["tests"])
    assert len(history(isolated_home)) == 1


def test_a_closed_stderr_neither_stops_the_run_nor_spills_into_the_report(tmp_path, isolated_home,
                                                                           no_leftovers):
    """`diskmark run --format json 2>&-`: messages meant for stderr must not end up in the
    JSON on stdout, nor in any file diskmark opens."""
    no_leftovers.append(tmp_path)
    out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(tmp_path),
                          *QUICK, "--format", "json", "--save-baseline", "closed"],
                         stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=300,
                         preexec_fn=lambda: os.close(2))
    assert out.returncode == 0
    assert json.loads(out.stdout)["status"] == "complete"
    assert len(history(isolated_home)) == 1
    (baseline,) = Store(isolated_home / "data").baselines()
    assert baseline.to_file_dict()["name"] == "closed"
    assert fio_processes(tmp_path) == [] and leftovers(tmp_path) == []
