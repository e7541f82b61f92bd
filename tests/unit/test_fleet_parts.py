"""The parts of a fleet run that need no fio server: job files rendered from the plan, hosts
as written, what fio's client said in real failures (captured from real fio 3.33 servers:
tests/fixtures/fio_client_*), and the side-by-side reports."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from diskmark.engine import parse
from diskmark.engine.fleet import jobfile
from diskmark.engine.fleet.client import client_arg, client_problem, host_entries
from diskmark.engine.fleet.hosts import (
    HOSTS_FILE_MAX_BYTES,
    SSH_CONFIG_MAX_BYTES,
    HostError,
    hosts_from,
    parse_host,
    read_hosts_file,
)
from diskmark.engine.fleet.privacy import Access, access
from diskmark.engine.plan import build_plan, run_args
from diskmark.engine.process import Outcome
from diskmark.model.facts import SystemFacts
from diskmark.model.fleet import DEFAULT_PORT, FleetResult, Host
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.settings import Op, Settings
from diskmark.model.units import MIB
from diskmark.presets import load_catalog
from diskmark.report import side_by_side as fleet_report

FIXTURES = Path(__file__).parents[1] / "fixtures"


def plan(**kw):
    settings = Settings(target="/mnt/data", size=16 * MIB, count=2, measure=1.0, interval=0.0, **kw)
    return build_plan(load_catalog().get("default"), settings)


# --- job files --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["data", "./x", "/mnt/a b", "/mnt/a;b", "/mnt/a#b", "/mnt/a:b",
                                  "/mnt/a\nb", "/mnt/ä", "/mnt/../etc", "/mnt/$HOME"])
def test_target_paths_that_cannot_be_sent_are_refused(path):
    with pytest.raises(jobfile.JobFileError) as e:
        jobfile.check_remote_target(path)
    assert repr(path) in str(e.value)


def test_a_plain_target_is_accepted():
    assert jobfile.check_remote_target("/mnt/data-1/fio_x+y/") == "/mnt/data-1/fio_x+y"


def test_a_test_job_holds_the_plans_own_options_for_every_pass():
    p = plan(mix=70)
    test = p.tests[-1]  # a mix: rwmixread too
    text = jobfile.passes_job(p, test, "/mnt/data", ".diskmark-fleet-0.tmp")
    sections = text.split("\n[")
    assert len(sections) == p.settings.count + 1
    lines = set(text.splitlines())
    for arg in run_args("fio", p, test, jobfile.REMOTE_IOENGINE)[1:]:
        key, _, value = arg[2:].partition("=")
        if key in ("name", "filename", "output-format", "status-interval"):
            continue
        assert (f"{key}={value}" if value else key) in lines
    assert "rwmixread=70" in lines and "stonewall" in lines
    assert "directory=/mnt/data" in lines and "filename=.diskmark-fleet-0.tmp" in lines
    assert not any(c in text for c in ";#")


def test_a_value_that_could_end_early_is_refused():
    with pytest.raises(jobfile.JobFileError):
        jobfile.section("x", ["--rw=read\n[evil]"], "/mnt", "f")
    with pytest.raises(jobfile.JobFileError):
        jobfile.section("x", ["--rw=read;rm"], "/mnt", "f")


def test_probe_and_cleanup_remove_their_file():
    assert "unlink=1" in jobfile.probe_job("/mnt", "p", True).splitlines()
    assert "direct=1" in jobfile.probe_job("/mnt", "p", True).splitlines()
    clean = jobfile.cleanup_job("/mnt", "p").splitlines()
    assert "create_only=1" in clean and "unlink=1" in clean


def test_the_others_probe_makes_its_file_as_nobody_after_changing_user():
    lines = jobfile.others_probe_job("/mnt", "p").splitlines()
    assert {"uid=65534", "gid=65534", "create_serialize=0", "unlink=1", "direct=0"} <= set(lines)
    assert "thread" not in lines  # a thread's setuid would change the whole server's job process


def _entry(error: int) -> dict:
    return {"jobname": "diskmark-others", "port": DEFAULT_PORT, "error": error}


@pytest.mark.parametrize("rc, error, noise, hung, found", [
    (1, 13, ["<h> fio: pid=1, err=13/file:filesetup.c:174, func=open, error=Permission denied"],
     False, Access.PRIVATE),
    (0, 0, [], False, Access.OTHERS),
    (1, 1, ["<h> fio: pid=1, err=1/file:backend.c:1675, func=setgid, error=Operation not "
            "permitted"], False, Access.UNKNOWN),
    (1, 22, ["<h> fio: pid=1, err=22/file:backend.c:1679, func=setuid, error=Invalid argument"],
     False, Access.UNKNOWN),
    (1, 1, [], False, Access.UNKNOWN),  # EPERM without its cause: not taken for a refusal
    (1, 28, [], False, Access.FAILED),
    (None, 0, [], True, Access.FAILED),
])
def test_what_the_others_probe_found(rc, error, noise, hung, found):
    out = Outcome(rc, {"client_stats": [_entry(error)]}, "", noise, hung=hung)
    assert access(out, [_entry(error)]) is found


# --- hosts ------------------------------------------------------------------------------


@pytest.mark.parametrize("text, name, port, label", [
    ("fio://db1", "db1", DEFAULT_PORT, "db1"),
    ("fio://db1.example.com:9000", "db1.example.com", 9000, "db1.example.com:9000"),
    ("fio://10.0.0.7", "10.0.0.7", DEFAULT_PORT, "10.0.0.7"),
    ("fio://[fd00::7]:8800", "fd00::7", 8800, "[fd00::7]:8800"),
])
def test_raw_hosts_as_written(text, name, port, label):
    host = parse_host(text)
    assert (host.name, host.port, host.label, host.ssh) == (name, port, label, False)


@pytest.mark.parametrize("text, destination, port, label", [
    ("db1", "db1", 0, "db1"),  # an alias of ~/.ssh/config, or a host name
    ("web_1", "web_1", 0, "web_1"),
    ("db1:8765", "db1", 8765, "db1:8765"),  # a bare port is SSH's now
    ("root@db1.example.com:2222", "root@db1.example.com", 2222, "db1.example.com:2222"),
    ("ssh://ops@10.0.0.7", "ops@10.0.0.7", 0, "10.0.0.7"),
    ("ssh://[fd00::7]:22", "fd00::7", 22, "[fd00::7]:22"),
    ("ops@[fd00::7]", "ops@fd00::7", 0, "[fd00::7]"),
])
def test_ssh_hosts_as_written(text, destination, port, label):
    host = parse_host(text)
    assert (host.destination, host.port, host.label, host.ssh) == (destination, port, label, True)


def test_client_argument():
    assert client_arg(Host("10.0.0.7", 9000)) == "--client=ip:10.0.0.7,9000"
    assert client_arg(Host("fd00::7")) == "--client=ip6:fd00::7,8765"


@pytest.mark.parametrize("text", ["", "db 1", "db1:0", "db1:70000", "db1:x", "-db", "::1",
                                  "[::1", "[zz]:1", "db1;ls", "a..b", "-oProxyCommand=x",
                                  "-u@db1", "a b@db1", "db1%h", "$(id)", "fio://db_1",
                                  "fio://-db", "fio://db1:0", "ssh://db 1"])
def test_bad_hosts_are_refused(text):
    with pytest.raises(HostError):
        parse_host(text)


def test_hosts_file_and_duplicates(tmp_path):
    f = tmp_path / "hosts"
    f.write_text("# the rack\ndb1\n\n db2:9000  # spare\n")
    assert [h.label for h in hosts_from(read_hosts_file(str(f)))] == ["db1", "db2:9000"]
    with pytest.raises(HostError, match="twice"):
        hosts_from(["fio://db1", "fio://db1:8765"])
    with pytest.raises(HostError, match="twice"):
        hosts_from(["db1", "root@db1"])
    with pytest.raises(HostError, match="cannot read"):
        read_hosts_file(str(tmp_path / "none"))


def _cli(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
    """``diskmark run`` in a child that cannot take more than 1 GiB of memory (a hosts file
    read without a bound would otherwise take the machine's) nor hang the test."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run([sys.executable, "-m", "diskmark", "run", *args], text=True,
                          capture_output=True, timeout=timeout, preexec_fn=limit,
                          stdin=subprocess.DEVNULL)


def test_a_fifo_as_hosts_file_is_refused_at_once(tmp_path):
    fifo = tmp_path / "hosts"
    os.mkfifo(fifo)
    try:
        done = _cli("--hosts-file", str(fifo), "--target", "/mnt/x")
    except subprocess.TimeoutExpired:
        raise AssertionError("diskmark waited on the FIFO") from None
    assert done.returncode == 2, done.stderr
    assert f"cannot read the hosts file {fifo}: not a regular file (a FIFO)." in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_as_hosts_file_is_refused(device, tmp_path):
    link = tmp_path / "hosts"
    link.symlink_to(device)  # a link to it, as a mistyped dotfile could be
    for path in (device, str(link)):
        done = _cli("--hosts-file", path, "--target", "/mnt/x")
        assert done.returncode == 2, done.stderr[-2000:]
        assert (f"cannot read the hosts file {path}: not a regular file (a character device)."
                in done.stderr)


def test_a_huge_hosts_file_is_refused_and_a_linked_one_read(tmp_path):
    huge = tmp_path / "huge"
    with open(huge, "wb") as f:
        f.truncate(HOSTS_FILE_MAX_BYTES + 1)
    with pytest.raises(HostError, match=f"cannot read the hosts file {huge}: larger than 1 MiB"):
        read_hosts_file(str(huge))
    real = tmp_path / "rack"
    real.write_text("db1\n")
    (tmp_path / "link").symlink_to(real)
    assert read_hosts_file(str(tmp_path / "link")) == ["db1"]


def _ssh_configs(tmp_path) -> dict[str, tuple[str, str]]:
    """--ssh-config FILE that ssh must never be given, and why each is refused."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    huge = tmp_path / "huge"  # sparse and without a newline: one endless line to ssh
    with open(huge, "wb") as f:
        f.truncate(SSH_CONFIG_MAX_BYTES + 1)
    link = tmp_path / "config"
    link.symlink_to("/dev/zero")
    return {"/dev/zero": ("/dev/zero", "not a regular file (a character device)"),
            "link to /dev/zero": (str(link), "not a regular file (a character device)"),
            "FIFO": (str(fifo), "not a regular file (a FIFO)"),
            "directory": (str(tmp_path), "not a regular file (a directory)"),
            "too large": (str(huge), "larger than 16 MiB"),
            "missing": (str(tmp_path / "none"), "No such file or directory")}


def test_an_ssh_config_ssh_could_not_read_is_refused_before_ssh_runs(tmp_path):
    """ssh read /dev/zero as one endless line (17 GB, then the OOM killer) and waited 60 s on
    a FIFO, then blamed the host; the child here has 1 GiB and 20 s."""
    for kind, (path, why) in _ssh_configs(tmp_path).items():
        started = time.monotonic()
        try:
            done = _cli("--host", "h1", "--ssh-config", path, "--target", "/mnt/x")
        except subprocess.TimeoutExpired:
            raise AssertionError(f"diskmark waited on --ssh-config {kind}") from None
        assert done.returncode == 2, (kind, done.stderr[-2000:])
        assert done.stderr == (f"diskmark: cannot use {path} as the SSH configuration "
                               f"(--ssh-config): {why}.\n"), kind
        assert done.stdout == "" and time.monotonic() - started < 10, kind


def test_the_engine_refuses_an_ssh_config_ssh_could_not_read(tmp_path):
    import asyncio

    from diskmark.engine.fleet.run import Fleet
    from diskmark.engine.fleet.ssh_tunnel import SshSetup

    for path, why in _ssh_configs(tmp_path).values():
        fleet = Fleet([parse_host("h1")], ssh=SshSetup(path))
        with pytest.raises(HostError, match=re.escape(why)):
            asyncio.run(fleet.run(Settings(target="/mnt/x")))


# --- the job files' directory on this machine -------------------------------------------


@pytest.fixture
def tmpdir_env(tmp_path, monkeypatch):
    import tempfile

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    yield tmp
    tempfile.tempdir = None


def test_a_live_fleets_job_files_stay_and_a_dead_ones_go_saying_where(tmpdir_env):
    from diskmark.engine.fleet.jobs_dir import JobsDir
    from diskmark.engine.leftovers import sweep_register

    live = JobsDir.create(["db1", "db2:9000"], "/srv/data", ".diskmark-fleet-0123456789ab.tmp")
    assert live.path.parent == tmpdir_env and stat.S_IMODE(live.path.stat().st_mode) == 0o700
    (live.path / "tmpabcdefgh.fio").write_text("[job]\n")
    assert sweep_register() == [] and live.path.is_dir()  # held by a running fleet
    os.close(live._fd)  # its diskmark killed: the lock goes with it
    found = sweep_register()
    assert [f.describe() for f in found] == [
        f"Removed {live.path}, the job files of a fleet run that was stopped abruptly; its "
        f"test file may remain on db1, db2:9000 as /srv/data/<this machine's "
        f"address>..diskmark-fleet-0123456789ab.tmp: remove it there."]
    assert list(tmpdir_env.iterdir()) == [] and sweep_register() == []


def test_a_dead_fleets_directory_holding_another_file_stays(tmpdir_env):
    from diskmark.engine.fleet.jobs_dir import JobsDir
    from diskmark.engine.leftovers import sweep_register

    dead = JobsDir.create(["db1"], "/srv/data", ".diskmark-fleet-0123456789ab.tmp")
    (dead.path / "notes.txt").write_text("mine\n")
    os.close(dead._fd)
    found = sweep_register()
    assert len(found) == 1 and not found[0].removed
    assert "it holds files diskmark did not make (notes.txt)" in found[0].describe()
    assert (dead.path / "notes.txt").read_text() == "mine\n"


def test_a_start_that_loads_no_fleet_module_removes_a_dead_fleets_job_files(tmpdir_env):
    """What the next start knows of a killed fleet's job files is what their register entry
    says: the sweep finds and removes them, and names the hosts and what stays there, in a
    process that loads none of the fleet (the engine's core does not import it)."""
    from diskmark.engine.fleet.jobs_dir import JobsDir

    dead = JobsDir.create(["db1", "[fd00::7]:9000"], "/srv/data", ".diskmark-fleet-0123456789ab.tmp")
    (dead.path / "tmpabcdefgh.fio").write_text("[job]\n")
    (dead.path / "1.sock").touch()
    os.close(dead._fd)  # its diskmark killed
    sweep = ("import sys; from diskmark.engine.leftovers import sweep_register; "
             "print([f.describe() for f in sweep_register()]); "
             "print(sorted(m for m in sys.modules if m.startswith('diskmark.engine.fleet')))")
    done = subprocess.run([sys.executable, "-c", sweep], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    said, loaded = done.stdout.splitlines()
    assert said == repr([
        f"Removed {dead.path}, the job files of a fleet run that was stopped abruptly; its test "
        f"file may remain on db1, [fd00::7]:9000 as /srv/data/<this machine's address>."
        f".diskmark-fleet-0123456789ab.tmp: remove it there."])
    assert loaded == "[]", "the sweep loaded the fleet's modules"
    assert list(tmpdir_env.iterdir()) == []


@pytest.mark.parametrize("forged", [
    {"name": "notes"},  # not a name its kind gives
    {"name": "diskmark-other-0123456789ab"},  # another kind's
    {"suffixes": [".txt/../x"]},
    {"suffixes": []},
    {"kind": "Fleet"},
    {"hosts": ["db1\nforged line"]},
])
def test_a_register_entry_diskmark_did_not_write_touches_nothing(tmpdir_env, forged):
    """The sweep trusts a held directory's entry only as far as its rules go: a name its
    kind does not give, a file ending that is not one, a host that is not one line, and the
    entry is forgotten with its directory left as it is."""
    from diskmark.engine.leftovers import Held, sweep_register
    from diskmark.engine.workspace import register_dir

    def dead(name: str) -> tuple[Path, Path]:
        """A killed fleet's directory, with a job file, and its register entry."""
        folder = tmpdir_env / name
        folder.mkdir()
        (folder / "tmpabcdefgh.fio").write_text("[job]\n")
        record = Held("fleet", (".fio",), ("db1",), "/srv/data", "").register(
            tmpdir_env, name, tmpdir_env.stat())
        assert record is not None
        return folder, record

    dead("diskmark-fleet-0123456789ab")
    assert [f.removed for f in sweep_register()] == [True]  # as written, it goes
    changes = dict(forged)
    folder, record = dead(changes.pop("name", "diskmark-fleet-0123456789ab"))
    record.write_text(json.dumps(json.loads(record.read_text()) | changes))
    assert sweep_register() == []
    assert (folder / "tmpabcdefgh.fio").is_file() and list(register_dir().glob("*.json")) == []


def test_a_fleet_that_ends_leaves_no_register_entry(tmpdir_env, isolated_home):
    from diskmark.engine.fleet.jobs_dir import JobsDir
    from diskmark.engine.workspace import register_dir

    jobs = JobsDir.create(["db1"], "/srv/data", ".diskmark-fleet-0123456789ab.tmp")
    assert len(list(register_dir().glob("*.json"))) == 1
    jobs.remove()
    assert list(tmpdir_env.iterdir()) == [] and list(register_dir().glob("*.json")) == []


# --- what fio's client said -------------------------------------------------------------


def outcome(rc: int, stdout: str = "", stderr: str = "") -> Outcome:
    stream = parse.JsonStream()
    objs = stream.feed(stdout)
    return Outcome(rc, objs[-1] if objs else None, stderr, stream.noise)


def test_a_missing_directory_is_named_though_fio_exits_0():
    out = outcome(0, (FIXTURES / "fio_client_nodir.out").read_text())
    problem = client_problem(Host("127.0.0.1", 18765), "checking the target", out)
    assert problem.startswith("the target directory does not exist on 127.0.0.1:18765")


def test_a_missing_directory_is_named_though_the_server_hung_up_before_saying_more():
    """A loaded machine (the test suite beside two CPU hogs) relayed the server's first line
    and then its hang-up, without the rest: the lines as fio's client printed them there (the
    final object as it prints it). The server's reason comes before the hang-up it caused."""
    out = outcome(0, (FIXTURES / "fio_client_nodir_disconnected.out").read_text())
    problem = client_problem(Host("127.0.0.1", 18765), "checking the target", out)
    assert problem.startswith("the target directory does not exist on 127.0.0.1:18765"), problem


def test_a_lost_server_is_named():
    out = outcome(1, (FIXTURES / "fio_client_lost.out").read_text())
    problem = client_problem(Host("127.0.0.1", 18766), "SEQ1M Q8T1 read", out)
    assert problem.startswith("the connection to fio's server on 127.0.0.1:18766 was lost "
                              "while SEQ1M Q8T1 read")


def test_a_refused_connection_is_named():
    out = outcome(1, stderr=(FIXTURES / "fio_client_refused.err").read_text())
    assert client_problem(Host("127.0.0.1", 18799), "x", out).startswith(
        "cannot connect to fio's server on 127.0.0.1:18799")


def test_no_space_is_named():
    out = outcome(1, (FIXTURES / "fio_client_nospace.out").read_text(),
                  (FIXTURES / "fio_client_nospace.err").read_text())
    problem = client_problem(Host("127.0.0.1", 18765), "preparing the test file", out)
    assert problem.startswith("127.0.0.1:18765: The target ran out of space while preparing")


def test_a_target_refusing_o_direct_is_named():
    out = outcome(1, (FIXTURES / "fio_client_nodirect.out").read_text())
    assert client_problem(Host("127.0.0.1", 18767), "checking the target", out).startswith(
        "the target on 127.0.0.1:18767 refuses O_DIRECT")


def test_a_version_mismatch_is_named():
    out = outcome(1, stderr=(FIXTURES / "fio_client_version.err").read_text())
    assert client_problem(Host("db1"), "x", out).startswith(
        "fio on db1 is another version than this machine's")


def test_a_client_killed_by_sigpipe_names_the_likely_cause():
    """Seen in a full run against a server of another fio version: the server hung up as
    the client wrote its handshake, and the client died of SIGPIPE, printing nothing."""
    problem = client_problem(Host("db1"), "checking the target", outcome(-signal.SIGPIPE))
    assert problem.startswith("fio's server on db1 closed the connection while checking the "
                              "target"), problem
    assert "another fio version" in problem and "signal 13" not in problem


def test_a_finished_job_is_no_problem():
    out = outcome(0, (FIXTURES / "fio_client_mix.json").read_text())
    assert client_problem(Host("127.0.0.1", 18766), "x", out) is None


# --- client_stats -----------------------------------------------------------------------


def test_each_hosts_passes_in_order_without_the_sum_of_all_clients():
    doc = json.loads((FIXTURES / "fio_client_two_hosts_mix.json").read_text())
    mine = host_entries(doc, Host("127.0.0.1", 18765))
    assert [e["jobname"] for e in mine] == [f"RND4K-Q32T1-mix.{n}" for n in range(3)]
    assert all(e["port"] == 18765 for e in mine)
    runs = [parse.run_result(e, Op.MIX) for e in mine]
    assert all(r.mb_s > 0 and r.read_mb_s > r.write_mb_s > 0 for r in runs)


def fleet_from_fixture() -> FleetResult:
    doc = json.loads((FIXTURES / "fio_client_two_hosts_mix.json").read_text())
    p = plan(mix=70, profile="peak")  # as captured: the peak profile's RND4K Q32T1 mix
    test = p.tests[-1]
    hosts = [Host("127.0.0.1", 18765), Host("127.0.0.1", 18766), Host("db3")]
    sessions = []
    for host in hosts[:2]:
        runs = [parse.run_result(e, Op.MIX) for e in host_entries(doc, host)]
        t = TestResult(index=test.row, spec=test.spec, op=Op.MIX, mix_read=70,
                       warmup=runs[0], runs=runs[1:])
        sessions.append(SessionResult(p.settings, SystemFacts(target="/mnt/data",
                                                              hostname=host.label),
                                      tests=[t], warnings=["remote"], fio_version="fio-3.33"))
    sessions.append(SessionResult(p.settings, SystemFacts(target="/mnt/data", hostname="db3"),
                                  status=Status.FAILED, error="the connection was lost",
                                  warnings=["remote"]))
    return FleetResult(hosts, sessions)


def test_text_report_lines_hosts_up():
    result = fleet_from_fixture()
    text = fleet_report.fleet_text(result)
    head = next(line for line in text.splitlines() if line.startswith("Test (MB/s)"))
    assert head.split()[2:] == ["127.0.0.1:18765", "127.0.0.1:18766", "db3"]
    row = next(line for line in text.splitlines() if line.startswith("RND4K Q32T1 Mix"))
    cells = row.split()[-3:]
    assert [float(c) for c in cells[:2]] == [round(s.tests[0].best_mb_s, 2)
                                             for s in result.sessions[:2]]
    assert cells[2] == "-"
    assert "db3: FAILED: the connection was lost" in text


def test_json_csv_markdown():
    result = fleet_from_fixture()
    doc = json.loads(fleet_report.fleet_json(result))
    assert doc["schema"] == "diskmark.fleet/1" and doc["failed"] == ["db3"]
    assert [h["host"] for h in doc["hosts"]] == ["127.0.0.1:18765", "127.0.0.1:18766", "db3"]
    assert SessionResult.from_dict(doc["hosts"][0]["result"]).system.hostname == "127.0.0.1:18765"
    rows = list(csv.reader(io.StringIO(fleet_report.fleet_csv(result))))
    assert rows[0][:2] == ["host", "status"]
    assert {r[0] for r in rows[1:]} == {"127.0.0.1:18765", "127.0.0.1:18766", "db3"}
    assert len([r for r in rows if r[0] == "127.0.0.1:18765"]) == 3  # warm-up + 2 passes
    md = fleet_report.fleet_markdown(result)
    assert "| RND4K Q32T1 Mix R70/W30 |" in md and "`db3`: FAILED" in md


def test_a_test_with_delays_can_run_a_pass_at_a_time():
    p = build_plan(load_catalog().get("default"),
                   Settings(target="/mnt/data", size=16 * MIB, count=2, measure=1.0,
                            interval=0.0, profile="stable"))
    test = next(t for t in p.tests if p.process_per_pass(t))
    one = jobfile.passes_job(p, test, "/mnt/data", "f", range(1, 2))
    assert one.count("\n[") == 0 and one.startswith(f"[{jobfile.pass_name(test, 1)}]")
    assert any(line.startswith(("startdelay=", "ramp_time=")) for line in one.splitlines())


# --- the command line, refusing before anything starts -----------------------------------


@pytest.mark.parametrize("args, message", [
    (["--host", "db 1", "--target", "/mnt/x"], "write [USER@]HOST[:PORT]"),
    (["--host", "fio://db 1", "--target", "/mnt/x"], "write fio://HOST[:PORT]"),
    (["--host", "db1", "--target", "data"], "must be an absolute path"),
    (["--host", "fio://db1", "--target", "/mnt/a;b"], "characters diskmark does not send"),
    (["--host", "db1", "--target", "/mnt/a\nb"], "holds a line break"),
    (["--host", "db1", "--target", "/mnt/${HOME}"], "which ssh would expand"),
    (["--host", "db1", "--target", "/" + "d" * 80], "is too long"),
    (["--host", "db1", "--target", "/mnt/x", "--ssh-option", "BatchMode"], "NAME=VALUE"),
    (["--hosts-file", "/nonexistent/hosts", "--target", "/mnt/x"], "cannot read the hosts file"),
    (["--host", "fio://db1", "--host", "fio://db1:8765", "--target", "/mnt/x"], "given twice"),
    (["--host", "db1", "--host", "root@db1", "--target", "/mnt/x"], "given twice"),
    (["--host", "db1", "--target", "/mnt/x", "--nocow"], "--nocow"),
    (["--host", "db1", "--target", "/mnt/x", "--sweep", "RND4K"], "--sweep"),
])
def test_bad_fleet_arguments_exit_2_before_anything_starts(args, message, capsys):
    from diskmark.cli.main import main

    assert main(["run", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_unreachable_says_why():
    import asyncio
    import socket

    from diskmark.engine.fleet.hosts import unreachable

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: refused
        why = asyncio.run(unreachable(Host("127.0.0.1", port)))
    assert why == f"cannot connect to port {port}: Connection refused"
    why = asyncio.run(unreachable(Host("no-such-host.invalid"), timeout=10))
    assert why is not None and why.startswith("cannot connect to port 8765: ")
    assert "Unknown error" not in why


def test_markdown_marks_a_cpu_limited_figure_without_emphasis():
    result = fleet_from_fixture()
    result.sessions[0].tests[0].cpu_limited = "fio's thread was 97% busy"
    md = fleet_report.fleet_markdown(result)
    row = next(line for line in md.splitlines() if line.startswith("| RND4K"))
    assert row.count("\\*") == 2 and "\\* the CPU, not the drive, set this figure" in md


# Digits of other scripts: str.isdigit() is true for "²" (then int() raised a traceback), and
# int() read "٢٢٤١" and "２２" as 2241 and 22, which ssh and fio would never take.
OTHER_DIGITS = ["²", "٢٢٤١", "２２", "２２４１", "꘢꘢", "①"]


@pytest.mark.parametrize("port", OTHER_DIGITS)
@pytest.mark.parametrize("form", ["h1:{}", "ops@h1:{}", "ssh://h1:{}", "[::1]:{}",
                                  "ssh://[fd00::7]:{}", "fio://h1:{}", "fio://[::1]:{}"])
def test_a_port_in_other_digits_is_refused_naming_it(form, port):
    text = form.format(port)
    with pytest.raises(HostError) as refused:
        parse_host(text)
    assert str(refused.value) == (f"host {text!r}: the port {port!r} must be a number from 1 "
                                  "to 65535, written with the digits 0 to 9.")


def test_a_port_in_other_digits_is_refused_on_the_command_line_and_in_a_hosts_file(tmp_path):
    hosts = tmp_path / "hosts"
    hosts.write_text("h0\nh1:٢٢٤١\n", encoding="utf-8")
    for args in (["--host", "h1:²"], ["--host", "fio://h1:２２"], ["--hosts-file", str(hosts)]):
        done = _cli(*args, "--target", "/mnt/x")
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and done.stdout == ""
        assert "written with the digits 0 to 9." in done.stderr, done.stderr
    assert "host 'h1:٢٢٤١': the port '٢٢٤١' must be" in done.stderr


def test_a_stop_ends_a_wait_at_once_and_lets_it_clean_up():
    """The hosts' checks wait on ssh and on connections through RunControl.until_stopped: a
    stop cancels what waits (which ends what it started) and says Stopped at once."""
    import asyncio

    from diskmark.engine.control import RunControl, Stopped

    cleaned = []

    async def hangs() -> str:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cleaned.append("ssh killed")
            raise
        return "ready"

    async def main() -> float:
        control = RunControl()
        assert await control.until_stopped(asyncio.sleep(0, "answered")) == "answered"
        asyncio.get_running_loop().call_later(0.1, control.stop)
        started = time.monotonic()
        with pytest.raises(Stopped):
            await control.until_stopped(hangs())
        with pytest.raises(Stopped):  # after a stop, nothing more waits
            await control.until_stopped(hangs())
        return time.monotonic() - started

    assert asyncio.run(main()) < 1 and cleaned == ["ssh killed"]
