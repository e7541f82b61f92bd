"""Fault injection on real processes and real mounts: what a user, another user, the kernel or
a broken fio can do to a run, and what diskmark promises whatever happens. It never touches a
file it did not create, never leaves fio or a test file behind (a killed diskmark's test file
goes at the next start), and always stops within seconds.

Each case here broke that promise before the engine ran fio inside a private directory, as
threads of one process tied to diskmark's life, with a watchdog and identity checks.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest
from conftest import fio_left, fio_processes
from faults import (
    as_nobody,
    can_drop_privileges,
    diskmark_cli,
    leftovers,
    next_start,
    phase_reached,
    phase_target,
    picture,
    wait_for,
)
from mounts import can_loop_mount, loop_mount

from diskmark.store.store import Store

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("mkfs.ext4")

QUICK = ["--profile", "demo", "--count", "1", "--measure", "1", "--interval", "0",
         "--size", "16MiB"]


def finish(proc, timeout: float = 120) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def need(fstype: str) -> None:
    ok, reason = can_loop_mount(fstype)
    if not ok:
        pytest.skip(f"{fstype} mounts unavailable: {reason}")


def need_nobody() -> None:
    ok, reason = can_drop_privileges()
    if not ok:
        pytest.skip(reason)


# --- 1. paths fio would misread -------------------------------------------------------------

ODD_NAMES = {
    "semicolon": ("notes;2024", "notes"),  # fio once wrote random data over `notes`
    "hash": ("disk#2", "disk"),
    "space hash": ("Photos #1", "Photos"),
    "backslash": ("back\\slash", "back"),
    "colon": ("a:b", "a"),
    "tab": ("tab\there", "tab"),
    "newline": ("new\nline", "new"),
}


@pytest.mark.parametrize("name,sibling", list(ODD_NAMES.values()), ids=list(ODD_NAMES))
def test_odd_target_names_change_nothing_outside_the_target(tmp_path, name, sibling):
    parent = tmp_path / "parent"
    parent.mkdir()
    (parent / sibling).write_text("a user's file, not diskmark's\n")
    (parent / "other").mkdir()
    target = parent / name
    target.mkdir()
    before = picture(parent, skip=target)
    code, out, err = finish(diskmark_cli("run", "--target", str(target), "--mode", "write",
                                         *QUICK))
    assert code == 0, err
    assert "SEQ" in out
    assert picture(parent, skip=target) == before, "something outside the target changed"
    assert list(target.iterdir()) == []
    assert fio_processes(parent) == []


# --- 2. another user swapping files for symlinks -------------------------------------------

ATTACKER = textwrap.dedent("""
    import os, sys, time
    target, victim, until = sys.argv[1], sys.argv[2], time.time() + float(sys.argv[3])
    tries = 0
    while time.time() < until:
        for name in os.listdir(target):
            path = os.path.join(target, name)
            tries += 1
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    for inner in ("diskmark-test.dat", "diskmark-probe"):  # a private dir?
                        try:
                            os.symlink(victim, os.path.join(path, inner + ".x"))
                            os.replace(os.path.join(path, inner + ".x"), os.path.join(path, inner))
                            print("planted a symlink inside", path, flush=True)
                        except OSError:
                            pass
                    os.rename(path, path + ".moved")  # then put a symlink where it was
                    os.symlink(os.path.dirname(victim), path)
                    print("moved", path, flush=True)
                elif os.path.isfile(path) and not os.path.islink(path):
                    os.symlink(victim, path + ".x")
                    os.replace(path + ".x", path)
                    print("swapped", path, flush=True)
            except OSError:
                pass
        time.sleep(0.001)
    print("tries", tries, flush=True)
""")


def test_a_user_who_can_write_the_target_cannot_redirect_root_s_writes(tmp_path):
    need_nobody()
    base = Path(os.environ.get("TMPDIR", "/tmp")) / f"dm-swap-{os.getpid()}"
    base.mkdir(mode=0o755)
    try:
        secret = base / "root-only"
        secret.mkdir(mode=0o700)
        victim = secret / "victim"
        victim.write_bytes(b"precious\n" * 1000)
        victim.chmod(0o600)
        target = base / "shared"
        target.mkdir()
        target.chmod(0o777)  # writable by everyone, not sticky: the worst case
        attacker = subprocess.Popen(as_nobody([sys.executable, "-c", ATTACKER, str(target),
                                               str(victim), "25"]),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.5)
        code, out, err = finish(diskmark_cli("run", "--target", str(target), "--mode", "write",
                                             *QUICK))
        attacker.terminate()
        said, _ = attacker.communicate(timeout=30)
        assert victim.read_bytes() == b"precious\n" * 1000, "root's file was overwritten"
        assert "planted" not in said, "the attacker got into diskmark's directory"
        assert "moved" in said, "the attack never happened"
        # the attacker moved diskmark's directory: the run says so, whichever moment the
        # swap won (mid-run: 1; as the directory was made, a refusal before any test: 2)
        assert (code == 1 and "removed or moved" in err) or (
            code == 2 and "was replaced by another program as it was made" in err), err
        assert fio_processes(target) == []
        assert only_the_attackers(target)
    finally:
        subprocess.run(["rm", "-rf", str(base)])


def only_the_attackers(target: Path) -> bool:
    """After the attack, the target holds only what the attacker made (symlinks): diskmark
    found its directory wherever in the target it was moved to, and removed it."""
    ours = [p for p in target.iterdir() if not p.is_symlink()]
    assert ours == [], f"left behind: {ours}"
    return True


def test_the_o_direct_probe_is_out_of_reach_too(tmp_path):
    """The probe used to be closed and re-opened by name: swapping it zeroed the first 4 KiB
    of a root-only file, even on a refused run (ramfs refuses O_DIRECT)."""
    need_nobody()
    need("ramfs")
    from mounts import ramfs_mount

    base = Path("/tmp") / f"dm-probe-{os.getpid()}"
    base.mkdir(mode=0o755)
    try:
        victim = base / "victim"
        victim.write_bytes(b"x" * 8192)
        victim.chmod(0o600)
        with ramfs_mount(base, name="ram") as target:
            target.chmod(0o777)
            attacker = subprocess.Popen(as_nobody([sys.executable, "-c", ATTACKER, str(target),
                                                   str(victim), "8"]),
                                        stdout=subprocess.PIPE, text=True)
            time.sleep(0.3)
            for _ in range(20):  # every try is refused: no O_DIRECT on ramfs, or the attacker
                # swapped the new private directory before it was opened, which is refused too
                code, _, err = finish(diskmark_cli("run", "--target", str(target), *QUICK))
                assert code == 2 and ("O_DIRECT" in err or "replaced by another program" in err), err
            attacker.terminate()
            attacker.communicate(timeout=30)
            assert victim.read_bytes() == b"x" * 8192
            assert only_the_attackers(target)
    finally:
        subprocess.run(["rm", "-rf", str(base)])


# --- 3. the signal matrix (the app's is in test_faults_tui.py) -------------------------------

PHASES = ["preparing", "measuring", "interval", "flush"]
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGKILL]


def phase_args(phase: str) -> list[str]:
    """Settings that make ``phase`` last long enough to be caught from outside."""
    if phase == "preparing":
        return ["--profile", "demo", "--size", "512MiB", "--count", "1", "--measure", "1",
                "--interval", "0"]
    if phase == "flush":  # buffered writes on a throttled disk: fsync takes seconds
        return ["--profile", "demo", "--mode", "write", "--buffered", "--size", "32MiB",
                "--count", "1", "--measure", "1", "--interval", "0"]
    return ["--profile", "demo", "--size", "16MiB", "--count", "1", "--measure", "3",
            "--interval", "4"]


def start_cli(prefix: list[str], *args: str) -> subprocess.Popen:
    if not prefix:
        return diskmark_cli(*args)
    return subprocess.Popen([*prefix, sys.executable, "-m", "diskmark", *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace")


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
def test_cli_signal_in_any_phase_leaves_no_fio_and_no_test_file(tmp_path, sig, phase):
    with phase_target(tmp_path, phase) as (target, procs):
        prefix = [] if procs is None else ["sh", "-c", 'echo $$ > "$0" && exec "$@"', str(procs)]
        proc = start_cli(prefix, "run", "--target", str(target), *phase_args(phase))
        try:
            for attempt in range(1, 4):
                seen: dict = {}
                wait_for(lambda p=proc, s=seen: p.poll() is not None
                         or phase_reached(phase, p.pid, target, s), 120, f"the {phase} phase")
                if attempt == 3 or proc.poll() is None or \
                        not stalled_before_the_flush(proc, phase, target):
                    break
                print(f"attempt {attempt}: fio's writes waited on the throttled disk so long "
                      "that its status reports stalled and the run failed (cleanly) before "
                      "the flush; again")
                proc = start_cli(prefix, "run", "--target", str(target), *phase_args(phase))
            assert proc.poll() is None, \
                f"the run ended before the {phase} phase: {proc.stderr.read()}"
            sent = time.monotonic()
            proc.send_signal(sig)
            code, _, err = finish(proc, timeout=60)
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                proc.kill()
        assert fio_left(target) == [], "fio outlived diskmark"
        if sig == signal.SIGKILL:
            assert code == -signal.SIGKILL
            said = next_start()
            assert "Removed" in said and str(target) in said, said
        else:
            assert code == 130, err
            assert "interrupted" in err
            limit = 15 if phase == "flush" else 5  # a flush cannot be interrupted
            assert took < limit, f"stopping took {took:.1f} s"
        assert leftovers(target) == []


def stalled_before_the_flush(proc: subprocess.Popen, phase: str, target: Path) -> bool:
    """A flush run that failed before its flush because buffered writes on the throttled
    disk blocked fio long enough that its status reports stalled (seen under a busy suite):
    a failure the engine reports as it should, leaving nothing behind, so the test may run
    again. Asserts that nothing was left; False for any other ending, which the test reports."""
    if phase != "flush":
        return False
    _, err = proc.communicate(timeout=60)
    if proc.returncode != 1 or "status reports stalled" not in err:
        proc.stderr = io.StringIO(err)  # the caller's message reads it
        return False
    assert fio_left(target) == [] and leftovers(target) == [], err
    return True


def measuring_run(target: Path) -> subprocess.Popen:
    """``diskmark run`` on ``target``, once it is measuring (3 s passes, 4 s intervals)."""
    proc = diskmark_cli("run", "--target", str(target), *phase_args("measuring"))
    seen: dict = {}
    wait_for(lambda: phase_reached("measuring", proc.pid, target, seen), 60, "measuring")
    return proc


def suspend_measuring_fio(proc: subprocess.Popen, target: Path) -> list:
    """kill -STOP every fio measuring in ``target``; returns them. Sure of it: a pass that
    ended between "measuring" being seen and the suspension (the run then rests, or ends)
    would let the run stop at once, so such a catch is let go and the next pass is taken."""
    def stopped(fio: list) -> bool:
        try:
            return all(p.status() == psutil.STATUS_STOPPED for p in fio)
        except psutil.NoSuchProcess:
            return False

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        fio = fio_processes(target)
        for p in fio:
            p.suspend()
        settle = time.monotonic() + 2  # SIGSTOP takes a moment to show, more on a busy machine
        while fio and not stopped(fio) and time.monotonic() < settle:
            time.sleep(0.02)
        if fio and stopped(fio) and {p.pid for p in fio_processes(target)} == {p.pid for p in fio}:
            return fio
        for p in fio:
            try:
                p.resume()
            except psutil.NoSuchProcess:
                pass
        assert proc.poll() is None, "the run ended before its fio was caught measuring"
        wait_for(lambda: phase_reached("measuring", proc.pid, target, {}), 60, "measuring")
    raise AssertionError("no fio was caught measuring within a minute")


def test_second_ctrl_c_stops_at_once(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    proc = measuring_run(target)
    fio = suspend_measuring_fio(proc, target)  # fio will not answer the first Ctrl+C
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    # timed by fio's end, not diskmark's exit (whose teardown a busy machine slows): killed at
    # once, not when the first Ctrl+C's grace (KILL_GRACE_S, 1.5 s) would have killed it
    wait_for(lambda: all(gone_or_zombie(p) for p in fio), 10, "fio to be killed", step=0.01)
    killed = time.monotonic() - started
    code, _, err = finish(proc, 30)
    assert code == 130, err
    assert killed < 1.2, f"fio was killed {killed:.2f} s after the first Ctrl+C"
    assert fio_processes(target) == [] and leftovers(target) == []


def gone_or_zombie(p: psutil.Process) -> bool:
    try:
        return p.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


# --- 4. a hung fio ------------------------------------------------------------------------


def test_a_stopped_fio_is_caught_by_the_watchdog(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    proc = measuring_run(target)
    suspend_measuring_fio(proc, target)  # kill -STOP
    started = time.monotonic()
    code, out, err = finish(proc, 60)
    assert code == 1, err
    assert "stopped reporting" in err
    assert time.monotonic() - started < 20
    assert fio_processes(target) == [] and leftovers(target) == []
    assert Store().history() == [], "a failed run is not kept as a result"


def test_ctrl_c_with_a_stopped_fio_ends_within_seconds(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    proc = measuring_run(target)
    suspend_measuring_fio(proc, target)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code, _, err = finish(proc, 60)
    assert code == 130, err
    assert time.monotonic() - started < 5
    assert fio_processes(target) == [] and leftovers(target) == []


def fake_fio(tmp_path: Path, body: str) -> Path:
    """A program that answers `--version` like fio and then does ``body`` (shell)."""
    path = tmp_path / "fake-fio"
    path.write_text('#!/bin/sh\nif [ "$1" = "--version" ]; then echo fio-3.33; exit 0; fi\n'
                    'if [ "$1" = "--enghelp" ]; then printf "Available IO engines:\\n\\tlibaio\\n"; '
                    f'exit 0; fi\n{body}\n')
    path.chmod(0o755)
    return path


def test_a_fio_that_ignores_ctrl_c_is_killed(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    fio = fake_fio(tmp_path, "trap '' INT TERM\nexec sleep 600")
    proc = diskmark_cli("run", "--target", str(target), *QUICK,
                        env=dict(os.environ, DISKMARK_FIO=str(fio)))
    wait_for(lambda: any("sleep" in _command(p) for p in _children(proc.pid)), 30,
             "the fake fio")
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code, _, err = finish(proc, 60)
    assert code == 130, err
    assert time.monotonic() - started < 5
    # this run's fake fio only: another test's may be sleeping beside it
    assert not [p for p in _everyone() if "sleep 600" in _command(p)
                and _environ(p).get("DISKMARK_FIO") == str(fio)]
    assert leftovers(target) == []


def test_a_silent_fio_fails_the_step_instead_of_hanging(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    fio = fake_fio(tmp_path, "exec sleep 600")
    started = time.monotonic()
    code, _, err = finish(diskmark_cli("run", "--target", str(target), *QUICK,
                                       env=dict(os.environ, DISKMARK_FIO=str(fio))), 120)
    assert code == 1 and "stopped reporting" in err, err
    assert time.monotonic() - started < 30
    assert leftovers(target) == []


def _everyone():
    import psutil

    for p in psutil.process_iter():
        try:
            p.cmdline()
            yield p
        except psutil.Error:
            pass


def _command(p) -> str:
    """The command line, or "" for a process that has gone (or is a zombie) meanwhile."""
    import psutil

    try:
        return " ".join(p.cmdline())
    except psutil.Error:
        return ""


def _environ(p) -> dict[str, str]:
    import psutil

    try:
        return p.environ()
    except psutil.Error:
        return {}


def _children(pid: int):
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


# --- 5. the target vanishes mid-run ---------------------------------------------------------


def test_lazy_unmount_mid_run_fails_and_creates_nothing_on_the_parent(tmp_path):
    need("ext4")
    with loop_mount(tmp_path, "ext4", size_mib=96) as mnt:
        proc = measuring_run(mnt)
        subprocess.run(["umount", "-l", str(mnt)], check=True)
        code, _, err = finish(proc, 60)
        assert code == 1, err
        assert "unmounted or removed" in err
        assert list(mnt.iterdir()) == [], "nothing may appear on the filesystem underneath"
        assert Store().history() == []
        assert fio_processes(mnt) == []


def test_removed_target_mid_run_fails_and_is_not_recreated(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    proc = measuring_run(target)
    subprocess.run(["rm", "-rf", str(target)], check=True)
    code, _, err = finish(proc, 60)
    assert code == 1, err
    assert "unmounted or removed" in err or "removed or moved" in err
    assert not target.exists(), "fio re-created the target"
    assert Store().history() == []


# --- 6. cleanup that cannot happen ----------------------------------------------------------


def test_read_only_remount_mid_run_keeps_the_report_and_says_what_stays(tmp_path):
    need("ext4")
    with loop_mount(tmp_path, "ext4", size_mib=96) as mnt:
        proc = measuring_run(mnt)
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        code, out, err = finish(proc, 60)
        assert "Traceback" not in err
        assert "Could not remove" in err and str(mnt) in err and "Read-only" in err, err
        assert "Profile:" in out, "the report is kept"
        assert code in (0, 1)
        subprocess.run(["mount", "-o", "remount,rw", str(mnt)], check=True)
        said = next_start()
        assert "Removed" in said, said
        assert leftovers(mnt) == []


def test_an_unwritable_target_at_the_end_is_reported_not_a_traceback(tmp_path):
    need_nobody()
    base = Path("/tmp") / f"dm-chmod-{os.getpid()}"
    base.mkdir(mode=0o755)
    try:
        target = base / "mine"
        target.mkdir()
        os.chown(target, 65534, 65534)
        home = base / "home"
        home.mkdir()
        os.chown(home, 65534, 65534)
        env = dict(os.environ, DISKMARK_HOME=str(home))
        proc = subprocess.Popen(
            as_nobody([sys.executable, "-m", "diskmark", "run", "--target", str(target),
                       *phase_args("measuring")]),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            cwd="/", stdin=subprocess.DEVNULL)
        seen: dict = {}
        wait_for(lambda: phase_reached("measuring", proc.pid, target, seen), 60, "measuring")
        target.chmod(0o555)
        code, out, err = finish(proc, 60)
        assert "Traceback" not in err
        assert code == 0, err
        assert "Could not remove" in err and "Permission denied" in err
        assert "Profile:" in out
    finally:
        subprocess.run(["rm", "-rf", str(base)])


def test_a_killed_run_s_test_file_goes_at_the_next_start_and_only_it(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    proc = measuring_run(target)
    proc.kill()
    proc.communicate()
    assert fio_processes(target) == []
    assert len(leftovers(target)) == 1
    said = next_start()
    assert "Removed" in said and "test file" in said
    assert leftovers(target) == []
    assert (target / "keep.txt").read_text() == "mine"
