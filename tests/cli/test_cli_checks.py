"""`diskmark check`, `diskmark checks` and `run --claim` as a script calls them: a real
process, real fio, tiny runs; the user's check files and claims file in the config
directory diskmark reads."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import TINY_ARGS, fio_processes, leftovers

from diskmark.checks import load_catalog
from diskmark.drive.probe import facts_for

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")]

SHORT = ["--size", "16MiB", "--count", "1", "--measure", "1", "--interval", "0"]


def diskmark(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=300)


@pytest.fixture
def shm():
    """A directory of its own on /dev/shm (tmpfs): fdatasync there costs nothing."""
    if not os.path.isdir("/dev/shm"):
        pytest.skip("no /dev/shm here")
    path = Path(tempfile.mkdtemp(dir="/dev/shm", prefix="diskmark-test-"))
    yield path
    assert fio_processes(path) == [] and leftovers(path) == []
    shutil.rmtree(path)


def config(name: str) -> Path:
    """A file in the config directory of the isolated DISKMARK_HOME."""
    path = Path(os.environ["DISKMARK_HOME"]) / "config" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_etcd_on_tmpfs_passes_with_its_p99_and_exits_0(shm):
    out = diskmark("check", "etcd", "--target", str(shm), *SHORT)
    print(out.stdout)
    assert out.returncode == 0, out.stderr
    assert "PASS  etcd" in out.stdout
    line = next(x for x in out.stdout.splitlines() if "sync p99 of fio rw=write bs=2300" in x)
    assert "size=22MiB ioengine=sync fdatasync=1: " in line and ", below 10 ms: pass, " in line
    assert " to spare" in line and "Passed 1, failed 0, cannot tell 0." in out.stdout
    out = diskmark("check", "etcd", "--target", str(shm), *SHORT, "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    (verdict,) = data["checks"]
    (threshold,) = verdict["thresholds"]
    assert verdict["id"] == "etcd" and verdict["outcome"] == "pass" and verdict["asked"]
    assert threshold["figure"] == "sync p99" and threshold["unit"] == "ms"
    assert threshold["limit"] == 10 and threshold["below"] and 0 < threshold["measured"] < 10
    assert "Olivi" in threshold["source"]
    (job,) = data["jobs"]
    assert job["job"]["bs"] == 2300 and job["job"]["fdatasync"] == 1
    assert job["sync_percentiles"]["99"] == pytest.approx(threshold["measured"] * 1000)
    assert "--fdatasync=1" in job["fio_command"] and "--ioengine=sync" in job["fio_command"]
    # the history keeps the verdicts with the run, and reads them back
    shown = diskmark("history", "show", data["history_id"])
    assert shown.returncode == 0, shown.stderr
    assert "[Checks]" in shown.stdout and "PASS  etcd" in shown.stdout


def test_an_unknown_check_is_a_usage_error_and_runs_nothing(tmp_path):
    out = diskmark("check", "sd-v31", "--target", str(tmp_path))
    assert out.returncode == 2
    assert "no check 'sd-v31'; available: etcd, " in out.stderr
    assert leftovers(tmp_path) == []


def test_checks_verbose_names_every_thresholds_source():
    out = diskmark("checks", "--verbose")
    assert out.returncode == 0, out.stderr
    catalog = load_catalog()
    thresholds = sum(len(c.thresholds) for c in catalog.checks.values())
    assert out.stdout.count("        source: ") == thresholds
    assert "sdcard.org/developers/sd-standard-overview/speed-class/" in out.stdout
    assert "How diskmark's measurement differs: " in out.stdout
    assert out.stdout.index("sd-c2:") < out.stdout.index("sd-v6:") < out.stdout.index("sd-v90:")


def test_a_broken_user_check_is_refused_with_its_file_and_line():
    files = {
        "syntax.toml": 'id = "syntax"\n[jobs.seq\ntest = "SEQ1M Q1T1 write"\n',
        "unknown-test.toml": ('id = "unknown-test"\n\n[jobs.seq]\ntest = "SEQ1X Q1T1 write"\n\n'
                              '[[thresholds]]\njob = "seq"\nfigure = "MB/s"\n'
                              'at_least = "30 MB/s"\nsource = "mine"\n'),
        "no-unit.toml": ('id = "no-unit"\n[jobs.seq]\ntest = "SEQ1M Q1T1 write"\n'
                         '[[thresholds]]\njob = "seq"\nfigure = "MB/s"\nsource = "mine"\n\n'
                         '[[thresholds]]\njob = "seq"\nfigure = "MB/s"\nat_least = 30\n'
                         'source = "mine"\n'),
        "hostile.toml": ('# a name completion would run\nid = "$(touch pwned)"\n'
                         '[[thresholds]]\nfigure = "link"\nat_least = "500 MB/s"\n'
                         'source = "mine"\n'),
    }
    for name, text in files.items():
        config(f"checks/{name}").write_text(text)
    out = diskmark("checks")
    assert out.returncode == 0, out.stderr
    where = config("checks")
    said = out.stderr.splitlines()
    assert f"diskmark: skipped check {where}/syntax.toml:2: " in out.stderr, said
    assert (f"diskmark: skipped check {where}/unknown-test.toml:4: jobs.seq.test: 'SEQ1X Q1T1' "
            "is not a test like SEQ1M Q8T1 or RND4K Q32T1") in said, said
    # the first threshold has no limit at all, the second one without a unit
    assert (f"diskmark: skipped check {where}/no-unit.toml:4: thresholds[1] needs one limit: "
            "at_least (a floor) or below (a ceiling)") in said, said
    files["no-unit.toml"] = files["no-unit.toml"].replace("figure = \"MB/s\"\nsource",
                                                          "figure = \"MB/s\"\nbelow = \"9\"\nsource")
    config("checks/no-unit.toml").write_text(files["no-unit.toml"])
    said = diskmark("checks").stderr.splitlines()
    assert (f"diskmark: skipped check {where}/no-unit.toml:7: thresholds[1].below: '9' has no "
            "unit; write it with one, like '30 MB/s'") in said, said
    assert any(line.startswith(f"diskmark: skipped check {where}/hostile.toml:2: id '$(touch "
                               "pwned)' cannot be typed in a shell as it is") for line in said)
    assert not Path("pwned").exists()
    # the built-in checks are all there all the same
    assert "etcd: etcd" in out.stdout and "sd-v30: " in out.stdout


def test_claim_shows_its_share_in_the_grid_and_the_json(tmp_path, no_leftovers):
    no_leftovers.append(tmp_path)
    claim = "SEQ1M Q8T1 read=1000000,write=0.001"
    out = diskmark("run", "--target", str(tmp_path), *TINY_ARGS, "--profile", "demo",
                   "--claim", claim, "--format", "grid", "-q")
    print(out.stdout.split("\n\n")[0])
    assert out.returncode == 0, out.stderr
    row = next(x for x in out.stdout.splitlines() if x.startswith("SEQ1M Q8T1 "))
    read, write = row.split()[2:4], row.split()[4:6]
    assert read[1].endswith("%!") and write[1].endswith("%") and not write[1].endswith("!"), row
    assert "NN%: the share of the drive's claim a figure reached" in out.stdout
    assert "SEQ1M Q8T1 read: " in out.stdout and "of the claimed 1000000.00 MB/s, short " in out.stdout
    out = diskmark("run", "--target", str(tmp_path), *TINY_ARGS, "--profile", "demo",
                   "--claim", claim, "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    claims = {c["test"]: c for c in json.loads(out.stdout)["claims"]}
    read, write = claims["SEQ1M Q8T1/read"], claims["SEQ1M Q8T1/write"]
    assert read["verdict"] == "short" and 0 < read["pct_of_claim"] < 100
    assert write["verdict"] == "meets" and write["pct_of_claim"] > 100
    assert read["source"] == "--claim" and read["value"] == 1_000_000 and read["unit"] == "MB/s"


def test_the_claims_file_for_this_machines_disk_applies_by_itself(tmp_path, no_leftovers):
    model = facts_for(tmp_path).model
    if not model:
        pytest.skip(f"{tmp_path} is on no disk whose model diskmark can read")
    no_leftovers.append(tmp_path)
    config("claims.toml").write_text(
        '[[drive]]\nmodel = "Another Drive 1TB"\nclaims = ["SEQ1M Q8T1 read=1"]\n\n'
        f'[[drive]]\nmodel = {json.dumps(model.upper() + "  ")}\nsource = "its datasheet"\n'
        'claims = ["SEQ1M Q8T1 read=1000000IOPS,write=0.001"]\n')
    out = diskmark("run", "--target", str(tmp_path), *TINY_ARGS, "--profile", "demo",
                   "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    claims = {c["test"]: c for c in json.loads(out.stdout)["claims"]}
    assert set(claims) == {"SEQ1M Q8T1/read", "SEQ1M Q8T1/write"}
    read = claims["SEQ1M Q8T1/read"]
    assert read["unit"] == "IOPS" and read["verdict"] == "short"
    assert read["source"] == f"{config('claims.toml')} [{model.upper()}]: its datasheet"
    # a claim typed for a test wins over the file's for it
    out = diskmark("run", "--target", str(tmp_path), *TINY_ARGS, "--profile", "demo",
                   "--claim", "SEQ1M Q8T1 read=0.001", "--format", "json", "-q")
    claims = {c["test"]: c for c in json.loads(out.stdout)["claims"]}
    assert claims["SEQ1M Q8T1/read"]["source"] == "--claim"
    assert claims["SEQ1M Q8T1/write"]["source"].endswith("its datasheet")
