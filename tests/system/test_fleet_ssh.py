"""Fleets over SSH against real OpenSSH servers: each "host" is an sshd in a network and mount
namespace of its own with its own tmpfs at the target (see ssh_hosts), reached with the
system's ssh, a private config, known_hosts and keys. Every test checks on each host that
no fio runs and nothing is left in the target."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import TINY_ARGS
from faults import finish_run as finish
from ssh_hosts import TARGET, host_processes, listening_inodes, make_lab, tree_sockets, why_not

from diskmark.store.store import Store

pytestmark = [pytest.mark.slow, pytest.mark.needs("sshd")]
DEMO = ["--profile", "demo", *TINY_ARGS]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    reason = why_not()
    if reason:
        print(f"skipped: {reason}")
        pytest.skip(reason)
    lab = make_lab(tmp_path_factory.mktemp("ssh"))
    try:
        lab.start(1, mode="0755")
        lab.start(1, mode="1777")  # world-writable and sticky, as /tmp
        yield lab
    finally:
        lab.stop()


def fleet(lab, *args, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "diskmark", "run", *lab.args(), *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def clean(*hosts, wait: float = 10.0) -> None:
    """No fio and nothing in the target on any of ``hosts`` (within ``wait`` seconds: a host
    notices a lost connection by itself)."""
    deadline = time.monotonic() + wait
    while any(h.files() or h.fio_processes() for h in hosts) and time.monotonic() < deadline:
        time.sleep(0.2)
    for h in hosts:
        assert h.files() == [] and h.fio_processes() == [], (h.alias, h.files())


def wait_for_private_dirs(proc, *hosts, timeout: float = 60) -> dict[str, list[str]]:
    """Wait until every host has shown a test file, and return the test files each host showed
    when it was first seen there (a fast host may have finished and removed its file by the
    time the slow one shows its own, so a second look could find nothing)."""
    deadline = time.monotonic() + timeout
    seen: dict[str, list[str]] = {}
    while len(seen) < len(hosts):
        for h in hosts:
            files = [f for f in h.files() if ".diskmark-fleet-" in f and f.endswith(".tmp")]
            if files and h.alias not in seen:
                seen[h.alias] = files
        if len(seen) < len(hosts):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.1)
    return seen


def test_two_hosts_over_ssh_open_no_tcp_port_and_leave_nothing(lab):
    a, b = lab.hosts[:2]
    before = {h.alias: h.listening_tcp() for h in (a, b)}
    assert before == {"h0": {2222}, "h1": {2222}}  # sshd's own
    proc = fleet(lab, "--host", "h0", "--host", "h1", "--target", str(TARGET), *DEMO,
                 "--format", "json")
    seen = wait_for_private_dirs(proc, a, b)["h0"]
    during = {h.alias: h.listening_tcp() for h in (a, b)}
    ours = tree_sockets(proc.pid) & listening_inodes()  # diskmark, ssh, fio's clients here
    code, out, err = finish(proc)
    assert code == 0, err
    assert during == before and ours == set()
    # the test file lives in a private directory of the target, not in the target itself
    assert re.fullmatch(rf"{TARGET}/\.diskmark-fleet-[0-9a-f]{{12}}/\.diskmark-fleet-[0-9a-f]{{12}}"
                        r"\.tmp", seen[0]), seen
    doc = json.loads(out)
    assert [h["host"] for h in doc["hosts"]] == ["h0", "h1"]
    for host in doc["hosts"]:
        assert host["result"]["status"] == "complete"
        assert [t["key"] for t in host["result"]["tests"]] == ["SEQ1M Q8T1/read",
                                                                "SEQ1M Q8T1/write"]
        assert all(t["best"]["mb_s"] > 0 for t in host["result"]["tests"])
    assert sorted(e.session.system.hostname for e in Store().history()) == ["h0", "h1"]
    clean(a, b)


def test_unknown_and_changed_host_keys_are_refused_with_their_fingerprint(lab):
    known = lab.root / "known_hosts"
    before = hashlib.sha256(known.read_bytes()).hexdigest()
    fingerprint = subprocess.run(["ssh-keygen", "-lf", str(lab.root / "host_h0.pub")],
                                 capture_output=True, text=True).stdout.split()[1]
    code, out, err = finish(fleet(lab, "--host", "stranger", "--host", "impostor", "--host",
                                  "h1", "--target", str(TARGET), *DEMO))
    assert code == 2, err
    assert "nothing was started; not usable: stranger, impostor\n" in err, err
    assert (f"stranger: the host's SSH key is not known (it offers ssh-ed25519 {fingerprint}), "
            "and diskmark does not accept a key on its own.") in err
    assert f"connecting once with `ssh -F {lab.config} stranger` and answering yes" in err
    assert f"impostor: the host's SSH key has CHANGED (it now offers ssh-ed25519 {fingerprint})" in err
    assert hashlib.sha256(known.read_bytes()).hexdigest() == before  # nothing accepted
    assert out == "" and Store().history() == []
    clean(*lab.hosts[:2])


def test_a_refused_key_and_an_unreachable_host_are_named(lab):
    code, out, err = finish(fleet(lab, "--host", "nokey", "--host", "dead", "--target",
                                  str(TARGET), *DEMO))
    assert code == 2, err
    assert "nokey: the SSH server refused every key offered, and diskmark does not ask for " \
           "passwords" in err, err
    assert "dead: cannot reach the host over SSH." in err and "Connection refused" in err
    assert out == ""
    clean(*lab.hosts[:2])


def test_fio_missing_or_of_another_version_on_a_host_is_named_with_the_install_command(lab):
    missing, other = lab.start(1, fio="missing") + lab.start(1, fio="#!/bin/sh\necho fio-2.0\n")
    code, out, err = finish(fleet(lab, "--host", "h0", "--host", missing.alias, "--host",
                                  other.alias, "--target", str(TARGET), *DEMO))
    assert code == 2, err
    assert (f"{missing.alias}: fio is not installed there; install fio-3.33, the same version "
            "as here (e.g. sudo apt install fio, sudo dnf install fio).") in err, err
    assert (f"{other.alias}: fio there is fio-2.0, here fio-3.33: fio's client/server mode "
            "needs the same version on both sides") in err
    assert "h0:" not in err.split("not usable:")[1].splitlines()[0]
    clean(lab.hosts[0], missing, other)


def test_hostile_names_are_one_word_each_on_the_host(lab):
    a = lab.hosts[0]
    # each piece would make a file P if a shell ran it; fio's socket path limits the length
    hostile = os.fsdecode(b"/;>P;/$(>P)/`>P`/'\"q/-x/\xff\xfe")
    target = f"{TARGET}{hostile}"
    assert a.nsenter("mkdir", "-p", "--", target).returncode == 0
    code, out, err = finish(fleet(lab, "--host", "h0", "--target", target, *DEMO, "-q"))
    assert code == 0, err
    assert "h0: complete" in out
    left = a.files()
    assert not any(f.endswith("/P") for f in left) and not any(".diskmark" in f for f in left)
    assert left[-1] == target, left
    assert a.nsenter("rm", "-rf", "--", f"{TARGET}/;>P;").returncode == 0
    assert not os.path.exists(os.path.expanduser("~/P"))
    clean(a)


def test_a_target_others_can_write_in_without_the_sticky_bit_is_refused(lab):
    a = lab.hosts[0]
    assert a.nsenter("mkdir", "-m", "0777", f"{TARGET}/open").returncode == 0
    a.nsenter("chmod", "0777", f"{TARGET}/open")
    code, _, err = finish(fleet(lab, "--host", "h0", "--target", f"{TARGET}/open", *DEMO))
    assert code == 2, err
    assert f"h0: other users can write in {TARGET}/open and it has no sticky bit" in err
    a.nsenter("rmdir", f"{TARGET}/open")
    clean(a)


def test_a_symlink_swap_by_another_user_leaves_the_victim_untouched(lab):
    shared = lab.hosts[1]  # its target is 1777, as /tmp
    victim = "/run/victim"
    assert shared.nsenter("sh", "-c", f"head -c 65536 /dev/urandom > {victim} && "
                          f"chmod 600 {victim}").returncode == 0
    digest = shared.nsenter("sha256sum", victim, text=True).stdout
    # user nobody swaps every file it can find in the target for a link to the victim
    attack = (f"while :; do for f in {TARGET}/* {TARGET}/.??* {TARGET}/.??*/*; do "
              f"test -f \"$f\" && ln -sfn {victim} \"$f\"; "
              f"test -d \"$f\" && mv \"$f\" \"$f.x\" 2>/dev/null; done; done")
    attacker = subprocess.Popen(
        ["nsenter", f"--mount=/proc/{shared.pid}/ns/mnt", "setpriv", "--reuid=65534",
         "--regid=65534", "--clear-groups", "sh", "-c", attack],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        code, out, err = finish(fleet(lab, "--host", "h1", "--target", str(TARGET), *DEMO,
                                      "-q"))
    finally:
        os.killpg(attacker.pid, signal.SIGKILL)
        attacker.wait()
    assert code == 0, err
    assert "h1: complete" in out
    assert shared.nsenter("sha256sum", victim, text=True).stdout == digest
    shared.nsenter("rm", "-f", victim)
    clean(shared)


def test_no_space_on_a_host_fails_it_clearly(lab):
    a, b = lab.hosts[:2]
    code, _, err = finish(fleet(lab, "--host", "h0", "--host", "h1", "--target", str(TARGET),
                                "--profile", "demo", "--size", "512MiB", "--count", "1",
                                "--measure", "1", "--interval", "0"))
    assert code == 1, err
    assert "ran out of space while preparing the test file" in err
    clean(a, b)


#: A tmpfs's limits and the bytes that fill it, so that the host's script fails at each of
#: its steps in turn: (what fails, the mount's limits, the filling's size).
FULL = [("the directory (no inode)", "size=64k,nr_inodes=2", "1M"),
        ("the pid file (no byte)", "size=64k", "1M"),
        ("fio's error file (no inode)", "size=64k,nr_inodes=4", "4k"),
        ("fio's socket (no inode)", "size=64k,nr_inodes=6", "4k"),
        ("the server's pid file, fio started (one page free)", "size=64k", "60k")]


@pytest.mark.parametrize("step, limits, fill", FULL, ids=[f[0] for f in FULL])
def test_a_target_on_a_full_file_system_leaves_nothing_and_names_no_space(lab, step, limits,
                                                                           fill):
    """The host's script fails at each step it takes in a full file system: it gave up on the
    pid file it could not write and left fio's server running, orphaned in a deleted
    directory, and diskmark said 'no reason given'."""
    a = lab.hosts[0]
    where = f"{TARGET}/full"
    filled = a.nsenter("sh", "-c", f"mkdir {where} && mount -t tmpfs -o {limits},mode=0755 "
                       f"diskmark-full {where} && {{ head -c {fill} /dev/zero > {where}/fill; "
                       f"test -s {where}/fill; }}")
    assert filled.returncode == 0, filled.stderr
    try:
        code, out, err = finish(fleet(lab, "--host", "h0", "--target", where, *DEMO))
        left = a.nsenter("ls", "-A", where, text=True).stdout.split()
        fio = a.fio_processes()
    finally:  # what a failed run left, away before the next test
        for pid in a.fio_processes():
            os.kill(pid, signal.SIGKILL)
        a.nsenter("umount", "--lazy", where)
        a.nsenter("rmdir", where)
    assert code == 2, err
    assert (f"h0: no space left on the file system of {where} there: diskmark cannot make or "
            "fill its private directory.") in err, err
    assert fio == [] and left == ["fill"], (step, fio, left)
    clean(a)


def test_a_connection_dropped_mid_run_fails_that_host_and_keeps_the_other(lab):
    a, b = lab.hosts[:2]
    proc = fleet(lab, "--host", "h0", "--host", "h1", "--target", str(TARGET), *TINY_ARGS,
                 "--format", "json")
    wait_for_private_dirs(proc, a, b)
    time.sleep(1)
    b.cut()
    code, out, err = finish(proc)
    assert code == 1, err
    assert "failed on 1 of 2 hosts: h1" in err and "h1: the SSH connection was lost while" in err
    doc = json.loads(out)
    assert doc["hosts"][0]["status"] == "complete" and doc["hosts"][1]["status"] == "failed"
    assert [e.session.system.hostname for e in Store().history()] == ["h0"]
    clean(a, b, wait=30)  # the host notices the lost connection itself


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_stop_leaves_no_fio_and_no_file_on_any_host(lab, sig):
    a, b = lab.hosts[:2]
    proc = fleet(lab, "--host", "h0", "--host", "h1", "--target", str(TARGET), *TINY_ARGS)
    wait_for_private_dirs(proc, a, b)
    time.sleep(1)
    started = time.monotonic()
    proc.send_signal(sig)
    code, _, err = finish(proc, timeout=60)
    assert code == 130, err
    assert time.monotonic() - started < 20
    assert "fio stopped on every host" in err
    clean(a, b, wait=0)


def _processes(pred) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if pred(Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")):
                    found.append(int(entry))
            except OSError:
                continue
    return found


def _hangs_as(pid: int) -> bool:
    """Whether ``pid`` is a hung login of the tests' (its ForceCommand, ``sleep 600``)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes() == b"sleep\0" + b"600\0"
    except OSError:
        return False


def _hangs(host) -> bool:
    return any(_hangs_as(pid) for pid in host_processes(host))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_a_hosts_login_hangs_ends_at_once(lab, sig):
    """The hosts are being checked, one of them logs in and hangs there: a stop was ignored
    until ssh's 60 s were out (exit 2); it ends the run at once, as later in the run."""
    a = lab.hosts[0]
    hung = next((h for h in lab.hosts if h.login), None) or lab.start(1, login="sleep 600")[0]
    for pid in host_processes(hung):  # an earlier test's login, hung there still
        if _hangs_as(pid):
            os.kill(pid, signal.SIGKILL)
    proc = fleet(lab, "--host", "h0", "--host", hung.alias, "--target", str(TARGET), *DEMO)
    deadline = time.monotonic() + 30
    while not _hangs(hung) or not a.fio_processes():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)  # h0's server is up and the other host's login hangs
    started = time.monotonic()
    proc.send_signal(sig)
    code, out, err = finish(proc, timeout=90)
    assert code == 130, err
    # at once, against ssh's 60 s before: h0's server is stopped and its directory removed
    # first, which a loaded machine stretched to 3.3 s
    assert time.monotonic() - started < 6, err
    assert "interrupted" in err, err
    mine = str(lab.config).encode()
    assert _processes(lambda argv: argv[0] == b"ssh" and mine in argv) == []
    assert Store().history() == []
    clean(a, hung, wait=5)
    for pid in host_processes(hung):  # the host's own hung login, not diskmark's
        if _hangs_as(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_run_killed_outright_is_cleaned_by_the_hosts_and_the_next_start(lab):
    a = lab.hosts[0]
    # what a run killed while its host was cut off left there: the next run there removes it
    stale = f"{TARGET}/.diskmark-fleet-00000000beef"
    assert a.nsenter("sh", "-c", f"mkdir -m 700 {stale} && echo 999999 > {stale}/pid && "
                     f"touch {stale}/leftover").returncode == 0
    tmp = Path(tempfile.mkdtemp(dir="/tmp"))  # short: a socket's path is 107 bytes at most
    env = {**os.environ, "TMPDIR": str(tmp)}
    proc = fleet(lab, "--host", "h0", "--target", str(TARGET), *TINY_ARGS, env=env)
    wait_for_private_dirs(proc, a)
    assert not any("00000000beef" in f for f in a.files())
    jobs = list(tmp.iterdir())
    assert len(jobs) == 1 and jobs[0].name.startswith("diskmark-fleet-")
    proc.kill()
    proc.communicate()
    clean(a)  # the host's script saw its input end: the server and the directory went
    done = subprocess.run([sys.executable, "-m", "diskmark", "presets"], env=env, text=True,
                          capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert (f"Removed {jobs[0]}, the job files of a fleet run that was stopped abruptly; h0 "
            "remove fio's private directory themselves when the SSH connection ends, or at "
            "the next run there.") in done.stderr, done.stderr
    assert list(tmp.iterdir()) == []
    tmp.rmdir()
