"""The database under real use: a copy of a data directory an earlier diskmark left (one JSON
file per run and per baseline, damaged files among them) is imported on first start and
nothing is lost; two diskmark processes saving at once both succeed; a process killed with
SIGKILL in the middle of saving loses nothing it had committed. Real processes, real SQLite,
the real CLI."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from history_data import real_result, series, write_reports

LEGACY = Path(__file__).parents[1] / "fixtures" / "legacy-data"
GOOD_RUNS = {"20261123T203454Z-96f2a4", "20261123T213147Z-23e084", "20261123T231639Z-4d3a01"}
DAMAGED_RUNS = {"20261123T220000Z-aaaaaa.json": "truncated", "20261123T220100Z-bbbbbb.json":
                "empty file", "20261123T220200Z-cccccc.json": "newer diskmark",
                "notes.json": "not a diskmark file"}
BASELINE = "loop md, ext4 / 3 passes"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def diskmark(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=timeout,
                          env={**os.environ, "DISKMARK_HOME": str(home)})


@pytest.fixture
def legacy_home(tmp_path) -> Path:
    """DISKMARK_HOME whose data directory is a copy of the earlier version's files."""
    home = tmp_path / "home"
    shutil.copytree(LEGACY, home / "data", ignore=shutil.ignore_patterns("README.md"))
    return home


def test_an_earlier_data_directory_is_imported_and_nothing_is_lost(legacy_home):
    data = legacy_home / "data"
    before = {p.relative_to(data): digest(p) for p in data.rglob("*.json")}

    listed = diskmark(legacy_home, "history", "list", "--format", "json", "--limit", "0")
    assert listed.returncode == 0, listed.stderr
    runs = json.loads(listed.stdout)
    assert runs["total"] == 3  # four good files, one of them a copy of another
    assert {r["id"] for r in runs["runs"]} == GOOD_RUNS
    # every damaged file is reported, with its path and why, and stays where it was, unchanged
    for name, why in DAMAGED_RUNS.items():
        line = next((ln for ln in listed.stderr.splitlines() if name in ln), None)
        assert line is not None and "kept in place" in line and why in line, listed.stderr
        assert digest(data / "history" / name) == before[Path("history") / name]
    # the imported files are kept, moved aside byte for byte, never deleted
    aside = data / "imported-json" / "history"
    for stem in GOOD_RUNS:
        assert not (data / "history" / f"{stem}.json").exists()
        assert digest(aside / f"{stem}.json") == before[Path("history") / f"{stem}.json"]
    assert digest(aside / "copy-of-a-run.json") == before[Path("history/copy-of-a-run.json")]

    # what the database holds is exactly what the files held
    for stem in GOOD_RUNS:
        shown = diskmark(legacy_home, "history", "show", stem, "--format", "json")
        assert shown.returncode == 0, shown.stderr
        original = json.loads((aside / f"{stem}.json").read_text())
        assert json.loads(shown.stdout) == original["result"]

    baselines = diskmark(legacy_home, "baselines", "list")
    assert baselines.returncode == 0, baselines.stderr
    assert BASELINE in baselines.stdout
    damaged = next(ln for ln in baselines.stdout.splitlines() if "broken-0badf00d" in ln)
    assert "DAMAGED" in damaged and "truncated" in damaged
    assert digest(data / "baselines" / "broken-0badf00d.json") == \
        before[Path("baselines/broken-0badf00d.json")]
    exported = legacy_home / "exported.json"
    done = diskmark(legacy_home, "baselines", "export", BASELINE, str(exported))
    assert done.returncode == 0, done.stderr
    original = json.loads((data / "imported-json" / "baselines" /
                           "loop-md-ext4-3-passes-13f5b9c0.json").read_text())
    saved = json.loads(exported.read_text())
    assert {k: saved[k] for k in ("name", "note", "result")} == \
        {k: original[k] for k in ("name", "note", "result")}

    # a second start imports nothing more, reports the damaged files again, keeps them
    again = diskmark(legacy_home, "history", "list", "--format", "json")
    assert json.loads(again.stdout)["total"] == 3
    assert all(name in again.stderr for name in DAMAGED_RUNS)
    assert sorted(p.name for p in (data / "history").iterdir()) == sorted(DAMAGED_RUNS)
    # the baseline's trend over the drive marks it
    trend = diskmark(legacy_home, "history", "trend", "SEQ1M Q8T1", "--device", "/dev/loop0",
                     "--format", "json")
    assert trend.returncode == 0, trend.stderr
    points = [p for s in json.loads(trend.stdout)["series"] for p in s["points"]]
    assert [p["baselines"] for p in points] == [[BASELINE]]


def test_two_processes_importing_the_same_directory_at_once(legacy_home):
    """Two diskmark commands started together on a data directory of an earlier version:
    both succeed, every run is imported once."""
    procs = [subprocess.Popen([sys.executable, "-m", "diskmark", "history", "list",
                               "--format", "json", "--limit", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              stdin=subprocess.DEVNULL,
                              env={**os.environ, "DISKMARK_HOME": str(legacy_home)})
             for _ in range(2)]
    outputs = [p.communicate(timeout=120) for p in procs]
    for p, (stdout, stderr) in zip(procs, outputs):
        assert p.returncode == 0, stderr
        assert {r["id"] for r in json.loads(stdout)["runs"]} == GOOD_RUNS
    with sqlite3.connect(legacy_home / "data" / "diskmark.sqlite3") as conn:
        assert conn.execute("SELECT count(*) FROM results WHERE kind = 'history'").fetchone() \
            == (3,)


SAVER = textwrap.dedent("""
    import json, sys, time
    from diskmark.model.results import SessionResult
    from diskmark.store.store import Store

    doc = json.load(open(sys.argv[1]))["result"]
    who, count, start = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    store = Store()
    while time.time() < start:
        time.sleep(0.001)
    i = 0
    while count == 0 or i < count:
        doc["settings"]["comment"] = f"{who} {i}"
        entry = store.save_history(SessionResult.from_dict(doc))
        print(entry.name, flush=True)  # only after the save returned: committed
        i += 1
""")


def saver(home: Path, who: str, count: int, start: float) -> subprocess.Popen:
    source = LEGACY / "history" / "20261123T203454Z-96f2a4.json"
    return subprocess.Popen([sys.executable, "-c", SAVER, str(source), who, str(count),
                             str(start)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, stdin=subprocess.DEVNULL,
                            env={**os.environ, "DISKMARK_HOME": str(home)})


def saved_comments(home: Path) -> dict[str, str]:
    with sqlite3.connect(home / "data" / "diskmark.sqlite3") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return {name: json.loads(doc)["settings"]["comment"] for name, doc in conn.execute(
            "SELECT name, document FROM results WHERE kind = 'history'")}


def test_two_processes_saving_at_once_both_succeed(tmp_path):
    home = tmp_path / "home"
    start = time.time() + 1.5  # both are running by then, and start saving together
    procs = [saver(home, who, 40, start) for who in ("first", "second")]
    outputs = [p.communicate(timeout=180) for p in procs]
    for p, (_stdout, stderr) in zip(procs, outputs):
        assert p.returncode == 0, stderr
    ids = [line for stdout, _ in outputs for line in stdout.split()]
    assert len(ids) == len(set(ids)) == 80
    comments = saved_comments(home)
    assert sorted(comments) == sorted(ids)
    assert sorted(comments.values()) == sorted(f"{who} {i}" for who in ("first", "second")
                                               for i in range(40))


def test_kill_9_while_saving_loses_nothing_committed(tmp_path):
    home = tmp_path / "home"
    rng = random.Random(13)
    committed: list[str] = []
    for round_ in range(4):
        proc = saver(home, f"round{round_}", 0, 0)
        assert proc.stdout is not None
        done = [proc.stdout.readline().strip() for _ in range(3)]  # saving, in full swing
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        rest, _ = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        committed += [x for x in done + rest.split() if x]
        assert set(committed) <= set(saved_comments(home)), "a committed save was lost"
    # and the file works on: a normal save and a listing after the last kill
    after = diskmark(home, "history", "list", "--format", "json", "--limit", "0")
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout)["total"] >= len(committed)


def test_two_imports_at_once_both_succeed(tmp_path):
    """Two `diskmark history import` commands at once, 60 runs each, into a new file."""
    for device in ("/dev/sda", "/dev/sdb"):
        write_reports(tmp_path / device[-3:], series(real_result(), [1.0 + i / 1000 for i in
                                                                     range(60)], device=device))
    home = tmp_path / "home"
    procs = [subprocess.Popen([sys.executable, "-m", "diskmark", "history", "import",
                               str(tmp_path / name)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                              env={**os.environ, "DISKMARK_HOME": str(home)})
             for name in ("sda", "sdb")]
    for p in procs:
        _out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err
        assert "60 imported, 0 duplicates skipped, 0 refused" in err
    listed = diskmark(home, "history", "list", "--format", "json", "--limit", "0")
    devices = [r["device"] for r in json.loads(listed.stdout)["runs"]]
    assert sorted(devices) == ["/dev/sda"] * 60 + ["/dev/sdb"] * 60
