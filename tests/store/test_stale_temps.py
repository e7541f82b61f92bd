"""A save killed with SIGKILL leaves its hidden temporary file (`.<name>.<8 hex>.tmp`). Opening
the store or the settings removes such leftovers once they are minutes old and no process
is writing them, and never anything else. Real processes, real kills, real files."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from diskmark.store.app_settings import load_config
from diskmark.store.store import Store

OLD = time.time() - 3600


def age(path: Path) -> Path:
    os.utime(path, (OLD, OLD), follow_symlinks=False)
    return path


def killed_mid_save(directory: Path, name: str) -> Path:
    """Start a real save of a large file in another process and SIGKILL it while the
    temporary file exists (the write and fsync of 64 MiB take a while). Returns the
    temporary file it left behind."""
    directory.mkdir(parents=True, exist_ok=True)
    code = ("import sys; from pathlib import Path; from diskmark.files.atomic import write_atomic\n"
            "write_atomic(Path(sys.argv[1]), 'x' * (64 * 1024 * 1024))\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(directory / name)])
    deadline = time.monotonic() + 60
    try:
        while True:
            left = [p for p in directory.iterdir() if p.name.endswith(".tmp")]
            if left:
                proc.send_signal(signal.SIGKILL)
                break
            assert proc.poll() is None, "the save finished before it could be killed"
            assert time.monotonic() < deadline, "no temporary file appeared"
            time.sleep(0.001)
    finally:
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    assert not (directory / name).exists()
    (leftover,) = left
    return leftover


def test_leftovers_of_a_killed_save_are_removed_when_the_store_opens(isolated_home):
    store = Store()
    history = killed_mid_save(store.history_dir, "20260101T000000Z-abcdef.json")
    baseline = killed_mid_save(store.baselines_dir, "nvme-1a2b3c4d.json")
    assert history.exists() and baseline.exists()
    Store()
    assert history.exists() and baseline.exists(), "a fresh one may still be being written"
    age(history), age(baseline)
    Store()
    assert not history.exists() and not baseline.exists()


def test_leftovers_of_a_killed_settings_save_are_removed_on_load(isolated_home):
    config = isolated_home / "config"
    leftover = age(killed_mid_save(config, "settings.json"))
    load_config()
    assert not leftover.exists()


def test_only_old_unlocked_files_of_the_exact_pattern_are_removed(isolated_home, tmp_path):
    store = Store()
    d = store.baselines_dir
    d.mkdir(parents=True)
    stale = d / ".x.json.0123abcd.tmp"
    stale.write_text("{")
    age(stale)
    keep = {
        "fresh": d / ".y.json.0123abcd.tmp",
        "short-token": d / ".x.json.0123.tmp",
        "upper-hex": d / ".x.json.0123ABCD.tmp",
        "no-dot": d / "x.json.0123abcd.tmp",
        "other-suffix": d / ".x.json.0123abcd.tmp.bak",
        "not-json": d / ".notes.txt.0123abcd.tmp",
        "user-file": d / "mine.tmp",
    }
    for path in keep.values():
        path.write_text("keep")
    for name, path in keep.items():
        if name != "fresh":
            age(path)
    link = d / ".z.json.0123abcd.tmp"
    link.symlink_to(tmp_path / "elsewhere")
    age(link)
    folder = d / ".w.json.0123abcd.tmp"
    folder.mkdir()
    age(folder)
    # a slow writer: a live process holding the lock write_atomic holds while it writes
    locked = d / ".v.json.0123abcd.tmp"
    locked.write_text("{")
    age(locked)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys, time\n"
         "f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX)\n"
         "print('locked', flush=True); time.sleep(60)\n", str(locked)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        Store()
    finally:
        holder.kill()
        holder.wait()
    assert not stale.exists()
    assert all(p.exists() for p in keep.values()), [n for n, p in keep.items() if not p.exists()]
    assert link.is_symlink() and folder.is_dir() and locked.exists()
    with open(locked) as f:  # and the lock really is what write_atomic takes
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
