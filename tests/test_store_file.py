"""The store's SQLite file as another program or a read-only disk leaves it: a file from a
newer diskmark is refused without a byte of it changed, and a data directory that cannot be
written is named, with what to do, whatever the command."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from diskmark import database


def diskmark(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_a_database_from_a_newer_diskmark_is_left_byte_for_byte(isolated_home, tmp_path,
                                                                  journal):
    data = isolated_home / "data"
    data.mkdir(parents=True, exist_ok=True)
    path = data / database.FILE_NAME
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA journal_mode = {journal}")
    conn.execute("CREATE TABLE results (id INTEGER PRIMARY KEY, future TEXT)")
    conn.execute("INSERT INTO results (future) VALUES ('kept')")
    conn.execute(f"PRAGMA user_version = {database.SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before, files = digest(path), sorted(os.listdir(data))
    assert files == [database.FILE_NAME]
    report = tmp_path / "report.json"
    report.write_text("{}")

    for args in (["history", "list"], ["baselines", "list"], ["history", "import", str(report)],
                 ["history", "prune", "--keep", "0"]):
        done = diskmark(*args)
        assert done.returncode == 1, (args, done.stderr)
        assert "written by a newer diskmark" in done.stderr and "left untouched" in done.stderr
        assert sorted(os.listdir(data)) == files, args  # no -wal, -shm or -journal beside it
        assert digest(path) == before, args
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == journal
    conn.close()
