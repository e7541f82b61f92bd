"""Several targets in one session on this machine (``run --target A --target B``), with real
fio: on two loop file systems (root, like every test here that mounts), interleaved test by
test, kept per target in the history and as baselines, a target removed mid-run failing
alone, and Ctrl+C leaving nothing on either."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from conftest import TINY_ARGS, fio_left, leftovers
from faults import diskmark_cli, phase_reached, wait_for
from faults import finish_run as finish
from mounts import can_loop_mount, loop_mount

from diskmark.cli.main import main
from diskmark.drive.sharing import disks_under
from diskmark.store.store import Store

pytestmark = [pytest.mark.slow, pytest.mark.needs("mkfs.ext4")]


def two_mounts(stack: ExitStack, tmp_path: Path) -> tuple[Path, Path]:
    ok, reason = can_loop_mount("ext4")
    if not ok:
        print(f"SKIP: {reason}")
        pytest.skip(reason)
    return (stack.enter_context(loop_mount(tmp_path, "ext4", size_mib=64, name="a")),
            stack.enter_context(loop_mount(tmp_path, "ext4", size_mib=64, name="b")))


def run(*args: str) -> subprocess.Popen:
    return diskmark_cli("run", *args)


def test_two_loop_filesystems_side_by_side_interleaved_kept_and_saved_per_target(tmp_path):
    with ExitStack() as stack:
        a, b = two_mounts(stack, tmp_path)
        code, out, err = finish(run("--target", str(a), "--target", str(b), "--profile", "peak",
                                    *TINY_ARGS, "--format", "json",
                                    "--save-baseline", "pair"))
        assert code == 0, err
        doc = json.loads(out)
        assert doc["schema"] == "diskmark.targets/1"
        assert doc["reference"] == str(a) and doc["failed"] == []
        assert [t["target"] for t in doc["targets"]] == [str(a), str(b)]
        assert [t["reference"] for t in doc["targets"]] == [True, False]
        first, second = (t["result"] for t in doc["targets"])
        for result, target in ((first, a), (second, b)):
            assert result["status"] == "complete" and result["system"]["target"] == str(target)
            assert [t["key"] for t in result["tests"]] == [
                "SEQ1M Q8T1/read", "RND4K Q32T1/read", "SEQ1M Q8T1/write", "RND4K Q32T1/write"]
            assert all(t["best"]["mb_s"] > 0 for t in result["tests"])
            assert result["test_file"] is not None  # each its own file, laid out
        # interleaved: by their start times, test 1 on a, test 1 on b, test 2 on a, …
        starts = sorted((t["started"], target, t["key"])
                        for target, result in (("a", first), ("b", second))
                        for t in result["tests"])
        assert [who for _when, who, _key in starts] == ["a", "b"] * 4, starts
        assert [key for _when, _who, key in starts][::2] == [key for _w, _who, key in starts][1::2]
        # each test on b began once a's had finished: one at a time
        for ta, tb in zip(first["tests"], second["tests"]):
            assert ta["finished"] <= tb["started"], (ta, tb)
        # b against the reference, by the comparison's rule
        against = doc["targets"][1]["against_reference"]
        assert against["baseline_name"] == str(a)
        assert {t["key"] for t in against["tests"]} == {t["key"] for t in first["tests"]}
        assert all(u["verdict"] in ("better", "worse", "same")
                   for t in against["tests"] for u in t["units"].values())
        # the loops' images lie on one disk when the directory holding them has one
        shared = doc["sharing"]
        if disks_under(tmp_path):
            assert [(s["targets"], s["shares"]) for s in shared] == [([str(a), str(b)], "device")]
        else:
            assert shared == []
        # one run per target in the history, one baseline per target
        store = Store()
        history = store.history()
        assert sorted(e.session.system.target for e in history) == sorted([str(a), str(b)])
        assert sorted(t["history_id"] for t in doc["targets"]) == sorted(e.name for e in history)
        for target in (a, b):
            saved = store.get_baseline(f"pair@{target}")
            assert saved.session.system.target == str(target)
            assert f"saved as baseline 'pair@{target}'" in err
        assert leftovers(a) == [] and leftovers(b) == []
        assert fio_left(a) == [] and fio_left(b) == []


def test_the_grid_puts_the_targets_side_by_side_with_verdicts(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    code, out, err = finish(run("--target", str(a), "--target", str(b), "--profile", "demo",
                                *TINY_ARGS))
    assert code == 0, err
    lines = out.splitlines()
    assert "2 targets, each test on every target in turn" in lines[0]
    assert f"Reference: {a}" in lines
    head = next(line for line in lines if line.startswith("Test (MB/s)")).split()[2:]
    # a long path keeps its end in the heading (the Targets list gives it whole)
    assert [h.lstrip("…") for h in head] == [str(a)[-27:], str(b)[-27:]], head
    for title in ("SEQ1M Q8T1 Read", "SEQ1M Q8T1 Write"):
        row = next(line for line in lines if line.startswith(title)).split()
        # the reference's figure, then b's with its verdict and change against it
        assert float(row[3]) > 0 and float(row[4]) > 0 and row[5] in "▲▼=", row
        assert row[6].endswith("%"), row
    assert f"  {a}: complete" in out and f"  {b}: complete" in out
    # the same file system: said, and why it does not matter here
    said = " ".join(out.split())  # the sentence is wrapped
    assert f"{b} shares the file system at" in said and f"with {a}: measured one" in said
    # progress names the target of each finished test
    assert f"{a}: SEQ1M Q8T1" in err and f"{b}: SEQ1M Q8T1" in err


def test_a_target_removed_mid_run_fails_alone_and_the_other_is_kept(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    proc = run("--target", str(a), "--target", str(b), "--profile", "peak", "--size", "16MiB",
               "--count", "1", "--measure", "2", "--interval", "1", "--format", "json")
    try:
        seen: dict = {}
        wait_for(lambda: proc.poll() is not None or phase_reached("measuring", proc.pid, a, seen),
                 120, "the first test on a")
        assert proc.poll() is None, proc.stderr.read()
        subprocess.run(["rm", "-rf", str(b)], check=True)
        code, out, err = finish(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 1, err
    assert f"failed on 1 of 2 targets: {b}; the other targets' results are kept." in err
    doc = json.loads(out)
    assert doc["failed"] == [str(b)]
    kept, lost = doc["targets"]
    assert kept["status"] == "complete" and len(kept["result"]["tests"]) == 4
    assert all(t["runs"] for t in kept["result"]["tests"])
    assert lost["status"] == "failed" and ("removed" in lost["error"] or "unmounted" in lost["error"])
    assert not b.exists(), "fio re-created the removed target"
    assert [e.session.system.target for e in Store().history()] == [str(a)]
    assert leftovers(a) == [] and fio_left(a) == []


def test_ctrl_c_stops_every_target_and_leaves_nothing_on_either(tmp_path):
    with ExitStack() as stack:
        a, b = two_mounts(stack, tmp_path)
        proc = run("--target", str(a), "--target", str(b), "--profile", "demo", "--size",
                   "16MiB", "--count", "1", "--measure", "3", "--interval", "2")
        try:
            seen: dict = {}
            wait_for(lambda: proc.poll() is not None
                     or phase_reached("measuring", proc.pid, b, seen), 120, "the test on b")
            assert proc.poll() is None, proc.stderr.read()
            proc.send_signal(signal.SIGINT)
            code, out, err = finish(proc, 60)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert code == 130, err
        assert "interrupted; fio stopped and every target's test file removed." in err
        assert fio_left(a) == [] and fio_left(b) == []
        assert leftovers(a) == [] and leftovers(b) == []
        assert Store().history() == []


@pytest.mark.parametrize("twice", ["same", "dot", "link"])
def test_the_same_target_twice_is_refused_before_anything_starts(tmp_path, capsys, twice):
    a = tmp_path / "a"
    a.mkdir()
    other = {"same": str(a), "dot": f"{a}/.", "link": str(tmp_path / "link")}[twice]
    if twice == "link":
        os.symlink(a, tmp_path / "link")
    assert main(["run", "--target", str(a), "--target", other, *TINY_ARGS]) == 2
    captured = capsys.readouterr()
    assert f"--target {a} is given twice." in captured.err, captured.err
    assert "Give each target once" in captured.err and captured.out == ""
    assert leftovers(a) == []


def test_several_targets_with_a_host_are_refused(tmp_path, capsys):
    assert main(["run", "--host", "db1", "--target", "/mnt/a", "--target", "/mnt/b"]) == 2
    err = capsys.readouterr().err
    assert "--host measures one --target on every host" in err


def test_a_target_that_cannot_be_used_starts_nothing_on_the_others(tmp_path, capsys):
    a = tmp_path / "a"
    a.mkdir()
    missing = tmp_path / "missing"
    assert main(["run", "--target", str(a), "--target", str(missing), *TINY_ARGS]) == 2
    err = capsys.readouterr().err
    assert f"Target {missing} does not exist." in err
    assert leftovers(a) == [] and Store().history() == []


def test_the_help_says_how_several_targets_run():
    out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--help"], text=True,
                         capture_output=True, check=True).stdout
    assert "several targets: --target A --target B" in out
    assert '"NAME@TARGET"' in out
