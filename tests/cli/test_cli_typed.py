"""The command line does what was typed: an option before the command counts (or is refused),
`-` is stdout, the run just made is easy to reach (its id, `last`), a typo gets "did you
mean", and a stream that cannot encode a character degrades to ASCII instead of failing."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import TINY_ARGS, leftovers
from history_data import EIGHT_TESTS, THREE_PASSES, clone, real_result, write_reports
from pictures import open_png

#: The shortest real run: two read tests of one pass.
QUICK = [*TINY_ARGS, "--profile", "peak", "--mode", "read"]


def diskmark(*args: str, cwd: Path | None = None, text: bool = True,
             **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=text, stdin=subprocess.DEVNULL, timeout=300, cwd=cwd,
                          env={**os.environ, **env})


@pytest.fixture
def history(tmp_path) -> list[str]:
    """Two real runs in the history (one on a host with a name that is not ASCII): their
    ids, newest first."""
    when = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    docs = [clone(real_result(EIGHT_TESTS), when, 1.0, hostname="ci-1"),
            clone(real_result(THREE_PASSES), when.replace(day=2), 1.0, hostname="café×µ")]
    write_reports(tmp_path / "reports", docs)
    assert diskmark("history", "import", str(tmp_path / "reports")).returncode == 0
    done = diskmark("history", "list", "--format", "json")
    return [r["id"] for r in json.loads(done.stdout)["runs"]]


# --- 1. an option typed before the command counts -------------------------------------


@pytest.mark.slow
def test_target_before_run_is_the_directory_tested(tmp_path, no_leftovers):
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    no_leftovers += [here, there]
    done = diskmark("--target", str(there), "run", *QUICK, "--format", "json", "-q", cwd=here)
    assert done.returncode == 0, done.stderr
    assert Path(json.loads(done.stdout)["settings"]["target"]).resolve() == there.resolve()
    assert leftovers(here) == [] and list(here.iterdir()) == []


def test_target_before_run_that_does_not_exist_is_refused(tmp_path):
    done = diskmark("--target", str(tmp_path / "nowhere"), "run", *QUICK, cwd=tmp_path)
    assert done.returncode == 2
    assert f"{tmp_path / 'nowhere'} does not exist" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_target_typed_twice_with_different_directories_is_refused(tmp_path):
    done = diskmark("--target", str(tmp_path / "a"), "run", "--target", str(tmp_path / "b"),
                    *QUICK, cwd=tmp_path)
    assert done.returncode == 2
    assert (f"--target was typed twice with different values: {tmp_path / 'a'} before `run` "
            f"and {tmp_path / 'b'} after it") in done.stderr


@pytest.mark.parametrize("command", [["presets"], ["baselines", "list"], ["history", "show", "x"]])
def test_target_before_a_command_without_one_is_refused(tmp_path, command):
    done = diskmark("--target", str(tmp_path), *command)
    assert done.returncode == 2
    assert (f"--target {tmp_path} was typed before `{' '.join(command[:2])}`, which has no "
            f"--target option") in done.stderr
    assert done.stdout == ""


def test_target_before_history_list_filters_it(history):
    done = diskmark("--target", "/mnt/md", "history", "list", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert [r["host"] for r in json.loads(done.stdout)["runs"]] == ["café×µ"]


# --- 3. - is stdout ------------------------------------------------------------------------


def test_baselines_export_to_dash_prints_it(tmp_path, history):
    report = tmp_path / "reports" / "run-00001.json"
    assert diskmark("baselines", "import", str(report), "--name", "disk").returncode == 0
    done = diskmark("baselines", "export", "disk", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    saved = json.loads(done.stdout)
    assert saved["schema"] == "diskmark.saved/1" and saved["name"] == "disk"
    assert not (tmp_path / "-").exists()


def test_history_export_to_dash_prints_one_run(tmp_path, history):
    done = diskmark("history", "export", "-", history[1], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["system"]["hostname"] == "ci-1"
    several = diskmark("history", "export", "-", cwd=tmp_path)
    assert several.returncode == 2 and "2 runs match" in several.stderr
    assert several.stdout == "" and not (tmp_path / "-").exists()


def test_history_share_to_dash_prints_the_page(tmp_path, history):
    done = diskmark("history", "share", history[0], "--output", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<!DOCTYPE html>") and "café×µ" in done.stdout
    assert not (tmp_path / "-").exists()


def test_a_page_to_dash_on_a_latin1_stream_is_still_utf8(history):
    """The page says it is UTF-8: Latin-1 bytes would show as garbage in a browser."""
    page = diskmark("history", "share", history[0], "--output", "-", text=False,
                    PYTHONIOENCODING="latin-1")
    assert page.returncode == 0, page.stderr
    assert '<meta charset="utf-8">' in page.stdout.decode("utf-8")
    assert "café×µ" in page.stdout.decode("utf-8")


def test_history_share_refuses_a_png_to_a_terminal(tmp_path, history):
    """Refused before anything is drawn: nothing to wait for, no bytes on the screen."""
    leader, terminal = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "diskmark", "history", "share", history[0],
                               "--output", "-", "--format", "png"], stdout=terminal,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                              timeout=60, cwd=tmp_path)
    finally:
        os.close(terminal)
        os.close(leader)
    assert done.returncode == 2
    assert "a PNG is binary and standard output is a terminal" in done.stderr
    assert not (tmp_path / "-").exists()


def test_history_share_writes_a_png_to_a_pipe(tmp_path, history):
    empty = tmp_path / "no-programs"  # PATH: no browser, no program at all
    empty.mkdir()
    done = diskmark("history", "share", history[0], "--output", "-", "--format", "png",
                    cwd=tmp_path, text=False, PATH=str(empty))
    assert done.returncode == 0, done.stderr
    image = open_png(done.stdout)
    assert image.size[0] == 1100 and image.size[1] > 1000
    assert not (tmp_path / "-").exists()


# --- 5. the run just made ------------------------------------------------------------------


@pytest.mark.slow
def test_run_names_its_id_and_last_reaches_it(tmp_path, no_leftovers):
    no_leftovers.append(tmp_path)
    done = diskmark("run", "--target", str(tmp_path), *QUICK, "--format", "json",
                    "--output", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "-").exists()
    report = json.loads(done.stdout)
    history_id = report["history_id"]
    assert (f"diskmark: kept in the history as {history_id}; share it with `diskmark history "
            f"share {history_id} --output run.html`.") in done.stderr
    shown = diskmark("history", "show", "last", "--format", "json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == {k: v for k, v in report.items() if k != "history_id"}
    page = diskmark("history", "share", history_id[:12], "--output", "-")
    assert page.returncode == 0 and f"diskmark: run {history_id}" in page.stdout

    quiet = diskmark("run", "--target", str(tmp_path), *QUICK, "--format", "json", "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""
    newest = json.loads(quiet.stdout)["history_id"]
    assert newest != history_id
    assert json.loads(diskmark("history", "list", "--format", "json").stdout)["runs"][0]["id"] == newest


def test_a_report_imported_elsewhere_keeps_its_id_and_is_recognised(tmp_path, history):
    doc = clone(real_result(EIGHT_TESTS), datetime(2026, 4, 1, tzinfo=timezone.utc), 1.0)
    report = tmp_path / "report.json"
    report.write_text(json.dumps(doc | {"history_id": "20260401T000000Z-abc123"}))
    done = diskmark("history", "import", str(report))
    assert done.returncode == 0 and "as 20260401T000000Z-abc123" in done.stderr
    again = diskmark("history", "import", str(report))
    assert "already in the history as 20260401T000000Z-abc123" in again.stderr
    shown = json.loads(diskmark("history", "show", "last", "--format", "json").stdout)
    assert "history_id" not in shown and shown["started"] == doc["started"]


def test_last_with_an_empty_history_is_named(tmp_path):
    done = diskmark("history", "show", "last")
    assert done.returncode == 2 and "no history entry 'last'" in done.stderr


# --- 6. words that are true ----------------------------------------------------------------


def test_baselines_list_as_json(tmp_path, history):
    assert diskmark("baselines", "list", "--format", "json").stdout == \
        '{\n  "total": 0,\n  "baselines": []\n}\n'
    report = tmp_path / "reports" / "run-00001.json"
    assert diskmark("baselines", "import", str(report), "--name", "Café").returncode == 0
    done = diskmark("baselines", "list", "--format", "json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    run = json.loads(diskmark("history", "list", "--format", "json").stdout)["runs"][0]
    assert listed["total"] == 1
    baseline = listed["baselines"][0]
    assert baseline["name"] == "Café" and baseline["damaged"] is None
    assert {k: v for k, v in baseline.items() if k not in ("name", "note", "damaged", "saved")} == \
        {k: v for k, v in run.items() if k not in ("id", "saved")}


def test_baselines_help_says_where_they_live():
    done = diskmark("baselines", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "JSON files" not in text and "in the SQLite file diskmark.sqlite3" in text


def test_dash_capital_v_is_the_version():
    done = diskmark("-V")
    assert done.returncode == 0 and done.stdout.startswith("diskmark ")
    assert done.stdout == diskmark("--version").stdout


@pytest.mark.parametrize("args, usage, message", [
    (["rn"], "usage: diskmark [-h]", "unknown command 'rn'; did you mean 'run'?"),
    (["history", "lsit"], "usage: diskmark history [-h]",
     "unknown action 'lsit'; did you mean 'list'?"),
    (["run", "--sise", "16MiB"], "usage: diskmark run [-h]",
     "diskmark run: error: unknown option --sise; did you mean --size?"),
    (["run", "--format", "jsno"], "usage: diskmark run [-h]",
     "invalid choice: 'jsno'; did you mean 'json'?"),
    (["history", "list", "--limt", "3"], "usage: diskmark history list [-h]",
     "unknown option --limt; did you mean --limit?"),
    (["presets", "extra"], "usage: diskmark presets [-h]", "unrecognized arguments: extra"),
    # a value out of its range is refused as the option typed, by run's own parser
    (["run", "--count", "0"], "usage: diskmark run [-h]",
     "diskmark run: error: argument --count: count must be between 1 and 9, not 0"),
    (["run", "--count", "10"], "usage: diskmark run [-h]",
     "diskmark run: error: argument --count: count must be between 1 and 9, not 10"),
    (["run", "--amount", "1MiB"], "usage: diskmark run [-h]",
     "error: argument --amount: the amount must be between 16MiB and 16TiB, not 1MiB"),
    (["run", "--unstable", "0"], "usage: diskmark run [-h]",
     "error: argument --unstable: the unstable threshold must be between 0.5 and 100 percent"),
    # so is a check made after parsing
    (["run", "--fail-on-regression", "5"], "usage: diskmark run [-h]",
     "diskmark run: error: --fail-on-regression needs --compare NAME"),
    (["run", "--host", "h1", "--nocow"], "usage: diskmark run [-h]",
     "diskmark run: error: --nocow changes a local directory; it cannot be used with --host"),
])
def test_a_typo_is_answered_by_its_command(tmp_path, args, usage, message):
    done = diskmark(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(usage) and message in done.stderr
    assert list(tmp_path.iterdir()) == []


# --- 7. a stream that cannot encode a character -------------------------------------------


def test_history_list_on_an_ascii_stream(history):
    done = diskmark("history", "list", PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii()
    assert "64MiBx1" in done.stdout and "caf\\xe9xu" in done.stdout


def test_json_on_an_ascii_stream_is_the_same_json(history):
    utf8 = diskmark("history", "list", "--format", "json")
    ascii_ = diskmark("history", "list", "--format", "json", PYTHONIOENCODING="ascii")
    assert ascii_.returncode == 0, ascii_.stderr
    assert ascii_.stdout.isascii() and json.loads(ascii_.stdout) == json.loads(utf8.stdout)
    shown = diskmark("history", "show", history[0], "--format", "json", PYTHONIOENCODING="ascii")
    assert shown.returncode == 0 and json.loads(shown.stdout)["system"]["hostname"] == "café×µ"


def test_json_on_a_latin1_stream_is_ascii(history):
    """JSON is UTF-8 or ASCII: Latin-1 bytes would be neither."""
    listed = diskmark("history", "list", "--format", "json", text=False,
                      PYTHONIOENCODING="latin-1")
    assert listed.returncode == 0 and listed.stdout.isascii()
    assert json.loads(listed.stdout)["runs"][0]["host"] == "café×µ"


@pytest.mark.parametrize("args, said", [
    (["presets"], ""), (["run", "--help"], ""), (["history", "show", "NEWEST"], ""),
    (["history", "trend", "SEQ1M Q8T1"], ""),
    (["history", "list", "--offset", "1", "--limit", "1"], "2-2 of 2 runs, newest first"),
])
def test_every_command_degrades_to_readable_ascii(history, args, said):
    done = diskmark(*[history[0] if a == "NEWEST" else a for a in args], PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii() and done.stderr.isascii()
    assert said in done.stderr
