"""Where `run --output` and `baselines export` write (every other command that writes a file
follows the same rule: test_cli_destinations.py): device nodes and FIFOs are written into
as a shell redirection would and never replaced; directories, block devices and dangling
links are refused; an unwritable destination is refused before anything runs. Real
processes, real fio, real device nodes (made with mknod in a temporary directory, so the
system's own /dev/null is never at stake)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from destinations import FifoReader, is_null_node, make_null_node
from mounts import _mounted, can_loop_mount

from diskmark.store.store import Store

QUICK = ["--size", "16MiB", "--count", "1", "--measure", "1", "--interval", "0",
         "--profile", "demo", "--mode", "read"]
ROOT = os.geteuid() == 0


def diskmark(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=timeout)


def history(home: Path) -> list:
    return Store(home / "data").history()


@pytest.fixture
def target(tmp_path, no_leftovers) -> Path:
    path = tmp_path / "target"
    path.mkdir()
    no_leftovers.append(path)
    return path


@pytest.fixture
def null_node(tmp_path) -> Path:
    """A private character device equal to /dev/null (1, 3)."""
    if not ROOT:
        pytest.skip("making a device node needs root")
    return make_null_node(tmp_path / "null")


def test_output_into_a_device_node_writes_into_it_and_never_replaces_it(target, null_node,
                                                                       isolated_home):
    out = diskmark("run", "--target", str(target), *QUICK, "--output", str(null_node),
                   "--replace")
    assert out.returncode == 0, out.stderr
    assert is_null_node(null_node), "the device node was replaced"
    assert [p.name for p in null_node.parent.iterdir() if p.name.startswith(".null")] == []
    out = diskmark("run", "--target", str(target), *QUICK, "--output", str(null_node))
    assert out.returncode == 0, out.stderr  # nothing is replaced, so no --replace is needed
    assert is_null_node(null_node)


def test_output_into_a_fifo_reaches_its_reader(target, tmp_path):
    fifo = tmp_path / "fifo"
    reader = FifoReader(fifo)
    out = diskmark("run", "--target", str(target), *QUICK, "--format", "json", "--output",
                   str(fifo), "--replace")
    assert out.returncode == 0, out.stderr
    assert json.loads(reader.text())["status"] == "complete"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_fifo_nobody_reads_is_refused_before_the_run(target, tmp_path, isolated_home):
    fifo = tmp_path / "lonely"
    os.mkfifo(fifo)
    started = time.monotonic()
    out = diskmark("run", "--target", str(target), *QUICK, "--output", str(fifo), timeout=60)
    assert out.returncode == 2 and "nothing reads the FIFO" in out.stderr
    assert time.monotonic() - started < 20 and history(isolated_home) == []
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def refused(target: Path, output: Path | str, *extra: str) -> subprocess.CompletedProcess:
    out = diskmark("run", "--target", str(target), *QUICK, "--output", str(output), *extra,
                   timeout=60)
    assert out.returncode == 2, (output, out.stdout[-300:], out.stderr)
    return out


def test_odd_destinations_are_refused_before_anything_runs(target, tmp_path, isolated_home):
    somewhere = tmp_path / "somewhere"
    somewhere.mkdir()
    assert "is a directory" in refused(target, somewhere, "--replace").stderr
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere" / "x")
    assert "symbolic link" in refused(target, dangling, "--replace").stderr
    assert not (tmp_path / "nowhere").exists()
    to_dir = tmp_path / "to-dir"
    to_dir.symlink_to(somewhere)
    assert "is a directory" in refused(target, to_dir, "--replace").stderr
    missing = tmp_path / "no-such-dir" / "report.txt"
    assert "does not exist" in refused(target, missing).stderr
    afile = tmp_path / "afile"
    afile.write_text("keep")
    assert "not a directory" in refused(target, afile / "report.txt").stderr
    if ROOT:
        block = tmp_path / "block"
        os.mknod(block, stat.S_IFBLK | 0o600, os.makedev(7, 250))  # never opened
        assert "block device" in refused(target, block, "--replace").stderr
        assert stat.S_ISBLK(os.lstat(block).st_mode)
    assert history(isolated_home) == [] and afile.read_text() == "keep"


def test_an_unwritable_directory_is_refused_before_anything_runs(target, tmp_path,
                                                                  isolated_home):
    if ROOT:
        ok, why = can_loop_mount("tmpfs")
        if not ok:
            pytest.skip(f"no read-only mount for root: {why}")
        with _mounted(tmp_path / "ro", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs"]) as ro:
            out = refused(target, ro / "report.txt")
    else:
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o555)
        out = refused(target, ro / "report.txt")
    assert "no permission to create files" in out.stderr
    assert history(isolated_home) == []


def test_replace_through_a_link_replaces_the_file_it_points_to(target, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    out = diskmark("run", "--target", str(target), *QUICK, "--output", str(link), "--replace")
    assert out.returncode == 0, out.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "Test:" in real.read_text()


def test_export_into_a_device_node_or_fifo_and_refusals(target, tmp_path, null_node):
    out = diskmark("run", "--target", str(target), *QUICK, "--save-baseline", "b", "-q")
    assert out.returncode == 0, out.stderr
    out = diskmark("baselines", "export", "b", str(null_node), "--replace")
    assert out.returncode == 0, out.stderr
    assert is_null_node(null_node)
    fifo = tmp_path / "fifo"
    reader = FifoReader(fifo)
    out = diskmark("baselines", "export", "b", str(fifo))
    assert out.returncode == 0, out.stderr
    assert json.loads(reader.text())["name"] == "b"
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere.json")
    out = diskmark("baselines", "export", "b", str(dangling), "--replace")
    assert out.returncode == 2 and "symbolic link" in out.stderr
    assert not (tmp_path / "nowhere.json").exists() and dangling.is_symlink()


def test_dev_stdout_is_the_callers_own_stdout_whatever_it_is(target, tmp_path):
    """`--output /dev/stdout` and `export NAME /dev/stdout` write into the descriptor the
    caller gave, as a redirection would, even when that is a regular file: no --replace, and
    the file is neither refused nor replaced."""
    report = tmp_path / "report.csv"
    with open(report, "w") as stdout:
        stdout.write("kept\n")
        stdout.flush()
        out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(target),
                              *QUICK, "--format", "csv", "--output", "/dev/stdout",
                              "--save-baseline", "b", "-q"],
                             stdout=stdout, stderr=subprocess.PIPE, text=True,
                             stdin=subprocess.DEVNULL, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = report.read_text().splitlines()
    assert lines[0] == "kept" and lines[1].startswith("date,target,")
    inode = os.stat(report).st_ino
    exported = tmp_path / "exported.json"
    with open(exported, "w") as stdout:
        out = subprocess.run([sys.executable, "-m", "diskmark", "baselines", "export", "b",
                              "/dev/stdout"], stdout=stdout, stderr=subprocess.PIPE, text=True,
                             stdin=subprocess.DEVNULL, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(exported.read_text())["name"] == "b"
    assert os.stat(report).st_ino == inode
