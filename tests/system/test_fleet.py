"""Fleets on real fio servers: two "hosts" on loopback ports, each in its own mount namespace
with its own tmpfs at the same target path (see fleet_servers). Every test checks inside
each namespace that no test file is left."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from conftest import TINY_ARGS
from crystaldiskmark_parser import parse as cdm_parse
from faults import finish_run as finish
from fleet_servers import TARGET, fio_servers, free_port, other_fio_version, servers, start  # noqa: F401

from diskmark.model.units import MIB
from diskmark.report.cdm_report import FACTS_TITLE
from diskmark.store.store import Store

pytestmark = pytest.mark.slow


def fleet(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "diskmark", "run", *args], text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)


def test_two_hosts_give_every_test_side_by_side_and_leave_nothing(fio_servers):
    a, b = fio_servers
    code, out, err = finish(fleet("--host", a.url, "--host", b.url, "--target", str(TARGET),
                                  "--profile", "peak", *TINY_ARGS, "--format", "json"))
    assert code == 0, err
    doc = json.loads(out)
    assert doc["schema"] == "diskmark.fleet/1"
    assert [h["host"] for h in doc["hosts"]] == [a.host, b.host]
    for host in doc["hosts"]:
        result = host["result"]
        assert result["schema"] == "diskmark.result/1" and result["status"] == "complete"
        assert result["system"]["hostname"] == host["host"]
        keys = [t["key"] for t in result["tests"]]
        assert keys == ["SEQ1M Q8T1/read", "RND4K Q32T1/read", "SEQ1M Q8T1/write",
                        "RND4K Q32T1/write"]
        for t in result["tests"]:
            assert len(t["runs"]) == 1 and t["warmup"] is not None
            assert t["best"]["mb_s"] > 0 and t["runs"][0]["io_bytes"] > 0
    assert a.files() == [] and b.files() == []
    history = Store().history()
    assert sorted(e.session.system.hostname for e in history) == sorted([a.host, b.host])
    # each host's entry names the id its run was kept under
    assert sorted(h["history_id"] for h in doc["hosts"]) == sorted(e.name for e in history)
    for host in (a.host, b.host):
        assert f"diskmark: {host} kept in the history as " in err


def test_text_report_puts_hosts_side_by_side_one_at_a_time(fio_servers):
    a, b = fio_servers
    code, out, err = finish(fleet("--host", a.url, "--host", b.url, "--target", str(TARGET),
                                  "--profile", "demo", *TINY_ARGS, "--one-at-a-time"))
    assert code == 0, err
    head = next(line for line in out.splitlines() if line.startswith("Test (MB/s)"))
    assert a.host in head and b.host in head and head.index(a.host) < head.index(b.host)
    row = next(line for line in out.splitlines() if line.startswith("SEQ1M Q8T1 Read"))
    assert len(row.split()) == 3 + 2  # the title's three words, one figure per host
    assert "2 hosts, one at a time" in out
    assert f"{a.host}: complete" in out and f"{b.host}: complete" in out
    assert a.files() == [] and b.files() == []


def test_the_text_format_is_each_hosts_crystaldiskmark_report(fio_servers, tmp_path):
    a, b = fio_servers
    code, out, err = finish(fleet("--host", a.url, "--host", b.url, "--target", str(TARGET),
                                  "--profile", "demo", *TINY_ARGS, "--format", "text"))
    assert code == 0, err
    reports = out.split("-" * 78 + "\ndiskmark ")
    assert len(reports) == 3, out  # one CrystalDiskMark block and one facts block per host
    for host, chunk in zip((a.host, b.host), out.split(FACTS_TITLE)[1:], strict=True):
        assert f"     Host: {host}" in chunk
    first = tmp_path / "first.txt"
    first.write_text(out.split(FACTS_TITLE)[0])
    read = cdm_parse(str(first))
    assert len(read.read_results) == len(read.write_results) == 1
    assert read.read_results[0].rate > 0 and read.profile == "Demo"


def test_a_server_killed_mid_run_fails_that_host_and_keeps_the_other(fio_servers):
    a, b = fio_servers
    proc = fleet("--host", a.url, "--host", b.url, "--target", str(TARGET),
                 *TINY_ARGS, "--format", "json")
    deadline = time.monotonic() + 60
    # b's test file laid out whole (the probes before it write a few KiB, and a loaded
    # machine can take seconds over them: killed then, nothing starts anywhere)
    while max(b.sizes().values(), default=0) < 16 * MIB and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(3)  # into the tests
    b.kill()
    code, out, err = finish(proc)
    assert code == 1, err
    assert f"failed on 1 of 2 hosts: {b.host}" in err
    # killed while a step ran, the connection is lost; between two steps, it is refused
    assert (f"the connection to fio's server on {b.host} was lost" in err
            or f"cannot connect to fio's server on {b.host}" in err), err
    doc = json.loads(out)
    first, second = doc["hosts"]
    assert first["status"] == "complete" and len(first["result"]["tests"]) == 8
    assert second["status"] == "failed" and b.host in second["error"]
    # every test of the run is named, those it did not finish without figures
    assert len(second["result"]["tests"]) == 8
    assert any(not t["runs"] for t in second["result"]["tests"])
    assert doc["failed"] == [b.host]
    assert a.files() == []
    assert [e.session.system.hostname for e in Store().history()] == [a.host]


def test_an_unreachable_port_is_named_and_nothing_starts(fio_servers):
    a, _ = fio_servers
    dead_port = free_port()
    dead = f"127.0.0.1:{dead_port}"
    code, out, err = finish(fleet("--host", a.url, "--host", f"fio://{dead}", "--target", str(TARGET),
                                  *TINY_ARGS))
    assert code == 2, err
    assert "nothing was started" in err and dead in err and "Connection refused" in err
    assert a.host not in err.split("not usable:")[1].splitlines()[0]
    assert out == "" and a.files() == [] and Store().history() == []


def test_a_server_of_another_fio_version_is_named_and_nothing_starts(fio_servers):
    a, _ = fio_servers
    with other_fio_version() as port:
        code, out, err = finish(fleet("--host", a.url, "--host", f"fio://127.0.0.1:{port}",
                                      "--target", str(TARGET), *TINY_ARGS))
    assert code == 2, err
    assert out == "" and a.files() == []  # refused, nothing started, whatever fio said
    if "closed the connection" in err:
        # about one run in ten, fio's client dies of SIGPIPE before it reads the server's
        # version reply (a race in fio's handshake): the message names the likely cause
        assert f"fio's server on 127.0.0.1:{port} closed the connection" in err, err
        assert "another fio version" in err, err
    else:
        assert f"fio on 127.0.0.1:{port} is another version than this machine's" in err
        assert "version mismatch" in err  # fio's own words follow
    assert out == "" and a.files() == []


def test_a_missing_target_is_named_per_host(fio_servers):
    a, b = fio_servers
    code, _, err = finish(fleet("--host", a.url, "--host", b.url, "--target",
                                f"{TARGET}/missing", *TINY_ARGS))
    assert code == 2, err
    assert f"the target directory does not exist on {a.host}" in err
    assert f"the target directory does not exist on {b.host}" in err


def test_a_host_refusing_o_direct_is_named_and_nothing_starts(fio_servers):
    a, _ = fio_servers
    start(1, fio_servers, "ramfs")  # stopped with the others by the fixture
    ram = fio_servers[-1]
    code, _, err = finish(fleet("--host", a.url, "--host", ram.url, "--target", str(TARGET),
                                *TINY_ARGS))
    assert code == 2, err
    assert f"the target on {ram.host} refuses O_DIRECT" in err and "--buffered" in err
    assert a.files() == [] and ram.files() == []


def test_no_space_on_a_host_fails_it_clearly(fio_servers):
    a, b = fio_servers
    code, _, err = finish(fleet("--host", a.url, "--host", b.url, "--target", str(TARGET),
                                "--size", "512MiB", "--count", "1", "--measure", "1",
                                "--interval", "0", "--profile", "demo"))
    assert code == 1, err
    assert "ran out of space while preparing the test file" in err
    assert a.files() == [] and b.files() == []


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_stop_ends_the_jobs_on_every_host_and_removes_the_files(fio_servers, sig):
    a, b = fio_servers
    proc = fleet("--host", a.url, "--host", b.url, "--target", str(TARGET), *TINY_ARGS)
    deadline = time.monotonic() + 60
    while (a.files() == [] or b.files() == []) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(2)
    started = time.monotonic()
    proc.send_signal(sig)
    code, _, err = finish(proc, timeout=60)
    assert code == 130, err
    assert time.monotonic() - started < 15
    assert "fio stopped on every host" in err
    assert a.files() == [] and b.files() == []
    deadline = time.monotonic() + 5  # a server's job process exits once its client has gone
    while (_server_jobs(a) or _server_jobs(b)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _server_jobs(a) == [] and _server_jobs(b) == []


def _server_jobs(server) -> list[str]:
    """fio processes the server forked for jobs (the server itself is idle without them)."""
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(server.proc.pid)],
                         capture_output=True, text=True)
    return out.stdout.split()


def test_per_host_baselines_and_the_gate_per_host(fio_servers):
    a, b = fio_servers
    common = ["--host", a.url, "--host", b.url, "--target", str(TARGET), "--profile", "demo",
              *TINY_ARGS]
    code, _, err = finish(fleet(*common, "--save-baseline", "rack"))
    assert code == 0, err
    names = sorted(e.name for e in Store().baselines())
    assert names == sorted([f"rack@{a.host}", f"rack@{b.host}"])
    code, out, err = finish(fleet(*common, "--compare", "rack", "--fail-on-regression", "99",
                                  "--format", "markdown"))
    assert code == 0, err
    assert f"{a.host}: no test is worse than baseline 'rack@{a.host}'" in err
    assert f"{b.host}: no test is worse than baseline 'rack@{b.host}'" in err
    assert out.count("| SEQ1M Q8T1 Read |") == 1
    # a baseline no host can meet: every host's gate fails, and says which
    doc = Store().get_baseline(f"rack@{a.host}").session
    for t in doc.tests:
        for r in t.runs:
            r.mb_s, r.iops, r.lat_us = r.mb_s * 100, r.iops * 100, r.lat_us / 100
    Store().save_baseline(doc, "fast", "")
    code, _, err = finish(fleet(*common, "--compare", "fast", "--fail-on-regression", "10"))
    assert code == 3, err
    assert f"{a.host}: regression" in err and f"{b.host}: regression" in err
    assert a.files() == [] and b.files() == []


def _start_sweep(env: dict[str, str]) -> str:
    """A diskmark command that sweeps at its start; what it said."""
    done = subprocess.run([sys.executable, "-m", "diskmark", "presets"], env=env, text=True,
                          capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_a_fleet_killed_outright_leaves_nothing_here_after_the_next_start(fio_servers, tmp_path):
    a, _ = fio_servers
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    proc = fleet("--host", a.url, "--target", str(TARGET), "--size", "16MiB", "--count", "1",
                 "--measure", "3", "--interval", "0", env=env)
    for line in proc.stderr:  # a line per finished test: the test file is laid out
        if line.startswith(f"{a.host}: "):
            break
    jobs = list(tmp.iterdir())
    assert len(jobs) == 1 and jobs[0].name.startswith("diskmark-fleet-"), jobs
    assert "job files" not in _start_sweep(env)  # a live run's are left alone
    assert jobs[0].is_dir() and proc.poll() is None
    proc.kill()
    proc.communicate()
    assert jobs[0].is_dir()  # what kill -9 leaves on the controller, until the next start
    left = a.files()  # and on the host: the test file, under the controller's address
    assert len(left) == 1 and re.fullmatch(r"127\.0\.0\.1\.\.diskmark-fleet-[0-9a-f]{12}\.tmp",
                                           left[0]), left
    said = _start_sweep(env)
    assert (f"Removed {jobs[0]}, the job files of a fleet run that was stopped abruptly; its "
            f"test file may remain on {a.host} as {TARGET}/<this machine's address>."
            f"{left[0].removeprefix('127.0.0.1.')}: remove it there.") in said, said
    assert list(tmp.iterdir()) == []
    assert "job files" not in _start_sweep(env)  # said once


# --- a target other users can write in --------------------------------------------------


@pytest.mark.parametrize("mode", ["0777", "1777"])
def test_a_target_others_can_write_in_is_refused_whatever_is_stated(servers, mode):
    start(1, servers)  # 0755
    start(1, servers, mode=mode)
    private, shared = servers
    for stated in ([], ["--target-is-private"]):
        code, out, err = finish(fleet("--host", private.url, "--host", shared.url,
                                      "--target", str(TARGET), *TINY_ARGS, *stated))
        assert code == 2, err
        assert f"nothing was started; not usable: {shared.host}\n" in err, err
        assert (f"{shared.host}: other users can write in {TARGET}: a file made there as user "
                f"nobody (uid 65534) was accepted.") in err
        assert "swap it for a symbolic link" in err and "mkdir -m 0755" in err
        assert out == "" and private.files() == [] and shared.files() == []
    assert Store().history() == []


@pytest.mark.parametrize("mode", ["0755", "0700"])
def test_a_private_target_still_runs(servers, mode):
    start(1, servers, mode=mode)
    host = servers[0]
    code, out, err = finish(fleet("--host", host.url, "--target", str(TARGET), "--profile",
                                  "demo", *TINY_ARGS))
    assert code == 0, err
    assert f"{host.host}: complete" in out
    assert host.files() == []


def test_a_server_not_run_as_root_needs_the_target_stated_private(servers):
    start(1, servers, mode="0700", uid=4242)
    host = servers[0]
    args = ["--host", host.url, "--target", str(TARGET), "--profile", "demo", *TINY_ARGS]
    code, out, err = finish(fleet(*args))
    assert code == 2, err
    assert (f"{host.host}: diskmark cannot check whether other users can write in {TARGET}: "
            f"fio's server there cannot run a job as another user (it does not run as root)"
            in err), err
    assert "say so with --target-is-private" in err and out == ""
    code, out, err = finish(fleet(*args, "--target-is-private"))
    assert code == 0, err
    assert f"{host.host}: complete" in out and host.files() == []


def test_a_shared_target_runs_only_once_the_risk_is_accepted(servers):
    start(1, servers, mode="0777")
    shared = servers[0]
    args = ["--host", shared.url, "--target", str(TARGET), "--profile", "demo", *TINY_ARGS]
    code, out, err = finish(fleet(*args))
    assert code == 2 and "or accept the risk with --accept-shared-target" in err, err
    code, out, err = finish(fleet(*args, "--accept-shared-target", "--format", "json"))
    assert code == 0, err
    result = json.loads(out)["hosts"][0]["result"]
    assert result["status"] == "complete"
    assert (f"Other users may be able to write in {TARGET} on {shared.host}, where fio's server "
            "opens the test file by name; measured there because --accept-shared-target was "
            "given.") in result["warnings"]
    assert shared.files() == []
