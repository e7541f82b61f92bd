"""CrystalDiskMark's text results brought in from the command line, as a person moving a
drive from Windows does: `baselines import`, `history import DIR`, then a real run compared
with what CrystalDiskMark measured."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from conftest import TINY_ARGS
from history_data import EIGHT_TESTS, clone, real_result, write_reports

from diskmark.model.units import Unit

FIXTURES = Path(__file__).parent.parent / "fixtures" / "cdm"


def diskmark(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=300, env=dict(os.environ))


def test_history_import_dir_reads_text_results_and_names_what_it_refuses(tmp_path):
    folder = tmp_path / "results"
    write_reports(folder, [clone(real_result(EIGHT_TESTS),
                                 datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc))])
    shutil.copy(FIXTURES / "cdm8_0_1_default.txt", folder / "CrystalDiskMark_20210622.txt")
    (folder / "readme.txt").write_text("These are my results.\n")
    done = diskmark("history", "import", str(folder))
    assert done.returncode == 2, done.stderr
    assert "CrystalDiskMark_20210622.txt as " in done.stderr
    assert ("readme.txt cannot be imported: This is not a CrystalDiskMark text result"
            in done.stderr)
    assert "2 imported, 0 duplicates skipped, 1 refused" in done.stderr
    listed = diskmark("history", "list", "--format", "json")
    assert json.loads(listed.stdout)["total"] == 2


def test_baselines_import_of_a_text_that_is_no_result(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a benchmark\n")
    done = diskmark("baselines", "import", str(notes))
    assert done.returncode == 2
    assert "notes.txt cannot be imported: This is not a CrystalDiskMark text result" in \
        done.stderr
    assert "No baselines" in diskmark("baselines", "list").stderr


def test_a_run_compares_with_an_imported_crystaldiskmark_baseline(tmp_path):
    done = diskmark("baselines", "import", str(FIXTURES / "cdm8_0_1_default.txt"),
                    "--name", "windows")
    assert done.returncode == 0, done.stderr
    assert "as baseline 'windows'" in done.stderr
    target = tmp_path / "target"
    target.mkdir()
    run = diskmark("run", "--target", str(target), *TINY_ARGS, "--mode", "read",
                   "--compare", "windows")
    assert run.returncode == 0, run.stderr
    table = run.stdout.split("Comparison:", 1)[1]
    # every read test of the Default profile is in the file: each is compared, figure for
    # figure against the file's
    for title, mb_s in (("SEQ1M Q8T1 Read", "531.46"), ("SEQ1M Q1T1 Read", "489.84"),
                        ("RND4K Q32T1 Read", "269.41"), ("RND4K Q1T1 Read", "41.38")):
        line = next(x for x in table.splitlines() if x.startswith(title))
        assert mb_s in line.split(), line
    assert "SEQ1M Q8T1 Write: only in baseline 'windows'" in table
    # it says in words where the baseline came from, not "kernel … vs unknown"
    assert "the baseline was measured by CrystalDiskMark 8.0.1 on Windows 10" in " ".join(
        table.split())
    assert "kernel" not in table and "fio fio-" not in table
    # a latency the run has and the file has too is compared; the verdicts are the table's
    assert sum(Unit.US.label in x.split() for x in table.splitlines()) == 4


def test_the_text_format_is_the_file_and_the_grid_is_for_a_person(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    saved = tmp_path / "report.txt"
    run = diskmark("run", "--target", str(target), *TINY_ARGS, "--profile", "demo",
                   "--output", str(saved))
    assert run.returncode == 0, run.stderr
    text = saved.read_text()
    lines = text.splitlines()
    assert lines[0] == "-" * 78 and lines[1].endswith(" Linux storage benchmark"), lines[:3]
    assert "Crystal" not in lines[1] and lines[2].strip().startswith("diskmark: https://")
    assert not text.startswith("Test "), "--output FILE writes the text report alone"
    # the file imports back: every figure it printed is the baseline's
    done = diskmark("baselines", "import", str(saved), "--name", "back")
    assert done.returncode == 0, done.stderr
    shown = diskmark("baselines", "show", "back")
    assert shown.returncode == 0, shown.stderr
    figures = [x for x in lines if " MB/s [" in x]
    assert figures and all(x in shown.stdout.splitlines() for x in figures)
    # on standard output a person gets the grid first, then the same report
    grid = diskmark("run", "--target", str(target), *TINY_ARGS, "--profile", "demo")
    assert grid.returncode == 0, grid.stderr
    assert grid.stdout.startswith("Test ") and "\n" + "-" * 78 + "\n" in grid.stdout
