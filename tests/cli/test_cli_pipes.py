"""Closed, broken and full stdout/stderr, as `| head -1`, `2>&1 | head -0`, `2>&-` and
`> /dev/full` make them, with real processes and real fio: no traceback, the benchmark still
runs to the end and is kept in the history, and the exit status says what happened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import fio_processes, leftovers
from history_data import EIGHT_TESTS, real_result, write_reports

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


#: What every command says, in one line, when stdout cannot be written.
FULL = "diskmark: cannot write to standard output: No space left on device"


def full_stdout(*args: str, timeout: float = 300) -> tuple[int, list[str]]:
    """Run diskmark with stdout on /dev/full (every write fails with ENOSPC); its exit
    status and the lines of its stderr."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "diskmark", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                              timeout=timeout)
    return done.returncode, done.stderr.splitlines()


@pytest.fixture(scope="module")
def kept_home(tmp_path_factory) -> Path:
    """A home with one real result in the history and as baseline b (imported: no fio), for
    the commands that print them; they only read it."""
    home = tmp_path_factory.mktemp("home")
    (report,) = write_reports(tmp_path_factory.mktemp("reports"), [real_result(EIGHT_TESTS)])
    env = dict(os.environ, DISKMARK_HOME=str(home))
    for args in (["history", "import"], ["baselines", "import", "--name", "b"]):
        subprocess.run([sys.executable, "-m", "diskmark", *args, str(report)], env=env,
                       check=True, capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
    return home


@pytest.mark.parametrize("args", [
    ["presets"], ["keys"], ["--help"], ["run", "--help"], ["--version"], ["completion", "bash"],
    ["baselines", "list"], ["baselines", "list", "--names"], ["baselines", "show", "b"],
    ["baselines", "compare", "b", "b"], ["baselines", "export", "b", "-"],
    ["history", "list"], ["history", "show", "last"], ["history", "export", "-", "last"],
    ["history", "share", "last", "--output", "-"],
    ["history", "share", "last", "--output", "-", "--format", "png"],
    ["history", "trend", "SEQ1M Q8T1"]], ids=" ".join)
def test_every_command_says_in_one_line_that_stdout_is_full(args, kept_home, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(kept_home))
    status, errors = full_stdout(*args)
    assert errors == [FULL], errors
    assert status == 1


@pytest.mark.parametrize("output", [[], ["--output", "-", "--format", "json"]],
                         ids=["grid", "json to -"])
def test_a_run_whose_report_cannot_be_printed_is_kept(output, tmp_path, isolated_home,
                                                       no_leftovers):
    no_leftovers.append(tmp_path)
    status, errors = full_stdout("run", "--target", str(tmp_path), *QUICK, "-q", *output)
    assert errors == [FULL], errors
    assert status == 1
    done = subprocess.run([sys.executable, "-m", "diskmark", "history", "list", "--format",
                           "json"], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=60)
    (run,) = json.loads(done.stdout)["runs"]
    assert run["target"] == str(tmp_path)
