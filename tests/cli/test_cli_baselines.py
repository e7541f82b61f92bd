"""`diskmark run --save-baseline/--compare/--fail-on-regression` and `diskmark baselines ...`
as a script or CI job calls them: real processes, real fio, real files in DISKMARK_HOME."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TINY_ARGS

from diskmark.store.exchange import export_baseline, import_baseline
from diskmark.store.store import Store

# one test (SEQ1M Q8T1 read), one pass: a couple of seconds per run
TINY = [*TINY_ARGS, "--profile", "demo", "--mode", "read"]


def diskmark(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if home is not None:
        env["DISKMARK_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=300, env=env)


def scale_figures(path: Path, factor: float) -> None:
    """Make a saved baseline `factor` times faster: bandwidth and IOPS up, latency down."""
    data = json.loads(path.read_text())
    for test in data["result"]["tests"]:
        for run in test["runs"] + ([test["warmup"]] if test.get("warmup") else []):
            for key in ("mb_s", "iops", "read_mb_s", "write_mb_s"):
                run[key] *= factor
            run["lat_us"] /= factor
    path.write_text(json.dumps(data, indent=2))


@pytest.fixture(scope="module")
def real_baseline(tmp_path_factory) -> Path:
    """A baseline saved by a real run (in its own home); tests copy it into theirs."""
    home = tmp_path_factory.mktemp("real-home")
    target = tmp_path_factory.mktemp("real-target")
    out = diskmark("run", "--target", str(target), *TINY, "--save-baseline", "real",
                   "--note", "from a real fio run", "-q", home=home)
    assert out.returncode == 0, out.stderr
    exported = tmp_path_factory.mktemp("exported")
    out = diskmark("baselines", "export", "real", str(exported), home=home)
    assert out.returncode == 0, out.stderr
    files = list(exported.glob("*.json"))
    assert len(files) == 1
    return files[0]


def install(src: Path, name: str | None = None) -> Path:
    """Put a copy of a saved baseline into this test's store (optionally renamed), as a file
    in the baselines directory of earlier versions: imported when the store next looks."""
    store = Store()
    if name is None:
        dest = store.baselines_dir / src.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, dest)
        return dest
    data = json.loads(src.read_text())
    data["name"] = name
    dest = store.baseline_path(name)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(data))
    return dest


# --- the run options and the gate, on real fio ---------------------------------------------


def test_save_compare_and_gate_with_real_runs(tmp_path, isolated_home):
    target = tmp_path / "target"
    target.mkdir()
    store = Store()

    out = diskmark("run", "--target", str(target), *TINY, "--save-baseline", "base",
                   "--note", "first run", "-q")
    assert out.returncode == 0, out.stderr
    base = store.get_baseline("base")
    assert base.note == "first run" and base.session.tests[0].key == "SEQ1M Q8T1/read"
    assert base.path == isolated_home / "data" / "diskmark.sqlite3"
    assert len(store.history()) == 1  # every finished run is kept

    # a name that exists is refused before anything runs
    out = diskmark("run", "--target", str(target), *TINY, "--save-baseline", "base", "-q")
    assert out.returncode == 2
    assert "exists already" in out.stderr and "--replace" in out.stderr
    assert len(store.history()) == 1

    # a generous gate passes, and the JSON report gains a comparison section
    out = diskmark("run", "--target", str(target), *TINY, "--compare", "base",
                   "--fail-on-regression", "1000", "--format", "json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["schema"] == "diskmark.result/1"
    cmp = report["comparison"]
    assert cmp["baseline_name"] == "base"
    [test] = cmp["tests"]
    assert test["key"] == "SEQ1M Q8T1/read"
    mb = test["units"]["mb_s"]
    assert mb["baseline"] == pytest.approx(base.session.tests[0].best_mb_s)
    assert mb["current"] == pytest.approx(report["tests"][0]["best"]["mb_s"])
    assert mb["verdict"] in ("better", "worse", "same")
    assert cmp["settings_differences"] == []
    assert "no test is worse than baseline 'base' by more than 1000%" in out.stderr

    # the baseline becomes 100x faster than any real run: a 5 % gate must fail, naming the test
    exported = export_baseline(store, "base", tmp_path / "base.json")
    scale_figures(exported, 100)
    import_baseline(store, exported, replace=True)
    out = diskmark("run", "--target", str(target), *TINY, "--compare", "base",
                   "--fail-on-regression", "5", "-q")
    assert out.returncode == 3, out.stderr
    assert "regression" in out.stderr and "SEQ1M Q8T1 Read MB/s" in out.stderr
    assert re.search(r"SEQ1M Q8T1 Read MB/s: [\d.]+ -> [\d.]+ \(-9\d\.\d%, 9\d\.\d% worse\)",
                     out.stderr)
    assert "SEQ1M Q8T1 Read µs" in out.stderr
    # the text report carries the comparison table
    assert "against baseline 'base'" in out.stdout
    assert "WORSE" in out.stdout
    assert len(store.history()) == 3  # the failed gate's run is kept too

    # without the gate the same comparison exits 0
    out = diskmark("run", "--target", str(target), *TINY, "--compare", "base", "-q")
    assert out.returncode == 0, out.stderr
    assert "WORSE" in out.stdout


def test_gate_with_nothing_in_common_does_not_pass(tmp_path, real_baseline):
    install(real_baseline)  # a read-only baseline
    out = diskmark("run", "--target", str(tmp_path), *TINY[:-2], "--mode", "write",
                   "--compare", "real", "--fail-on-regression", "5", "-q")
    assert out.returncode == 2, out.stderr
    assert "nothing to compare" in out.stderr
    assert "mode Write only vs Read only" in out.stdout


def test_replace_an_existing_baseline(tmp_path, real_baseline):
    old = install(real_baseline)
    before = json.loads(old.read_text())["result"]["started"]
    out = diskmark("run", "--target", str(tmp_path), *TINY, "--save-baseline", "real",
                   "--replace", "--note", "again", "-q")
    assert out.returncode == 0, out.stderr
    entry = Store().get_baseline("real")
    assert entry.note == "again" and entry.file_name == old.name
    assert entry.session.started != before or entry.saved


@pytest.mark.parametrize("args,message", [
    (["--compare", "nope"], "no baseline named 'nope'"),
    (["--fail-on-regression", "5"], "--fail-on-regression needs --compare"),
    (["--note", "x"], "--note goes with --save-baseline"),
    (["--replace"], "--replace goes with --output FILE or --save-baseline NAME"),
    (["--save-baseline", "two\nlines"], "printable"),
    (["--compare", "real", "--fail-on-regression", "-1"], "0 or more"),
])
def test_bad_baseline_options_exit_2_before_running(tmp_path, real_baseline, args, message):
    install(real_baseline)
    out = diskmark("run", "--target", str(tmp_path), *TINY, *args, "-q")
    assert out.returncode == 2
    assert message in out.stderr
    assert Store().history() == []  # nothing ran
    assert list(tmp_path.iterdir()) == []


def test_damaged_compare_baseline_is_refused(tmp_path):
    store = Store()
    store.baselines_dir.mkdir(parents=True)
    store.baseline_path("broken").write_text('{"schema": "diskmark.saved/1", "kind": "base')
    out = diskmark("run", "--target", str(tmp_path), *TINY, "--compare", "broken", "-q")
    assert out.returncode == 2
    assert "is damaged: not valid JSON (truncated?)" in out.stderr


# --- diskmark baselines ... ----------------------------------------------------------------


def test_list_show_and_empty(real_baseline):
    out = diskmark("baselines", "list")
    assert out.returncode == 0 and out.stdout == ""
    assert "No baselines" in out.stderr

    install(real_baseline)
    install(real_baseline, "Zweite Platte / ext4")
    store = Store()
    store.baselines_dir.joinpath("truncated.json").write_text(real_baseline.read_text()[:300])
    out = diskmark("baselines", "list")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:4] == ["NAME", "RUN", "DATE", "DEVICE"]
    assert "READ MB/s" in lines[0] and "WRITE MB/s" in lines[0]
    real = next(line for line in lines if line.startswith("real "))
    entry = store.get_baseline("real")
    assert entry.device in real and entry.fstype in real
    assert f"{entry.session.tests[0].best_mb_s:.2f}" in real
    assert "SEQ1M Q8T1 / from a real fio run" in real
    assert any(line.startswith("Zweite Platte / ext4 ") for line in lines)
    damaged = next(line for line in lines if line.startswith("truncated "))
    assert "DAMAGED: not valid JSON (truncated?)" in damaged

    out = diskmark("baselines", "show", "real")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Baseline: real\n    Note: from a real fio run\n")
    assert "Linux storage benchmark" in out.stdout
    assert "SEQ    1MiB (Q=  8, T= 1):" in out.stdout and "[Read]" in out.stdout

    out = diskmark("baselines", "show", "truncated")
    assert out.returncode == 2 and "damaged" in out.stderr
    out = diskmark("baselines", "show", "missing")
    assert out.returncode == 2 and "no baseline named 'missing'" in out.stderr


def test_compare_two_saved_baselines(real_baseline):
    install(real_baseline)
    faster = install(real_baseline, "faster")
    scale_figures(faster, 2)
    data = json.loads(faster.read_text())
    data["result"]["settings"]["size"] = 1024 ** 3
    data["result"]["system"]["fstype"] = "xfs"
    faster.write_text(json.dumps(data))

    out = diskmark("baselines", "compare", "real", "faster")
    assert out.returncode == 0, out.stderr
    assert "Comparison: baseline 'faster'" in out.stdout and "against baseline 'real'" in out.stdout
    row = next(line for line in out.stdout.splitlines() if line.startswith("SEQ1M Q8T1 Read"))
    assert "+100.0%" in row and row.rstrip().endswith("better")
    assert "!   size 1GiB vs 16MiB" in out.stdout
    assert "!   filesystem xfs vs " in out.stdout

    out = diskmark("baselines", "compare", "real", "faster", "--format", "json")
    assert out.returncode == 0
    d = json.loads(out.stdout)
    assert d["current_name"] == "faster" and d["baseline_name"] == "real"
    assert d["tests"][0]["units"]["mb_s"]["pct"] == pytest.approx(100)
    assert d["tests"][0]["units"]["lat_us"]["pct"] == pytest.approx(-50)

    # the gate works on saved results too: "real" is half as fast as "faster"
    out = diskmark("baselines", "compare", "faster", "real", "--fail-on-regression", "10")
    assert out.returncode == 3
    assert "SEQ1M Q8T1 Read MB/s" in out.stderr and "(-50.0%, 50.0% worse)" in out.stderr
    # one rule: twice the latency is as much worse as half the MB/s
    assert "(+100.0%, 50.0% worse)" in out.stderr
    out = diskmark("baselines", "compare", "real", "nope")
    assert out.returncode == 2 and "no baseline named 'nope'" in out.stderr


def test_delete(real_baseline):
    path = install(real_baseline)
    Store().baselines_dir.joinpath("junk.json").write_text("{")
    out = diskmark("baselines", "delete", "real")
    assert out.returncode == 0, out.stderr
    assert "deleted baseline 'real'" in out.stderr and not path.exists()
    out = diskmark("baselines", "delete", "real")
    assert out.returncode == 2 and "no baseline named 'real'" in out.stderr
    out = diskmark("baselines", "delete", "junk")  # a damaged file, by its file stem
    assert out.returncode == 0, out.stderr
    assert Store().baselines() == []


def test_export_and_import(tmp_path, real_baseline):
    install(real_baseline)
    dest = tmp_path / "shared.json"
    out = diskmark("baselines", "export", "real", str(dest))
    assert out.returncode == 0, out.stderr
    exported = json.loads(dest.read_text())
    assert exported["schema"] == "diskmark.saved/1" and exported["name"] == "real"

    dest.write_text("someone else's file")
    out = diskmark("baselines", "export", "real", str(dest))
    assert out.returncode == 2 and f"{dest} exists; add --replace to replace it." in out.stderr
    assert dest.read_text() == "someone else's file"
    out = diskmark("baselines", "export", "real", str(dest), "--replace")
    assert out.returncode == 0 and json.loads(dest.read_text())["name"] == "real"

    out = diskmark("baselines", "import", str(dest))
    assert out.returncode == 2 and "exists already" in out.stderr
    assert "or add --replace to replace it" in out.stderr
    out = diskmark("baselines", "import", str(dest), "--name", "colleague's SSD")
    assert out.returncode == 0, out.stderr
    assert "as baseline \"colleague's SSD\"" in out.stderr
    out = diskmark("baselines", "import", str(dest), "--replace")
    assert out.returncode == 0, out.stderr
    out = diskmark("baselines", "import", str(dest), "--force")  # the word it had, kept
    assert out.returncode == 0, out.stderr
    names = sorted(e.name for e in Store().baselines())
    assert names == ["colleague's SSD", "real"]

    # bad values are refused with the reason, and nothing is written
    bad = json.loads(dest.read_text())
    bad["result"]["tests"][0]["runs"][0]["mb_s"] = -12.5
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(bad))
    out = diskmark("baselines", "import", str(src), "--name", "bad")
    assert out.returncode == 2
    assert "cannot be imported" in out.stderr and "mb_s is negative" in out.stderr
    bad["result"]["tests"][0]["runs"][0]["mb_s"] = "NaN"
    src.write_text(json.dumps(bad).replace('"NaN"', "NaN"))
    out = diskmark("baselines", "import", str(src), "--name", "bad")
    assert out.returncode == 2 and "not a finite number" in out.stderr
    out = diskmark("baselines", "import", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "no such file" in out.stderr
    assert sorted(e.name for e in Store().baselines()) == names

    # a plain `diskmark run --format json` report imports too
    report = tmp_path / "report.json"
    report.write_text(json.dumps(exported["result"]))
    out = diskmark("baselines", "import", str(report))
    assert out.returncode == 0, out.stderr
    assert Store().get_baseline("report").session.tests[0].key == "SEQ1M Q8T1/read"


def test_io_failure_exits_1(tmp_path, real_baseline):
    if os.geteuid() == 0:
        # root ignores directory permissions; a path through a regular file fails for anyone
        blocker = tmp_path / "file"
        blocker.write_text("x")
        dest = blocker / "out.json"
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        dest = ro / "out.json"
    install(real_baseline)
    out = diskmark("baselines", "export", "real", str(dest))
    assert out.returncode == 1, out.stderr
    assert "cannot write" in out.stderr
    if os.geteuid() == 0:
        assert "is not a directory" in out.stderr


def test_baselines_needs_an_action():
    out = diskmark("baselines")
    assert out.returncode == 2
