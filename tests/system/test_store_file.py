"""The store's SQLite file as another program or a read-only disk leaves it: a file from a
newer diskmark is refused without a byte of it changed, and a data directory that cannot be
written is named, with what to do, whatever the command."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import TINY_ARGS
from fleet_servers import TARGET, fio_servers  # noqa: F401 (a fixture)
from history_data import EIGHT_TESTS, real_result
from mounts import _mounted, can_loop_mount

from diskmark.store import database


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


@contextlib.contextmanager
def data_directory(home: Path) -> Iterator[Callable[[], None]]:
    """DISKMARK_HOME's data directory, writable until the function yielded is called, then
    read-only: a tmpfs remounted read-only for root (who ignores permissions), a directory
    without write permission for anyone else."""
    data = home / "data"
    if os.geteuid() != 0:
        data.mkdir(parents=True, exist_ok=True)
        try:
            yield lambda: data.chmod(0o555)
        finally:
            data.chmod(0o755)
        return
    ok, why = can_loop_mount("tmpfs")
    if not ok:
        pytest.skip(f"no read-only mount for root: {why}")
    with _mounted(data, ["-t", "tmpfs", "-o", "size=8m", "tmpfs"]):
        yield lambda: subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)


def says_where_and_what_to_do(done: subprocess.CompletedProcess, data: Path) -> None:
    assert f"the data directory {data}" in done.stderr, done.stderr
    assert "DISKMARK_HOME" in done.stderr, done.stderr
    assert "readonly database" not in done.stderr and "unable to open" not in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_an_unwritable_data_directory_is_named_with_what_to_do(isolated_home, tmp_path,
                                                                journal):
    report = tmp_path / "run.json"
    report.write_text(json.dumps(real_result(EIGHT_TESTS)))
    data = isolated_home / "data"
    with data_directory(isolated_home) as read_only:
        assert diskmark("history", "import", str(report)).returncode == 0
        assert diskmark("baselines", "import", str(report), "--name", "b").returncode == 0
        run = json.loads(diskmark("history", "list", "--format", "json").stdout)["runs"][0]["id"]
        with sqlite3.connect(data / database.FILE_NAME) as conn:  # as another tool leaves it
            conn.execute(f"PRAGMA journal_mode = {journal}")
        conn.close()
        read_only()
        for args in (["history", "list"], ["history", "show", run], ["baselines", "list"],
                     ["baselines", "show", "b"], ["history", "trend", "SEQ1M Q8T1"],
                     ["history", "export", str(tmp_path / "out")],
                     ["history", "import", str(report)], ["history", "prune", "--keep", "0"]):
            done = diskmark(*args)
            assert done.returncode == 1, (args, done.stderr)
            says_where_and_what_to_do(done, data)


@pytest.mark.slow
def test_a_run_that_cannot_be_kept_prints_its_report_and_exits_4(isolated_home, tmp_path,
                                                                 no_leftovers):
    target = tmp_path / "target"
    target.mkdir()
    no_leftovers.append(target)
    data = isolated_home / "data"
    with data_directory(isolated_home) as read_only:
        read_only()
        done = diskmark("run", "--target", str(target), *TINY_ARGS, "--profile", "demo",
                        "--mode", "read", "-q")
    assert done.returncode == 4, done.stderr
    assert "Test:" in done.stdout  # the report all the same
    assert "not kept in the history" in done.stderr
    says_where_and_what_to_do(done, data)


@pytest.mark.slow
def test_a_fleet_whose_runs_cannot_be_kept_exits_4(isolated_home, fio_servers):
    a, b = fio_servers
    with data_directory(isolated_home) as read_only:
        read_only()
        done = diskmark("run", "--host", a.url, "--host", b.url, "--target", str(TARGET),
                        *TINY_ARGS, "--profile", "demo", "--mode", "read", "-q")
    assert done.returncode == 4, done.stderr
    assert a.host in done.stdout and b.host in done.stdout  # the report all the same
    for host in (a, b):
        assert f"the run on {host.host} was not kept in the history" in done.stderr
    says_where_and_what_to_do(done, isolated_home / "data")
    assert a.files() == [] and b.files() == []
